/**
 * What the examples read from the lab file (RACKFORM_LAB_FILE, written by `rackform lab up --out lab.json`): the lab's
 * CA, its PDUs and nodes, and the controllers' endpoints. Secrets are not read from it: they reach the engine as
 * TF_VAR_* variables, so they are never in code or in cdk.tf.json. Against real hardware, this is where an inventory
 * (a CSV, a CMDB export) would be read instead.
 */
import { readFileSync } from "node:fs";

/** The part of the lab file the examples use. */
export interface LabFile {
  readonly ca: string;
  readonly pdus: readonly { id: string; rack: string; url: string }[];
  readonly nodes: readonly {
    name: string;
    rack: string;
    u: number;
    pdu: string;
    outlet: number;
    bmc: { url: string; username: string };
    /** The node's BlueField-3 DPU BMCs (`rackform lab up --dpus N`), reached with the same account. */
    dpus?: readonly { id: string; url: string }[];
  }[];
  readonly maas?: { url: string };
  readonly ironic?: { url: string };
  readonly slurm?: { url: string; user: string };
  /** The lab's image server (golden images and the IPA kernel/ramdisk over HTTP). */
  readonly images?: { url: string };
}

/** A controller an example needs from the lab. */
export type LabService = "maas" | "ironic" | "slurm";

/** Reads the lab file; fails naming what is missing. */
export function readLabFile(needs: readonly LabService[]): LabFile {
  const path = process.env.RACKFORM_LAB_FILE;
  if (!path) throw new Error("set RACKFORM_LAB_FILE to the file `rackform lab up --out lab.json` wrote");
  const lab = JSON.parse(readFileSync(path, "utf8")) as LabFile;
  const missing = needs.filter((s) => !lab[s]);
  if (missing.length > 0) throw new Error(`${path} has no ${missing.join(", ")}: start the lab with its backends`);
  return lab;
}

/** The racks of the lab, in order of their first node. */
export function rackNames(lab: LabFile): string[] {
  return [...new Set(lab.nodes.map((n) => n.rack))];
}

/**
 * Where the lab serves an image file: the image server Ironic downloads from (and rackform checks before a deploy).
 * Against real hardware this is your own image mirror.
 */
export function imageUrl(lab: LabFile, file: string): string {
  if (!lab.images) throw new Error("the lab file has no image server (images.url): start the lab with rackform lab up");
  return `${lab.images.url}${file}`;
}

/**
 * One rack's PDUs and its nodes by U position, PDU outlet and BMC address, as Rack and Fleet take them; with
 * `{ dpus: true }` also each node's DPU BMC addresses (RackNode.dpus), for a Flavor that declares DPUs.
 */
export function rackLayout(lab: LabFile, rack: string, opts: { readonly dpus?: boolean } = {}) {
  return {
    pdus: lab.pdus.filter((p) => p.rack === rack).map((p) => ({ name: p.id, endpoint: p.url })),
    nodes: lab.nodes
      .filter((n) => n.rack === rack)
      .map((n) => ({
        name: n.name,
        u: n.u,
        pdu: n.pdu,
        outlet: n.outlet,
        bmc: n.bmc.url,
        ...(opts.dpus ? { dpus: (n.dpus ?? []).map((d) => d.url) } : {}),
      })),
  };
}
