/**
 * Fixtures for the construct tests: a lab-like rack (8 H100 nodes on two PDUs), the shared settings, and readers of
 * synthesized JSON.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { type App, type TerraformStack, Testing } from "cdktf";
import type { Construct } from "constructs";
import {
  AcceptancePolicy,
  Flavor,
  type IBackend,
  type ICluster,
  Image,
  MaasBackend,
  type RackNode,
  type RackPdu,
  type RackProps,
  type RedfishSettings,
  SlurmCluster,
} from "../../constructs/lib/index.js";

/** The golden image's checksum, as the demo derives it. */
export const SHA = createHash("sha256").update("ubuntu-gpu-2026.06.2").digest("hex");

/** Redfish settings as the lab hands them out. */
export const REDFISH: RedfishSettings = { username: "admin", caFile: "/tmp/lab/ca.pem" };

/** `count` PDUs of rack `rack`, named like the lab's. */
export function pdus(rack: string, count = 2, outlets?: number): RackPdu[] {
  return Array.from({ length: count }, (_, p) => ({
    name: `${rack}-pdu-${String.fromCharCode(97 + p)}`,
    endpoint: `https://127.11.${rack.replace(/\D/g, "") || "1"}.${p + 1}`,
    ...(outlets !== undefined ? { outlets } : {}),
  }));
}

/** `count` nodes of rack `rack` (rack names end in a number), alternating PDUs as the lab cables them. */
export function nodes(rack: string, count = 8, pduCount = 2): RackNode[] {
  const r = Number(rack.replace(/\D/g, "") || "1");
  return Array.from({ length: count }, (_, j) => ({
    name: `${rack}-n${String(j + 1).padStart(2, "0")}`,
    u: j + 1,
    pdu: `${rack}-pdu-${String.fromCharCode(97 + (j % pduCount))}`,
    outlet: Math.floor(j / pduCount) + 1,
    bmc: `127.10.${r}.${j + 1}`,
  }));
}

/** The settings every rack shares, created under `scope`. */
export interface Shared {
  readonly image: Image;
  readonly flavor: Flavor;
  readonly acceptance: AcceptancePolicy;
  readonly backend: IBackend;
  readonly cluster: ICluster;
}

/** The demo's settings: ubuntu-gpu 2026.06.2, 8× H100 with ≥ 1 TiB, the default gate, MAAS and Slurm. */
export function shared(scope: Construct): Shared {
  return {
    image: new Image(scope, "ubuntu-gpu", {
      version: "2026.06.2",
      url: "http://images.lab/ubuntu-gpu-2026.06.2.qcow2",
      sha256: SHA,
    }),
    flavor: new Flavor(scope, "hgx-h100", { gpus: { model: "H100", count: 8 }, minMemoryGiB: 1024 }),
    acceptance: new AcceptancePolicy(scope, "standard"),
    backend: new MaasBackend(scope, "maas", { url: "http://127.0.0.1:5240/MAAS/" }),
    cluster: new SlurmCluster(scope, "slurm", { url: "http://127.0.0.1:6820", user: "root" }),
  };
}

/** Full Rack props for rack `rack` from `s`, with `overrides`. */
export function rackProps(s: Shared, rack = "r1", overrides: Partial<RackProps> = {}): RackProps {
  return { pdus: pdus(rack), nodes: nodes(rack), ...s, redfish: REDFISH, ...overrides };
}

/** A Terraform expression as cdktf writes it into JSON, e.g. ref("var.x") is "${var.x}". */
export const ref = (expr: string): string => "${" + expr + "}";

/** A synthesized stack as JSON. */
export interface SynthJson {
  readonly provider?: Record<string, Record<string, unknown>[]>;
  readonly resource?: Record<string, Record<string, Record<string, unknown>>>;
  readonly variable?: Record<string, Record<string, unknown>>;
  readonly terraform?: { readonly backend?: Record<string, Record<string, unknown>> } & Record<string, unknown>;
}

/** The stack's synthesized JSON (cdktf's own validations run too). */
export function synthJson(stack: TerraformStack): SynthJson {
  return JSON.parse(Testing.synth(stack, true)) as SynthJson;
}

/** The resources of `type` by logical id. */
export function resources(json: SynthJson, type: string): Record<string, Record<string, unknown>> {
  return json.resource?.[type] ?? {};
}

/** The files `app` has written to its outdir (none until something synthesizes; cdktf makes empty folders early). */
export function written(app: App): string[] {
  try {
    return readdirSync(app.outdir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch {
    return [];
  }
}
