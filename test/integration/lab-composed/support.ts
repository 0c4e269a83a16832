/**
 * Test support for the composed lab: start it, and talk to its MAAS (OAuth PLAINTEXT, as MAAS's api docs describe),
 * Ironic (microversion header), slurmrestd (JWT headers) and Kubernetes API (bearer) the way their real clients do.
 * Independent of src/clients on purpose: the lab must satisfy the protocols, not our own client.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Lab, type StartLabOptions, startLab } from "../../../src/lab/index.js";
import { labControl, responseOf as res } from "../../support/lab-control.js";
import { oauthHeader } from "../../support/maas-oauth.js";
import { until } from "../../support/until.js";

/** Untyped JSON as tests read it. */
// biome-ignore lint/suspicious/noExplicitAny: test payloads are arbitrary JSON navigated by assertion
export type Json = any;

/** A response as tests look at it. */
export interface Res {
  readonly status: number;
  readonly json: Json;
  readonly text: string;
}

/** A composed lab (instant profile) in a temporary state dir; `stop` closes it and removes the dir. */
export async function startComposedLab(
  opts: Partial<StartLabOptions> = {},
): Promise<{ lab: Lab; stop(): Promise<void> }> {
  const stateDir = mkdtempSync(join(tmpdir(), "rackform-composed-"));
  const lab = await startLab({ profile: "instant", nodes: 1, ...opts, stateDir });
  return {
    lab,
    stop: async () => {
      await lab.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

function info<K extends "maas" | "ironic" | "slurm" | "kubernetes">(lab: Lab, key: K) {
  const v = lab.info[key];
  if (!v) throw new Error(`the lab file has no "${key}" (was the lab started with backends: false?)`);
  return v as NonNullable<Lab["info"][K]>;
}

/** A MAAS API 2.0 call with form parameters, signed OAuth 1.0 PLAINTEXT with the lab's API key. */
export async function maas(
  lab: Lab,
  method: "GET" | "POST",
  path: string,
  form: Record<string, string> = {},
): Promise<Res> {
  const { url, apiKey } = info(lab, "maas");
  const authorization = oauthHeader(apiKey);
  const target = new URL(`api/2.0/${path}`, url);
  const init: RequestInit = { method, headers: { authorization } };
  if (method === "GET") for (const [k, v] of Object.entries(form)) target.searchParams.set(k, v);
  else init.body = new URLSearchParams(form);
  return res(await fetch(target, init));
}

/** An Ironic call at microversion 1.87. */
export async function ironic(lab: Lab, method: string, path: string, body?: unknown): Promise<Res> {
  const { url } = info(lab, "ironic");
  return res(
    await fetch(`${url}${path}`, {
      method,
      headers: { "X-OpenStack-Ironic-API-Version": "1.87", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

/** A slurmrestd call authenticated as the lab's user with its JWT. */
export async function slurm(lab: Lab, method: string, path: string, body?: unknown): Promise<Res> {
  const { url, user, token } = info(lab, "slurm");
  return res(
    await fetch(`${url}/slurm/v0.0.41${path}`, {
      method,
      headers: { "X-SLURM-USER-NAME": user, "X-SLURM-USER-TOKEN": token, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

/** A Kubernetes API call with the lab's bearer token. */
export async function kube(lab: Lab, method: string, path: string): Promise<Res> {
  const { url, token } = info(lab, "kubernetes");
  return res(await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}` } }));
}

/** Creates a MAAS machine for lab node `i` with Redfish power (its BMC), named `hostname`, as an operator would. */
export function createRedfishMachine(lab: Lab, i: number, hostname: string): Promise<Res> {
  const node = lab.info.nodes[i];
  const world = lab.world.node(node.name);
  if (!world) throw new Error(`no world node ${node.name}`);
  return maas(lab, "POST", "machines/", {
    architecture: "amd64/generic",
    mac_addresses: world.ports[0].mac,
    hostname,
    power_type: "redfish",
    power_parameters_power_address: node.bmc.url,
    power_parameters_power_user: node.bmc.username,
    power_parameters_power_pass: node.bmc.password,
  });
}

/** Waits for a MAAS machine to reach `status`; fails early when it lands in an unexpected Failed… status. */
export async function maasStatus(lab: Lab, systemId: string, status: string): Promise<Json> {
  let seen = "";
  return until(
    () => `MAAS machine ${systemId} to be ${status} (now ${seen})`,
    async () => {
      const m = (await maas(lab, "GET", `machines/${systemId}/`)).json;
      seen = m.status_name;
      if (/^Failed/.test(seen) && !/^Failed/.test(status))
        throw new Error(`machine ${systemId} is ${seen}: ${m.status_message}`);
      return seen === status ? m : undefined;
    },
  );
}

/** Waits for an Ironic node to reach `state` with no reservation; fails early on an unexpected *failed state. */
export async function ironicState(lab: Lab, ident: string, state: string): Promise<Json> {
  return until(`Ironic node ${ident} to be ${state}`, async () => {
    const n = (await ironic(lab, "GET", `/v1/nodes/${ident}`)).json;
    if (/failed$|^error$/.test(n.provision_state) && n.provision_state !== state) {
      throw new Error(`node ${ident} is ${n.provision_state}: ${n.last_error}`);
    }
    return n.provision_state === state && n.reservation === null ? n : undefined;
  });
}

/** Switches a node's outlet on and waits until its BMC has booted (instant profile: at once). */
export async function powerOutlet(lab: Lab, node: string): Promise<void> {
  const r = await labControl(lab, "POST", `/nodes/${node}/outlet`, { state: "On" });
  if (r.status !== 200) throw new Error(`outlet on failed: ${r.status} ${r.text}`);
  await until(`BMC of ${node} up`, async () =>
    (await labControl(lab, "GET", `/nodes/${node}`)).json.bmc === "up" ? true : undefined,
  );
}

/** cloud-init user data asking the node to join the given schedulers. */
export function joinUserData(...targets: string[]): string {
  return `#cloud-config\n# rackform-join: ${targets.join(",")}\nhostname: ignored\n`;
}
