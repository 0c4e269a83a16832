/**
 * The BCM client: cmdaemon's JSON-RPC calls rackform uses — devices (cmdevice), device status and close/open
 * (cmstatus), power (cmdevice.powerOperation), categories and software images, burn runs. One method per call.
 */
import type { HttpCore } from "../http/core.js";
import { BcmError, parseValidation, validationText } from "./errors.js";
import * as parse from "./parse.js";
import { type BcmCallOptions, BcmTransport } from "./transport.js";
import type {
  BcmBurnStatus,
  BcmDevice,
  BcmDeviceCreate,
  BcmDeviceStatus,
  BcmNamed,
  BcmPowerOperation,
} from "./types.js";

/** Options of BcmClient. */
export interface BcmClientOptions {
  /** Head node base URL, e.g. https://head:8081 (the client posts to <url>/json). */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly core: HttpCore;
}

/** One head node. */
export class BcmClient {
  readonly transport: BcmTransport;

  constructor(readonly opts: BcmClientOptions) {
    this.transport = new BcmTransport(opts.core, opts.url, opts.username, opts.password);
  }

  private read<T>(service: string, call: string, args: readonly unknown[], signal?: AbortSignal): Promise<T> {
    return this.transport.call<T>(service, call, args, { signal, read: true });
  }

  private write<T>(service: string, call: string, args: readonly unknown[], o: BcmCallOptions = {}): Promise<T> {
    return this.transport.call<T>(service, call, args, { ...o, read: false });
  }

  /** cmdevice.getDevices: every PhysicalNode. */
  async listDevices(signal?: AbortSignal): Promise<BcmDevice[]> {
    return parse.devices(await this.read("cmdevice", "getDevices", [], signal));
  }

  /** cmdevice.getDevice by uuid; undefined when cmdaemon has none (it answers null). */
  async getDevice(uuid: string, signal?: AbortSignal): Promise<BcmDevice | undefined> {
    const v = await this.read<unknown>("cmdevice", "getDevice", [uuid], signal);
    return v === null || v === undefined ? undefined : parse.device(v);
  }

  /** cmdevice.getDevice by uuid; RACKFORM_ERR_BCM_NOT_FOUND when cmdaemon has none. */
  async mustGetDevice(uuid: string, signal?: AbortSignal): Promise<BcmDevice> {
    const d = await this.getDevice(uuid, signal);
    if (!d) throw new BcmError("RACKFORM_ERR_BCM_NOT_FOUND", `BCM has no device ${uuid}`);
    return d;
  }

  /**
   * cmdevice.addDevice(entity, force=false): a PhysicalNode with its provisioning MAC, category, BMC interface rf0
   * and bmcSettings, powered through Redfish (powerControl rf0). Not repeated on a dropped connection: callers find
   * before they add. Throws RACKFORM_ERR_BCM_REJECTED with cmdaemon's validation list.
   */
  async addDevice(d: BcmDeviceCreate, signal?: AbortSignal): Promise<BcmDevice> {
    const entity = {
      baseType: "Device",
      childType: "PhysicalNode",
      hostname: d.hostname,
      mac: d.mac,
      category: d.category,
      powerControl: "rf0",
      bmcSettings: { baseType: "BMCSettings", userName: d.bmcUsername, password: d.bmcPassword },
      interfaces: [
        { baseType: "NetworkInterface", childType: "NetworkPhysicalInterface", name: "eth0", mac: d.mac, ip: "" },
        { baseType: "NetworkInterface", childType: "NetworkBmcInterface", name: "rf0", mac: "", ip: d.bmcIp },
      ],
    };
    return this.saved(await this.write("cmdevice", "addDevice", [entity, false], { signal }), "addDevice");
  }

  /** cmdevice.updateDevice(entity, force=false) with `changes` merged into the device's current entity. */
  async updateDevice(dev: BcmDevice, changes: Record<string, unknown>, signal?: AbortSignal): Promise<BcmDevice> {
    const entity = { ...dev.raw, ...changes, uuid: dev.uuid };
    // The password reads back masked: send bmcSettings only when the change sets it.
    if (!("bmcSettings" in changes)) delete (entity as Record<string, unknown>).bmcSettings;
    return this.saved(await this.write("cmdevice", "updateDevice", [entity, false], { signal }), "updateDevice");
  }

