/**
 * BlueField-3 DPU operations through the DPU's own BMC (NVIDIA BlueField BMC documentation; NVIDIA's DOCA Platform
 * Framework uses the same calls): the Arm system `Systems/Bluefield` and its `Oem/Nvidia` Mode and HostRshim, the
 * BMC's `Managers/Bluefield_BMC/Oem/Nvidia` BmcRShim, and a BFB install through SimpleUpdate on `DPU_OS`.
 * The system and manager are found from the service root's collections (the member whose Id is Bluefield /
 * Bluefield_BMC); the OEM resources from their `Oem.Nvidia` links, else at `<member>/Oem/Nvidia` as documented.
 */
import { RedfishError } from "../errors.js";
import type { HttpCore } from "../http/core.js";
import { abortableSleep } from "../http/retry.js";
import { isObj, lastSegment, link, members } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { RedfishJson, TaskSnapshot } from "./types.js";
import { runSimpleUpdate, type SimpleUpdateOptions } from "./update.js";

/** The modes of operation a BlueField-3 BMC sets with Mode.Set. */
export type DpuMode = "DpuMode" | "NicMode";
/** The SimpleUpdate target of a BFB install. */
export const DPU_OS_TARGET = "redfish/v1/UpdateService/FirmwareInventory/DPU_OS";

/** What a DPU's BMC reports about it. */
export interface DpuState {
  /** Running mode (a Mode.Set is pending until the reboot sequence). */
  readonly mode?: string;
  readonly hostRshim?: string;
  readonly bmcRshim?: boolean;
  /** DPU_OS Version: the installed BFB. */
  readonly bfbVersion?: string;
  /** BootProgress.LastState and OemLastState of the Arm system. */
  readonly bootState?: string;
  readonly oemBootState?: string;
  readonly serial?: string;
}

/** Polling options of the waits. */
export interface DpuWaitOptions {
  readonly timeoutMs?: number;
  readonly pollIntervalMs?: number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now?: () => number;
  readonly signal?: AbortSignal;
}

/** The BlueField operations of one DPU BMC (RedfishClient.bluefield()). */
export class BlueFieldOps {
  constructor(
    private readonly t: RedfishTransport,
    private readonly core: HttpCore,
  ) {}

  /** Mode, rshim, DPU_OS version and boot progress, read in parallel. */
  async state(): Promise<DpuState> {
    const sys = await this.system();
    const [oem, mgrOem, os] = await Promise.all([
      this.t.getJson(oemRef(sys)),
      this.manager().then((m) => this.t.getJson(oemRef(m))),
      this.dpuOs(),
    ]);
    const boot = isObj(sys.BootProgress) ? sys.BootProgress : {};
    const rshim = isObj(mgrOem.BmcRShim) ? mgrOem.BmcRShim : {};
    return {
      mode: str(oem.Mode),
      hostRshim: str(oem.HostRshim),
      bmcRshim: typeof rshim.BmcRShimEnabled === "boolean" ? rshim.BmcRShimEnabled : undefined,
      bfbVersion: str(os.Version),
      bootState: str(boot.LastState),
      oemBootState: str(boot.OemLastState),
      serial: str(sys.SerialNumber),
    };
  }

  /** Mode.Set: stored by the DPU for its next boot (it runs the old mode until the reboot sequence). */
  async setMode(mode: DpuMode): Promise<void> {
    const sys = await this.system();
    await this.t.send("POST", `${oemRef(sys)}/Actions/Mode.Set`, { json: { Mode: mode } });
  }

  /** After the reboot sequence: the state, or RACKFORM_ERR_REDFISH_DPU_MODE when the DPU still runs another mode. */
  async expectMode(mode: DpuMode): Promise<DpuState> {
    const s = await this.state();
    if (s.mode !== mode) {
      throw new RedfishError(
        "RACKFORM_ERR_REDFISH_DPU_MODE",
        `the DPU at ${this.t.origin} still runs ${s.mode ?? "an unknown mode"} after Mode.Set ${mode}, two Arm reboots and a host power cycle`,
      );
    }
    return s;
  }

  /** HostRshim.Set: the host's rshim Enabled or Disabled. */
  async setHostRshim(enabled: boolean): Promise<void> {
    const sys = await this.system();
    await this.t.send("POST", `${oemRef(sys)}/Actions/HostRshim.Set`, {
      json: { HostRshim: enabled ? "Enabled" : "Disabled" },
    });
  }

  /** PATCHes BmcRShimEnabled; the BMC's rshim may start later (or not while the host holds it): read it back. */
  async setBmcRshim(enabled: boolean): Promise<void> {
    const mgr = await this.manager();
    await this.t.send("PATCH", oemRef(mgr), { json: { BmcRShim: { BmcRShimEnabled: enabled } } });
  }

  /** Reboots the Arm cores (ComputerSystem.Reset ForceRestart, or GracefulRestart where only that is allowed). */
  async rebootArm(): Promise<void> {
    const sys = await this.system();
    const actions = isObj(sys.Actions) ? sys.Actions : {};
    const reset = actions["#ComputerSystem.Reset"];
    const target = isObj(reset) && typeof reset.target === "string" ? reset.target : undefined;
    if (!target) {
      throw new RedfishError(
        "RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED",
        `the DPU at ${this.t.origin} advertises no #ComputerSystem.Reset on ${str(sys["@odata.id"])}`,
      );
    }
    const allowed = isObj(reset) ? reset["ResetType@Redfish.AllowableValues"] : undefined;
    const type =
      Array.isArray(allowed) && !allowed.includes("ForceRestart") && allowed.includes("GracefulRestart")
        ? "GracefulRestart"
        : "ForceRestart";
    await this.t.send("POST", target, { json: { ResetType: type } });
  }

