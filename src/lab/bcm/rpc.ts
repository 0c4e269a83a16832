/**
 * The JSON-RPC calls the lab's cmdaemon answers, by service and call. Each returns the reply body; a call the lab
 * does not serve is an RpcError (cmdaemon answers `{"error": …}`; see README for what is inferred).
 */
import { deviceFrom, saveDevice, shown, validateDevice } from "./rpc-device.js";
import { bmcIp, type StatusDeps, statusEntity } from "./status.js";
import type { BcmStore, DeviceEntity } from "./store.js";

/** A refused call: its message and the HTTP status it is served with. */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly httpStatus = 200,
  ) {
    super(message);
  }
}

/** Power through a device's BMC. */
export interface PowerPort {
  /** Runs ON/OFF/RESET/STATUS against the device's BMC; resolves with ON/OFF, or throws with the BMC's words. */
  run(d: DeviceEntity, op: "ON" | "OFF" | "RESET" | "STATUS"): Promise<"ON" | "OFF">;
}

/** What a burn (acceptance) run measures on a device's host. */
export type BurnRunner = (d: DeviceEntity, config: string) => { passed: boolean; log: string } | undefined;

/** Everything the calls need. */
export interface RpcDeps extends StatusDeps {
  readonly store: BcmStore;
  readonly power: PowerPort;
  burn(): BurnRunner | undefined;
  burnMs(): number;
}

type Args = readonly unknown[];

const uuids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function devicesOf(deps: RpcDeps, list: unknown): DeviceEntity[] {
  return uuids(list)
    .map((u) => deps.store.device(u))
    .filter((d): d is DeviceEntity => d !== undefined);
}

async function powerOperation(deps: RpcDeps, arg: unknown): Promise<unknown> {
  const o = (arg && typeof arg === "object" ? arg : {}) as Record<string, unknown>;
  const op = String(o.operation ?? "").toUpperCase();
  if (!["ON", "OFF", "RESET", "STATUS"].includes(op)) throw new RpcError(`Unknown power operation: ${op || "(none)"}`);
  const force = o.force === true;
  const targets = devicesOf(deps, o.devices).filter(
    (d) => force || op === "STATUS" || !deps.store.runtimeOf(d.uuid).closed,
  );
  const results = await Promise.all(
    targets.map(async (d) => {
      if (d.powerControl === "none" || !bmcIp(d)) {
        return { ref_device_uuid: d.uuid, state: "FAILED", message: "No power control configured" };
      }
      try {
        const state = await deps.power.run(d, op as "ON");
        return { ref_device_uuid: d.uuid, state, message: "" };
      } catch (e) {
        return { ref_device_uuid: d.uuid, state: "FAILED", message: (e as Error).message };
      }
    }),
  );
  deps.store.powerIndex += 1;
  return { count: targets.length, index: deps.store.powerIndex, results };
}

function burnStatus(deps: RpcDeps, d: DeviceEntity): Record<string, unknown> {
  const b = deps.store.runtimeOf(d.uuid).burn;
  if (!b) return { ref_device_uuid: d.uuid, status: "none", log: "" };
  if (deps.now() < b.startedAt + b.durationMs) return { ref_device_uuid: d.uuid, status: "running", log: "" };
  return { ref_device_uuid: d.uuid, status: b.passed ? "passed" : "failed", log: b.log };
}

function startBurn(deps: RpcDeps, list: unknown, config: unknown): unknown {
  const runner = deps.burn();
  return devicesOf(deps, list).map((d) => {
    const status = statusEntity(deps.store, deps, d).status;
    if (status !== "UP") return { ref_device_uuid: d.uuid, success: false, message: `Device is ${status}, not UP` };
    const r = runner?.(d, typeof config === "string" ? config : "") ?? {
      passed: false,
      log: "no burn tests for this device",
    };
    deps.store.runtimeOf(d.uuid).burn = { startedAt: deps.now(), durationMs: deps.burnMs(), ...r };
    return { ref_device_uuid: d.uuid, success: true, message: "" };
  });
}

