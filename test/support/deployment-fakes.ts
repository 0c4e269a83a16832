/**
 * rackform_deployment's seams in memory for unit tests: deps over a backend (a recording budget, image.url checks
 * that answer as told), a MAAS backend with one ready machine, and deployments planned and recorded on it.
 */
import { UNKNOWN } from "../../src/framework/index.js";
import type { Backend } from "../../src/provider/backends/index.js";
import type { DeploymentDeps } from "../../src/provider/resources/deployment-deps.js";
import type { DeploymentPlan, DeploymentState } from "../../src/provider/resources/deployment-schema.js";
import { RolloutHandovers } from "../../src/provider/shared/rollout-handover.js";
import { FakeBackend, type FakeMachine } from "./fake-backend.js";

export const SHA = "a".repeat(64);
export const LABEL = "custom/ubuntu-gpu-2026.06.2";

/** Deps over `backend`; image.url answers unless `urlProblem` says what is wrong with it. */
export function deploymentDeps(backend: Backend, urlProblem?: string) {
  const budget: string[] = [];
  const checked: string[] = [];
  const rollouts = new RolloutHandovers();
  const deps: DeploymentDeps = {
    backend: () => backend,
    imageUrlAnswers: async (c) => {
      checked.push(`answers ${c.image.url}`);
      if (urlProblem === undefined) return true;
      c.diagnostics.error("Image URL does not answer", urlProblem);
      return false;
    },
    imageUrlProblem: async (url) => {
      checked.push(`problem ${url}`);
      return urlProblem;
    },
    images: { upload: () => undefined, tearingDown: () => void budget.push("tearingDown") },
    sightings: { seenOn: () => false },
    budget: {
      release: (names, why) => void budget.push(`release ${names.join(",")}: ${why}`),
      releaseFailed: async (names, why) => void budget.push(`releaseFailed ${names.join(",")}: ${why}`),
    },
    rollouts,
    imageUploadGraceMs: 0,
  };
  return { deps, budget, checked, rollouts };
}

export const image = {
  name: "ubuntu-gpu",
  version: "2026.06.2",
  url: null,
  check_url: null,
  sha256: SHA,
  signature: null,
};

export const plan = (machineId: string, o: Partial<DeploymentPlan> = {}): DeploymentPlan => ({
  id: UNKNOWN,
  machine_id: machineId,
  image,
  user_data: null,
  osystem: null,
  distro_series: null,
  deploy_kernel: null,
  deploy_ramdisk: null,
  erase_on_destroy: true,
  rolling: null,
  image_ref: UNKNOWN,
  deployed_image: UNKNOWN,
  status: UNKNOWN,
  power_state: UNKNOWN,
  bmc_health: null,
  remediation_steps: null,
  remediation: null,
  timeouts: null,
  ...o,
});

/** A MAAS backend with one ready machine. */
export function maas(): { fake: FakeBackend; m: FakeMachine } {
  const fake = new FakeBackend("maas");
  return { fake, m: fake.seed({ name: "n1", state: "ready", status: "Ready" }) };
}

/** A deployment recorded on `m`. */
export const recorded = (m: FakeMachine, o: Partial<DeploymentState> = {}): DeploymentState => ({
  ...plan(`maas:${m.id}`),
  erase_on_destroy: true,
  id: `maas:${m.id}`,
  image_ref: `ubuntu-gpu@2026.06.2 sha256:${SHA}`,
  deployed_image: LABEL,
  status: "Deployed",
  power_state: "on",
  remediation: null,
  ...o,
});
