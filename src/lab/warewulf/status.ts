/**
 * The lab warewulfd's GET /status: per node the provisioning stage of its latest request, what was sent, its address
 * and when it was last seen. Real warewulfd records a stage whenever the node fetches a file (iPXE script, kernel,
 * image, overlays) and wwclient refreshes the runtime overlay periodically; the lab derives the same record from the
 * world: a host powered on that booted from the network walks the stages, one every deployMs / stages, and stays
 * "runtime" (last seen = now, as wwclient keeps polling) while it runs. A host that is off or booted from disk
 * fetches nothing: its record stays what it was.
 */
import type { Fields, WarewulfStore } from "./store.js";

/** What the lab's world says about the host behind a node's MACs. */
export interface HostObservation {
  /** The host runs (power On or coming up). */
  readonly on: boolean;
  /** When this power-on began (ms, lab clock). */
  readonly since: number;
  /** It booted from the network (PXE), so it talks to warewulfd. */
  readonly pxe: boolean;
  /** An install failure is injected (world fault deploy-failure): the image is not found. */
  readonly installFails: boolean;
}

/** The world seam: the host with one of these MACs, if any. */
export type ObserveHost = (macs: readonly string[]) => HostObservation | undefined;

/** One node's status record (warewulfd.NodeStatus, JSON names). */
export interface NodeStatusRecord {
  "node name": string;
  stage: string;
  sent: string;
  ipaddr: string;
  "last seen": number;
}

/** The stages a node walks, by how it boots: iPXE (default) or GRUB (warewulf.conf `grubboot`), dracut adds initramfs. */
export function stagesOf(node: Fields, grub: boolean): string[] {
  const dracut = node["ipxe template"] === "dracut";
  const first = grub ? ["efiboot", "grub"] : ["ipxe"];
  return [...first, "kernel", ...(dracut ? ["initramfs"] : []), "image", "system", "runtime"];
}

const SENT: Readonly<Record<string, string>> = {
  ipxe: "default.ipxe",
  efiboot: "shim.efi",
  grub: "grub.cfg",
  kernel: "vmlinuz",
  initramfs: "initramfs.img",
  image: "image.img.gz",
  system: "__SYSTEM__.img.gz",
  runtime: "__RUNTIME__.img.gz",
};

/** Derives status records from the registry and the world. */
export class StatusBoard {
  private readonly records = new Map<string, NodeStatusRecord>();
  private readonly stalls = new Map<string, string>();
  private readonly runtimeBoots = new Map<string, number>();

  constructor(
    private readonly store: WarewulfStore,
    private readonly observe: ObserveHost,
    private readonly opts: {
      readonly now: () => number;
      /** Time from power-on to runtime, split evenly over the stages. */
      readonly deployMs: () => number;
      readonly grub?: boolean;
      /** Called once per boot when a node reaches runtime. */
      readonly onRuntime?: (id: string, node: Fields) => void;
    },
  ) {}

  /** The node stops at `stage` on its next boots (never reaching runtime); undefined clears it. */
  stall(id: string, stage: string | undefined): void {
    if (stage === undefined) this.stalls.delete(id);
    else this.stalls.set(id, stage);
  }

  /** The whole status document: every defined node, "" / 0 for nodes never seen. */
  document(): { nodes: Record<string, NodeStatusRecord> } {
    const nodes: Record<string, NodeStatusRecord> = {};
    for (const id of [...this.store.nodes.keys()].sort()) nodes[id] = this.evaluate(id);
    for (const id of [...this.records.keys()]) if (!this.store.nodes.has(id)) this.records.delete(id);
    return { nodes };
  }

  /** True while the node's host runs the image it booted from warewulfd (at runtime, wwclient polling). */
  running(id: string): boolean {
    const host = this.observe(this.store.macsOf(id));
    return host?.on === true && host.pxe && this.evaluate(id).stage === "runtime";
  }

  private evaluate(id: string): NodeStatusRecord {
    const prior = this.records.get(id) ?? { "node name": id, stage: "", sent: "", ipaddr: "", "last seen": 0 };
    const node = this.store.merged(id) ?? {};
    const host = this.observe(this.store.macsOf(id));
    if (!host?.on || !host.pxe) return prior;
    const now = this.opts.now();
    const walk = stagesOf(node, this.opts.grub ?? false);
    const step = Math.max(0, this.opts.deployMs()) / walk.length;
    let reached = step === 0 ? walk.length - 1 : Math.min(walk.length - 1, Math.floor((now - host.since) / step));
    let sent: string | undefined;
    const stop = (stage: string, what?: string) => {
      const i = walk.indexOf(stage);
      if (i >= 0 && i <= reached) {
        reached = i;
        sent = what;
      }
    };
    const stalled = this.stalls.get(id);
    if (stalled) stop(stalled);
    if (!node["image name"]) stop("kernel", "NOT_FOUND");
    if (host.installFails) stop("image", "NOT_FOUND");
    const stage = walk[reached];
    const seenMs = stage === "runtime" ? now : host.since + reached * step;
    const rec: NodeStatusRecord = {
      "node name": id,
      stage,
      sent: sent ?? SENT[stage] ?? "",
      ipaddr: primaryAddress(node),
      "last seen": Math.floor(seenMs / 1000),
    };
    this.records.set(id, rec);
    if (stage === "runtime" && this.runtimeBoots.get(id) !== host.since) {
      this.runtimeBoots.set(id, host.since);
      this.opts.onRuntime?.(id, node);
    }
    return rec;
  }
}

function primaryAddress(node: Fields): string {
  const devs = node["network devices"];
  if (!devs || typeof devs !== "object") return "";
  const primary = typeof node["primary network"] === "string" ? node["primary network"] : undefined;
  const all = Object.entries(devs as Record<string, { ipaddr?: unknown }>);
  const hit = all.find(([k]) => k === primary) ?? all[0];
  return typeof hit?.[1]?.ipaddr === "string" ? hit[1].ipaddr : "";
}
