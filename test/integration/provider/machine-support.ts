/** Drives rackform_machine through the provider server (in process) against a lab with MAAS and Ironic on loopback. */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { IronicClient } from "../../../src/clients/ironic/index.js";
import { MaasClient } from "../../../src/clients/maas/index.js";
import { type Diagnostic, formatPath, nullObject, type ObjectValue, type Value } from "../../../src/framework/index.js";
import { type Lab, startLab } from "../../../src/lab/index.js";
import type { EnrollSpec } from "../../../src/provider/backends/index.js";
import { type ProviderData, providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { machineSchema } from "../../../src/provider/resources/machine-schema.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { keepingData, resourceDriver } from "../../support/provider-rpc.js";

/** The resource type under test. */
export const T = "rackform_machine";

/** Plan, apply, destroy and refresh of it, as the engine would (test/support/provider-rpc.ts). */
export const { apply, destroy, read } = resourceDriver(T, machineSchema);

/** "severity summary @ path: detail" lines, for readable assertion failures. */
export const lines = (ds: readonly Diagnostic[]) =>
  ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}: ${d.detail}`).join("\n");

/** A lab with every outlet on, and clients of its MAAS and Ironic for assertions. */
export interface MachineLab {
  readonly lab: Lab;
  readonly maas: MaasClient;
  readonly ironic: IronicClient;
  readonly password: string;
  close(): Promise<void>;
}

/** Starts the lab (instant profile) with `nodes` nodes and switches their outlets on. */
export async function startMachineLab(nodes: number): Promise<MachineLab> {
  const lab = await startLab({ nodes, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-machine-")) });
  if (!lab.info.maas || !lab.info.ironic) {
    await lab.close();
    throw new Error("the lab started without MAAS and Ironic (lab.info.maas / lab.info.ironic missing)");
  }
  for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
  const maas = new MaasClient({ url: lab.info.maas.url, apiKey: lab.info.maas.apiKey });
  const ironic = new IronicClient({ url: lab.info.ironic.url });
  return {
    lab,
    maas,
    ironic,
    password: lab.info.nodes[0].bmc.password,
    async close() {
      await maas.close();
      await ironic.close();
      await lab.close();
    },
  };
}

/** One provider process: a configured server and its ProviderData (to close its connections). */
export interface ProviderProcess {
  readonly srv: ProviderServer;
  data(): ProviderData | undefined;
}

/**
 * A fresh provider server configured for the lab's BMCs, MAAS and Ironic (with another BMC password if given). The
 * ironic block names the lab's IPA kernel and ramdisk (the lab's Ironic has no conductor default) unless `ironic` says
 * otherwise.
 */
export function providerFor(
  ml: MachineLab,
  bmcPassword?: string,
  ironic: { deploy_kernel: string | null; deploy_ramdisk: string | null } = {
    deploy_kernel: `${ml.lab.images.url}ipa.kernel`,
    deploy_ramdisk: `${ml.lab.images.url}ipa.initramfs`,
  },
): Promise<ProviderProcess> {
  return configuredProvider({
    redfish: redfishBlock(ml, bmcPassword),
    maas: { url: ml.lab.info.maas!.url, api_key: ml.lab.info.maas!.apiKey },
    ironic: { url: ml.lab.info.ironic!.url, username: null, password: null, token: null, ...ironic },
  });
}

/** The provider's redfish block for the lab's BMCs (their password, or `password` after a rotation). */
export function redfishBlock(ml: MachineLab, password?: string) {
  const { username } = ml.lab.info.nodes[0].bmc;
  return {
    ...nullObject(providerSchema.blocks!.redfish.block),
    username,
    password: password ?? ml.lab.info.nodes[0].bmc.password,
    ca_file: ml.lab.info.ca,
  };
}

/** A fresh provider server configured with `blocks` (the rest of the provider config null), expecting no diagnostic. */
export async function configuredProvider(blocks: Record<string, Value>): Promise<ProviderProcess> {
  // Polls every 20 ms: the lab runs on a fast profile, so a real-hardware interval would only be waited out.
  const provider = rackformProvider({
    // Lists are not kept between reads: each step of these tests stands for a new plan, which the engines run in a
    // new provider process.
    timings: { readyPollMs: 20, backendPollMs: 20, memberPollMs: 20, refreshListMaxAgeMs: 0, imageUploadGraceMs: 500 },
  });
  const p = keepingData(provider);
  const r = await p.srv.configureProvider({ terraformVersion: "1.11.4", config: configOf(providerSchema, blocks) });
  expect(r.diagnostics).toEqual([]);
  return p;
}

/** What a backend is handed to enroll `config`'s node (its MACs and BMC as the config names them). */
export function enrollSpecOf(ml: MachineLab, config: ObjectValue): EnrollSpec {
  const node = ml.lab.info.nodes.find((n) => n.name === config.name);
  if (!node) throw new Error(`no node ${String(config.name)} in the lab`);
  return {
    name: node.name,
    macs: config.macs as string[],
    bmcAddress: config.bmc_endpoint as string,
    bmcUsername: node.bmc.username,
    bmcPassword: node.bmc.password,
    bmcInsecure: false,
    architecture: "amd64/generic",
  };
}

/** A test file's lab and provider processes, set by the hooks machineRig registers. */
export interface MachineRig {
  /** The lab (set in beforeAll). */
  readonly ml: MachineLab;
  /** The file's provider process (set in beforeAll unless `provider: false`). */
  readonly p: ProviderProcess;
  /** Another provider process (providerFor's options), closed with the others after the file. */
  provider(bmcPassword?: string, ironic?: Parameters<typeof providerFor>[2]): Promise<ProviderProcess>;
}

/**
 * Registers a file's beforeAll (a lab of `nodes`, then its provider process) and afterAll (every provider process it
 * opened closed, then the lab). Tests read `rig.ml` and `rig.p`; a file's own beforeAll registered after it runs after.
 */
export function machineRig(nodes: number, opts: { provider?: boolean } = {}): MachineRig {
  const processes: ProviderProcess[] = [];
  let ml: MachineLab | undefined;
  let p: ProviderProcess | undefined;
  const rig: MachineRig = {
    get ml() {
      if (!ml) throw new Error("machineRig: the lab is set in beforeAll");
      return ml;
    },
    get p() {
      if (!p) throw new Error("machineRig: no provider process (provider: false, or before beforeAll)");
      return p;
    },
    async provider(bmcPassword, ironic) {
      const x = await providerFor(rig.ml, bmcPassword, ironic);
      processes.push(x);
      return x;
    },
  };
  beforeAll(async () => {
    ml = await startMachineLab(nodes);
    if (opts.provider !== false) p = await rig.provider();
  });
  afterAll(async () => {
    for (const x of processes) await x.data()?.core.close();
    await ml?.close();
  });
  return rig;
}

/** The config of one lab node's machine. */
export function machineConfig(
  ml: MachineLab,
  node: string,
  backend: "maas" | "ironic",
  set: Record<string, Value> = {},
) {
  const info = ml.lab.info.nodes.find((n) => n.name === node)!;
  const macs = ml.lab.world.node(node)!.ports.map((p) => p.mac.toLowerCase());
  return configOf(machineSchema, { name: node, backend, bmc_endpoint: info.bmc.url, macs: [macs[0]], ...set });
}