  /**
   * Waits until the Arm system has booted: BootProgress OSRunning / OemLastState OsIsRunning (DPU mode), or UEFI
   * (NIC mode: the Arm OS does not boot). RACKFORM_ERR_REDFISH_TASK_TIMEOUT when it does not within timeoutMs.
   */
  async waitBooted(opts: DpuWaitOptions = {}): Promise<DpuState> {
    return this.waitFor(
      (s) => s.bootState === "OSRunning" || ["OsIsRunning", "UEFI"].includes(s.oemBootState ?? ""),
      "boot",
      opts,
    );
  }

  /** Waits until the BMC's rshim reads enabled (its start is asynchronous). */
  async waitBmcRshim(opts: DpuWaitOptions = {}): Promise<DpuState> {
    try {
      return await this.waitFor((s) => s.bmcRshim === true, "rshim", opts);
    } catch (e) {
      if (!(e instanceof RedfishError) || e.code !== "RACKFORM_ERR_REDFISH_TASK_TIMEOUT") throw e;
      throw new RedfishError(
        "RACKFORM_ERR_REDFISH_DPU_RSHIM",
        `the DPU BMC at ${this.t.origin} accepted BmcRShimEnabled = true but its rshim did not start (is the host's rshim still enabled?)`,
      );
    }
  }

  /**
   * Installs a BFB: SimpleUpdate with the image URL on DPU_OS, then the task polled to a terminal TaskState
   * (RACKFORM_ERR_REDFISH_TASK_FAILED with the task's messages when it ends in Exception, Killed or Cancelled).
   */
  async installBfb(imageUri: string, opts: SimpleUpdateOptions = {}): Promise<TaskSnapshot> {
    const update = await this.t.getJson(await this.rootLink("UpdateService"));
    const scheme = imageUri.split(":")[0].toUpperCase();
    const transferProtocol = opts.transferProtocol ?? (scheme === "HTTPS" ? "HTTPS" : "HTTP");
    return runSimpleUpdate(this.t, this.core, update, imageUri, [DPU_OS_TARGET], { ...opts, transferProtocol });
  }

  private async waitFor(done: (s: DpuState) => boolean, what: string, opts: DpuWaitOptions): Promise<DpuState> {
    const now = opts.now ?? Date.now;
    const sleep = opts.sleep ?? abortableSleep;
    const timeoutMs = opts.timeoutMs ?? 1_200_000;
    const deadline = now() + timeoutMs;
    for (;;) {
      const s = await this.state();
      if (done(s)) return s;
      if (now() >= deadline) {
        throw new RedfishError(
          "RACKFORM_ERR_REDFISH_TASK_TIMEOUT",
          `the DPU at ${this.t.origin} did not reach ${what} within ${timeoutMs} ms (boot ${s.bootState ?? "?"}/${s.oemBootState ?? "?"})`,
        );
      }
      await sleep(opts.pollIntervalMs ?? 5_000, opts.signal);
    }
  }

  private async dpuOs(): Promise<RedfishJson> {
    const update = await this.t.getJson(await this.rootLink("UpdateService"));
    const fw = link(update, "FirmwareInventory") ?? "/redfish/v1/UpdateService/FirmwareInventory";
    return this.t.getJson(`${fw.replace(/\/+$/, "")}/DPU_OS`);
  }

  private async system(): Promise<RedfishJson> {
    return this.member("Systems", "Bluefield");
  }

  private async manager(): Promise<RedfishJson> {
    return this.member("Managers", "Bluefield_BMC");
  }

  private async member(collection: string, id: string): Promise<RedfishJson> {
    const refs = members(await this.t.getJson(await this.rootLink(collection)));
    const ref = refs.find((r) => lastSegment(r) === id);
    if (!ref) {
      throw new RedfishError(
        "RACKFORM_ERR_REDFISH_NOT_BLUEFIELD",
        `the Redfish service at ${this.t.origin} is not a BlueField DPU's BMC: its ${collection} has no ${id} (it has ${refs.map(lastSegment).join(", ") || "none"})`,
      );
    }
    return this.t.getJson(ref);
  }

  private async rootLink(name: string): Promise<string> {
    const ref = link(await this.t.root(), name);
    if (!ref) {
      throw new RedfishError(
        "RACKFORM_ERR_REDFISH_NOT_BLUEFIELD",
        `the Redfish service at ${this.t.origin} has no ${name}: not a BlueField DPU's BMC`,
      );
    }
    return ref;
  }
}

/** The `Oem.Nvidia` link of a resource, else `<resource>/Oem/Nvidia` as NVIDIA documents it. */
function oemRef(r: RedfishJson): string {
  const oem = isObj(r.Oem) && isObj(r.Oem.Nvidia) ? r.Oem.Nvidia : {};
  if (typeof oem["@odata.id"] === "string") return oem["@odata.id"];
  return `${String(r["@odata.id"]).replace(/\/+$/, "")}/Oem/Nvidia`;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