  /** cmdevice.removeDevice(uuid); true when it was removed, false when cmdaemon did not have it. */
  async removeDevice(uuid: string, signal?: AbortSignal): Promise<boolean> {
    const r = await this.write<{ success?: unknown; removed?: unknown }>("cmdevice", "removeDevice", [uuid], {
      signal,
    });
    return r?.success === true;
  }

  /** cmdevice.getCategories. */
  async categories(signal?: AbortSignal): Promise<BcmNamed[]> {
    return parse.named(await this.read("cmdevice", "getCategories", [], signal), "getCategories");
  }

  /** cmpart.getSoftwareImages. */
  async softwareImages(signal?: AbortSignal): Promise<BcmNamed[]> {
    return parse.named(await this.read("cmpart", "getSoftwareImages", [], signal), "getSoftwareImages");
  }

  /** cmstatus.getStatusForDevices([uuids]). */
  async statuses(uuids: readonly string[], signal?: AbortSignal): Promise<BcmDeviceStatus[]> {
    return parse.statuses(await this.read("cmstatus", "getStatusForDevices", [uuids], signal));
  }

  /**
   * cmdevice.powerOperation({devices, operation, force}); force includes closed devices. Resolves with the per-device
   * states cmdaemon reports ("ON", "OFF", "FAILED" with a message) when it reports them.
   */
  async powerOperation(
    uuids: readonly string[],
    operation: BcmPowerOperation,
    force: boolean,
    signal?: AbortSignal,
  ): Promise<{ uuid: string; state: string; message: string }[]> {
    const arg = { baseType: "PowerOperation", devices: uuids, operation, force };
    const r = await (operation === "STATUS"
      ? this.read<Record<string, unknown>>("cmdevice", "powerOperation", [arg], signal)
      : this.write<Record<string, unknown>>("cmdevice", "powerOperation", [arg], { signal }));
    const results = Array.isArray(r?.results) ? (r.results as Record<string, unknown>[]) : [];
    return results.map((x) => ({
      uuid: String(x.ref_device_uuid ?? ""),
      state: String(x.state ?? ""),
      message: String(x.message ?? ""),
    }));
  }

  /** cmstatus.close(uuids, message, true): the device is taken out of service with `message`. */
  async close(uuids: readonly string[], message: string, signal?: AbortSignal): Promise<void> {
    await this.write("cmstatus", "close", [uuids, message, true], { signal });
  }

  /** cmstatus.open(uuids, "", true): back in service, the user message cleared. */
  async open(uuids: readonly string[], signal?: AbortSignal): Promise<void> {
    await this.write("cmstatus", "open", [uuids, "", true], { signal });
  }

  /** cmdevice.startBurn(uuids, config): starts a burn run (inferred call; see src/lab/bcm/README.md). */
  async startBurn(uuids: readonly string[], config: string, signal?: AbortSignal): Promise<void> {
    const r = await this.write<unknown>("cmdevice", "startBurn", [uuids, config], { signal });
    const refused = (Array.isArray(r) ? r : []).find(
      (x) => x && typeof x === "object" && (x as { success?: unknown }).success === false,
    );
    if (refused) {
      throw new BcmError(
        "RACKFORM_ERR_BCM_REJECTED",
        `BCM startBurn: ${String((refused as { message?: unknown }).message ?? "refused")}`,
      );
    }
  }

  /** cmdevice.getBurnStatus(uuids). */
  async burnStatus(uuids: readonly string[], signal?: AbortSignal): Promise<BcmBurnStatus[]> {
    return parse.burns(await this.read("cmdevice", "getBurnStatus", [uuids], signal));
  }

  /** Logs out of the head node (best effort). */
  logout(signal?: AbortSignal): Promise<void> {
    return this.transport.logout(signal);
  }

  private saved(r: unknown, what: string): BcmDevice {
    const o = (r && typeof r === "object" ? r : {}) as Record<string, unknown>;
    if (o.success !== true) {
      const validation = parseValidation(o.validation);
      throw new BcmError(
        "RACKFORM_ERR_BCM_REJECTED",
        `BCM ${what} was rejected: ${validationText(validation) || "no reason given"}`,
        { serverMessage: validationText(validation) },
        validation,
      );
    }
    return parse.device(o.updated_entity);
  }
}