function setClosed(deps: RpcDeps, list: unknown, message: unknown, setMessage: unknown, closed: boolean): boolean[] {
  return devicesOf(deps, list).map((d) => {
    const rt = deps.store.runtimeOf(d.uuid);
    rt.closed = closed;
    if (setMessage === true) rt.userMessage = typeof message === "string" ? message : "";
    return true;
  });
}

/** Answers one call. */
export async function dispatch(deps: RpcDeps, service: string, call: string, args: Args): Promise<unknown> {
  const { store } = deps;
  const key = `${service.toLowerCase()}.${call}`;
  switch (key) {
    case "cmdevice.getDevices":
    case "cmdevice.getNodes":
      return [...store.devices.values()].map(shown);
    case "cmdevice.getDevice":
    case "cmdevice.getNode": {
      const d = store.device(String(args[0] ?? ""));
      return d ? shown(d) : null;
    }
    case "cmdevice.addDevice":
      return saveDevice(store, args[0], false);
    case "cmdevice.updateDevice": {
      const before = store.devices.get(String((args[0] as { uuid?: unknown } | null)?.uuid ?? ""));
      const snapshot = before && `${store.effectiveImage(before)?.uuid}|${before.finalizeScript}`;
      const out = saveDevice(store, args[0], true);
      const after = before && store.devices.get(before.uuid);
      if (after && snapshot !== `${store.effectiveImage(after)?.uuid}|${after.finalizeScript}`) {
        deps.observe?.(after, store.runtimeOf(after.uuid).lastStatus, "REDEFINED");
      }
      return out;
    }
    case "cmdevice.validateDevice": {
      const raw = args[0] as Record<string, unknown> | undefined;
      const prior = typeof raw?.uuid === "string" ? store.devices.get(raw.uuid) : undefined;
      return validateDevice(store, deviceFrom(store, raw, prior));
    }
    case "cmdevice.removeDevice":
    case "cmdevice.removeDevices": {
      const list = Array.isArray(args[0]) ? uuids(args[0]) : [String(args[0] ?? "")];
      const removed = list.filter((u) => {
        const d = store.device(u);
        if (!d) return false;
        deps.observe?.(d, store.runtimeOf(d.uuid).lastStatus, "REMOVED");
        store.devices.delete(d.uuid);
        store.runtime.delete(d.uuid);
        return true;
      });
      return { success: removed.length === list.length, removed };
    }
    case "cmdevice.getCategories":
      return [...store.categories.values()];
    case "cmpart.getSoftwareImages":
      return [...store.images.values()];
    case "cmdevice.powerOperation":
      return powerOperation(deps, args[0]);
    case "cmdevice.startBurn":
      return startBurn(deps, args[0], args[1]);
    case "cmdevice.getBurnStatus":
      return devicesOf(deps, args[0]).map((d) => burnStatus(deps, d));
    case "cmstatus.getStatusForDevices":
      return devicesOf(deps, args[0]).map((d) => statusEntity(store, deps, d));
    case "cmstatus.close":
      return setClosed(deps, args[0], args[1], args[2], true);
    case "cmstatus.open":
      return setClosed(deps, args[0], args[1], args[2], false);
    case "cmprov.imageUpdate":
      // A live sync of the running nodes with their image (no reboot); a dry run changes nothing.
      return devicesOf(deps, args[0]).map((d) => {
        const rt = store.runtimeOf(d.uuid);
        if (args[1] !== true && rt.boot && statusEntity(store, deps, d).status === "UP") {
          rt.boot.image = store.effectiveImage(d)?.uuid ?? rt.boot.image;
        }
        return d.uuid;
      });
    case "cmprov.getProvisioningStatus":
      return [...store.devices.values()].map((d) => ({
        ref_node_uuid: d.uuid,
        installing: statusEntity(store, deps, d).status === "INSTALLING",
        softwareImage: store.effectiveImage(d)?.name ?? "",
      }));
    case "cmmain.getVersion":
      return { cmVersion: "11.0-lab", cmBuild: "rackform-lab" };
    default:
      throw new RpcError(`Unknown call ${service}.${call}`);
  }
}
