/**
 * RedfishClient: one BMC (or Redfish PDU). Every resource is found by following links from the service root;
 * no id is hard-coded. Errors are RackformClientErrors with stable codes; secrets never appear in them.
 */

import { ClientConfigError, HttpStatusError, RedfishError } from "../errors.js";
import { BMC_CONCURRENCY, HttpCore, type HttpCoreOptions } from "../http/core.js";
import { safeUrl } from "../redact.js";
import { BOOT_SOURCE_ENUM, tolerantAllowed } from "./allowable.js";
import { BiosOps } from "./bios.js";
import { BlueFieldOps } from "./bluefield.js";
import {
  type IntegrityComponent,
  type MeasureRequest,
  readCertificateChain,
  readComponentIntegrity,
  readTargetModel,
  requestSignedMeasurements,
  type SpdmAnswer,
} from "./component-integrity.js";
import { eventLogSince } from "./event-log.js";
import { expandLevels, recheck } from "./expand.js";
import { type PushRequest, pushTarget, runMultipartPush } from "./firmware-push.js";
import { statusOf } from "./inventory.js";
import type { LogRead } from "./log-entries.js";
import { actionInfoAllowed, lastSegment, link, members, parseOutlet, parseSystem } from "./parse.js";
import { getOutlet, listPdus, setOutletPower } from "./pdu.js";
import { readFirmware, readInventory } from "./read-inventory.js";
import { type RefreshOutcome, refreshSince } from "./refresh.js";
import { type ResetRequest, resolveResetType } from "./reset.js";
import * as secureBoot from "./secure-boot.js";
import { memberRef, serviceLink } from "./service-links.js";
import { type RedfishAuthMode, RedfishTransport } from "./transport.js";
import type {
  BootOverrideEnabled,
  EmbeddedEventLog,
  EventLogCursor,
  FirmwareInfo,
  Inventory,
  OutletPowerRequest,
  OutletState,
  PduInfo,
  RedfishJson,
  RefreshFingerprint,
  SystemState,
  TaskSnapshot,
} from "./types.js";
import { pollTask, runningTasks, runSimpleUpdate, type SimpleUpdateOptions } from "./update.js";

/** Options of a RedfishClient. */
export interface RedfishClientOptions {
  /** BMC address: `https://host[:port]`, optionally ending in /redfish/v1. Credentials in it are refused. */
  readonly baseUrl: string;
  readonly username: string;
  readonly password: string;
  /** @default "session" */
  readonly auth?: RedfishAuthMode;
  /** CA bundle (PEM text or file path) that signed the BMC's certificate. @default the Node.js root store */
  readonly ca?: string;
  /** Skip TLS verification; only when the user asks. @default false */
  readonly insecure?: boolean;
  /** A shared core (recommended: one per provider process). @default a core owned and closed by this client */
  readonly core?: HttpCore;
  /** Options of the owned core when `core` is not given (TLS comes from ca/insecure). */
  readonly http?: Omit<HttpCoreOptions, "tls">;
  /** Requests in flight to this BMC. @default BMC_CONCURRENCY (4) */
  readonly maxConcurrent?: number;
}

/** Resources a Redfish service offers, by Id. */
export interface Discovery {
  readonly systems: readonly string[];
  readonly managers: readonly string[];
  readonly chassis: readonly string[];
  readonly hasUpdateService: boolean;
  readonly rackPdus: readonly string[];
}

const GUARDED = [
  "login",
  "discover",
  "serviceRoot",
  "listSystems",
  "getSystem",
  "power",
  "setBootOverride",
  "firmwareInventory",
  "inventory",
  "recheck",
  "refreshSince",
  "eventLogSince",
  "simpleUpdate",
  "listPdus",
  "getOutlet",
  "getOutletAt",
  "setOutletPower",
  "componentIntegrity",
  "spdmSignedMeasurements",
  "certificateChain",
  "componentModel",
  "secureBoot",
  "secureBootDatabases",
  "setSecureBootEnable",
  "enrolCertificate",
  "addSignature",
  "deleteMember",
] as const;

/** A client of one Redfish service. */
export class RedfishClient {
  /** The BMC's origin, e.g. https://10.0.0.5. */
  readonly origin: string;
  private readonly core: HttpCore;
  private readonly ownsCore: boolean;
  private readonly t: RedfishTransport;
  private readonly parallel: number;

  constructor(opts: RedfishClientOptions) {
    let url: URL;
    try {
      url = new URL(opts.baseUrl);
    } catch {
      throw new ClientConfigError(
        `baseUrl: ${JSON.stringify(safeUrl(opts.baseUrl))} is not a URL; use https://host[:port]`,
      );
    }
    if (url.username || url.password) {
      throw new ClientConfigError(`baseUrl: ${safeUrl(url)} contains credentials; pass username and password instead`);
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new ClientConfigError(`baseUrl: unsupported scheme ${url.protocol}; use https://host[:port]`);
    }
    this.origin = url.origin;
    this.parallel = opts.maxConcurrent ?? BMC_CONCURRENCY;
    const tls = { ca: opts.ca, insecure: opts.insecure };
    this.ownsCore = !opts.core;
    this.core = opts.core ?? new HttpCore({ ...opts.http, tls, maxConcurrentPerHost: this.parallel });
    // A shared core keeps its own TLS defaults unless this BMC has its own CA or insecure switch.
    const ownTls = opts.ca !== undefined || opts.insecure !== undefined;
    if (opts.core)
      this.core.configureOrigin(this.origin, { tls: ownTls ? tls : undefined, maxConcurrent: this.parallel });
    this.t = new RedfishTransport(this.core, this.origin, {
      mode: opts.auth ?? "session",
      username: opts.username,
      password: opts.password,
    });
    this.scrubErrorsOf(GUARDED);
  }

  /** Wraps public methods so that every error they throw passes through the redactor, whoever built it. */
  private scrubErrorsOf(names: readonly string[]): void {
    const self = this as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const name of names) {
      const f = self[name].bind(this);
      self[name] = (...a: unknown[]) =>
        f(...a).catch((e: unknown) => {
          throw e instanceof Error ? this.core.redactor.scrub(e) : e;
        });
    }
  }

  /** Logs in now (session mode) so that credential problems surface early. */
  login(): Promise<void> {
    return this.t.login();
  }

  /** Deletes the session. The client can still be used; it logs in again on demand. */
  logout(): Promise<void> {
    return this.t.logout();
  }

  /** Logs out and closes the owned HTTP core. */
  async close(): Promise<void> {
    await this.logout();
    if (this.ownsCore) await this.core.close();
  }

  /** The service root. */
  serviceRoot(): Promise<RedfishJson> {
    return this.t.root();
  }

  /** Uses `root` (recorded by an earlier read) as the service root instead of reading it; see forgetServiceRoot. */
  assumeServiceRoot(root: RedfishJson): void {
    this.t.assumeRoot(root);
  }

  /** Forgets the service root read or assumed. */
  forgetServiceRoot(): void {
    this.t.forgetRoot();
  }

  /** What the service offers, found by following the service root's links (ids are the members' Ids). */
  async discover(): Promise<Discovery> {
    const root = await this.t.root();
    const ids = async (name: string): Promise<string[]> => {
      const ref = link(root, name);
      return ref ? members(await this.t.getJson(ref)).map(lastSegment) : [];
    };
    const [systems, managers, chassis] = await Promise.all([ids("Systems"), ids("Managers"), ids("Chassis")]);
    const pe = link(root, "PowerEquipment");
    const rackPdus = pe ? (await this.listPdus()).map((p) => p.id) : [];
    return { systems, managers, chassis, hasUpdateService: link(root, "UpdateService") !== undefined, rackPdus };
  }

  /** Ids of the ComputerSystems. */
  async listSystems(): Promise<string[]> {
    return members(await this.t.getJson(await serviceLink(this.t, "Systems"))).map(lastSegment);
  }

  /** Power and boot state of a system; `systemId` may be left out when the BMC has exactly one. */
  async getSystem(systemId?: string): Promise<SystemState> {
    const ref = await memberRef(this.t, await serviceLink(this.t, "Systems"), systemId, "system");
    const { json, etag } = await this.t.get(ref);
    return parseSystem(json, etag);
  }

  /**
   * Sends #ComputerSystem.Reset, honouring ResetType@Redfish.AllowableValues (or the action's ActionInfo):
   * an equivalent type is sent when the requested one is missing; otherwise RACKFORM_ERR_REDFISH_RESET_UNSUPPORTED.
   */
  async power(
    resetType: ResetRequest,
    systemId?: string,
  ): Promise<{ readonly requested: string; readonly sent: string }> {
    const sys = await this.getSystem(systemId);
    if (!sys.resetTarget) {
      throw new RedfishError(
        "RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED",
        `system ${sys.id} advertises no #ComputerSystem.Reset action`,
      );
    }
    const infoRef = sys.resetActionInfo;
    const readInfo = infoRef
      ? () =>
          this.t.getJson(infoRef).then(
            (j) => actionInfoAllowed(j, "ResetType"),
            (e: unknown) => {
              // An ActionInfo link that 404s (or fails) is common: fall back to what the system itself lists.
              this.core.log(`redfish ${this.origin}: ActionInfo ${infoRef} unreadable (${statusOf(e)}); ignoring it`);
              return undefined;
            },
          )
      : undefined;
    const choice = await resolveResetType(resetType, sys.resetTypes, sys.powerState, readInfo);
    const sent = choice.sent;
    if (!sent) {
      const allowed = choice.advertised ?? [];
      throw new RedfishError(
        "RACKFORM_ERR_REDFISH_RESET_UNSUPPORTED",
        `system ${sys.id} does not allow reset type ${resetType} (power state ${sys.powerState ?? "unknown"}); allowed: ${allowed.join(", ")}`,
        {},
        { requested: resetType, allowed },
      );
    }
    const how =
      choice.via === "tolerant" ? `; read from the non-standard list ${JSON.stringify(choice.advertised)}` : "";
    this.core.log(
      `redfish ${this.origin}: reset ${sys.id} with ${sent}${sent !== resetType ? ` (for ${resetType})` : ""}${how}`,
    );
    await this.t.send("POST", sys.resetTarget, { json: { ResetType: sent } });
    return { requested: resetType, sent };
  }

  /**
   * Sets the boot source override with If-Match on the system's ETag; on 412 the system is re-read and the
   * PATCH sent once more. Targets outside BootSourceOverrideTarget@Redfish.AllowableValues are refused.
   */
  async setBootOverride(
    target: string,
    enabled: BootOverrideEnabled,
    opts: { readonly systemId?: string; readonly mode?: "UEFI" | "Legacy" } = {},
  ): Promise<SystemState> {
    for (let round = 1; ; round++) {
      const sys = await this.getSystem(opts.systemId);
      const allowed = sys.boot.allowedTargets;
      if (allowed && !allowed.includes(target) && !tolerantAllowed(allowed, BOOT_SOURCE_ENUM).includes(target)) {
        throw new RedfishError(
          "RACKFORM_ERR_REDFISH_BOOT_TARGET_UNSUPPORTED",
          `system ${sys.id} does not allow boot target ${JSON.stringify(target)}; allowed: ${allowed.join(", ")}`,
          {},
          { requested: target, allowed },
        );
      }
      const boot: Record<string, string> = { BootSourceOverrideTarget: target, BootSourceOverrideEnabled: enabled };
      if (opts.mode) boot.BootSourceOverrideMode = opts.mode;
      try {
        await this.t.send("PATCH", sys.odataId, {
          json: { Boot: boot },
          headers: sys.etag ? { "if-match": sys.etag } : {},
        });
        return await this.getSystem(sys.id);
      } catch (e) {
        if (!(e instanceof HttpStatusError) || e.status !== 412) throw e;
        if (round >= 2) {
          throw new RedfishError(
            "RACKFORM_ERR_REDFISH_PRECONDITION",
            `system ${sys.id} changed while its boot override was being set (HTTP 412 twice); try again`,
            { method: e.method, url: e.url, status: 412, serverMessage: e.serverMessage, cause: e },
          );
        }
        this.core.log(`redfish ${this.origin}: ETag of ${sys.id} is stale (412); re-reading`);
      }
    }
  }

  /**
   * FirmwareInventory of the UpdateService: id, name and version of each component, sorted by id. With `warnings`,
   * a member that answers 404/500 is skipped and named there instead of failing the whole list.
   */
  async firmwareInventory(warnings?: string[]): Promise<FirmwareInfo[]> {
    const levels = expandLevels(await this.t.root());
    const updateRef = await serviceLink(this.t, "UpdateService");
    return (await readFirmware(this.t, updateRef, { levels, parallel: this.parallel, warnings })).firmware;
  }

  /**
   * Hardware inventory of a system, read with bounded parallelism; where the BMC offers `$expand`, in a few expanded
   * GETs whose tags (`refresh`) let `recheck` tell later whether anything changed.
   */
  async inventory(systemId?: string): Promise<Inventory> {
    const ref = await memberRef(this.t, await serviceLink(this.t, "Systems"), systemId, "system");
    const update = link(await this.t.root(), "UpdateService");
    const inv = await readInventory(this.t, ref, update, this.parallel);
    for (const w of inv.warnings ?? []) this.core.log(`redfish ${this.origin}: inventory ${w}`);
    return inv;
  }

  /**
   * Whether the resources behind a fingerprint (from `inventory().refresh`) are unchanged: one conditional GET each
   * (If-None-Match where it holds an ETag, else a hash of the body). False when the BMC no longer advertises
   * `$expand`. Also returns the fingerprint as the BMC now stands (to record after a change this process made).
   */
  async recheck(fp: RefreshFingerprint): Promise<{ unchanged: boolean; fingerprint: RefreshFingerprint }> {
    if (expandLevels(await this.t.root()) === 0) return { unchanged: false, fingerprint: fp };
    return recheck(this.t, fp);
  }

  /**
   * A refresh against a fingerprint (see refresh.ts): unchanged, or the inventory and system state rebuilt from the
   * payloads it re-read. Undefined when the BMC no longer advertises `$expand`: the fingerprint means nothing then.
   */
  async refreshSince(
    fp: RefreshFingerprint,
    known: { readonly bmcFirmwareVersion?: string } = {},
  ): Promise<RefreshOutcome | undefined> {
    if (expandLevels(await this.t.root()) === 0) return undefined;
    const warnings: string[] = [];
    const r = await refreshSince(this.t, fp, {
      parallel: this.parallel,
      knownBmcFirmware: known.bmcFirmwareVersion,
      warnings,
    });
    for (const w of warnings) this.core.log(`redfish ${this.origin}: inventory ${w}`);
    return r;
  }

  /** Event-log entries newer than `cursor` and the cursor to keep (event-log.ts); no request for an `embedded` log. */
  eventLogSince(cursor?: EventLogCursor, embedded?: EmbeddedEventLog, systemId?: string): Promise<LogRead | undefined> {
    return eventLogSince(this.t, {
      cursor,
      embedded,
      systemRef: async () => memberRef(this.t, await serviceLink(this.t, "Systems"), systemId, "system"),
    });
  }

  /** Starts UpdateService.SimpleUpdate and polls its Task until it ends (or times out). */
  async simpleUpdate(
    imageUri: string,
    targets: readonly string[] = [],
    opts: SimpleUpdateOptions = {},
  ): Promise<TaskSnapshot> {
    const update = await this.t.getJson(await serviceLink(this.t, "UpdateService"));
    return runSimpleUpdate(this.t, this.core, update, imageUri, targets, opts);
  }

  /**
   * Pushes a firmware image through MultipartHttpPushUri (staged for the next reset where the BMC allows it) and
   * follows its task; RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED when the BMC offers no multipart push.
   */
  async pushFirmware(req: PushRequest, opts: SimpleUpdateOptions = {}): Promise<TaskSnapshot> {
    const update = await this.t.getJson(await serviceLink(this.t, "UpdateService"));
    return runMultipartPush(this.t, this.core, pushTarget(update), req, opts);
  }

  /** Update tasks that have not ended (a crashed run's), to follow instead of starting a second update. */
  runningUpdates(): Promise<TaskSnapshot[]> {
    return runningTasks(this.t);
  }

  /** Follows a task (e.g. one runningUpdates found) to its end; throws TASK_FAILED / TASK_TIMEOUT. */
  followTask(task: TaskSnapshot, opts: SimpleUpdateOptions = {}): Promise<TaskSnapshot> {
    return pollTask(this.t, this.core, task.uri, task, opts);
  }

  /** BIOS settings of a system (bios.ts); `systemId` may be left out when the BMC has exactly one. */
  bios(systemId?: string): BiosOps {
    return new BiosOps(this.t, async () => memberRef(this.t, await serviceLink(this.t, "Systems"), systemId, "system"));
  }

  /** BlueField DPU operations, when this service is a DPU's BMC (bluefield.ts). */
  bluefield(): BlueFieldOps {
    return new BlueFieldOps(this.t, this.core);
  }

  /** Rack PDUs under PowerEquipment/RackPDUs. */
  listPdus(): Promise<PduInfo[]> {
    return listPdus(this.t, () => serviceLink(this.t, "PowerEquipment"), this.parallel);
  }

  /** One outlet of a rack PDU. */
  getOutlet(pduId: string, outletId: string): Promise<OutletState> {
    return getOutlet(
      this.t,
      () => serviceLink(this.t, "PowerEquipment"),
      (c, id, what) => memberRef(this.t, c, id, what),
      pduId,
      outletId,
    );
  }

  /**
   * One outlet read straight from its Redfish path (as recorded after a first discovery): one request instead of
   * walking PowerEquipment → RackPDUs → PDU → Outlets, which matters when a plan refreshes hundreds of outlets.
   */
  async getOutletAt(path: string): Promise<OutletState> {
    return parseOutlet(await this.t.getJson(path));
  }

  /** Switches an outlet with #Outlet.PowerControl and returns its state afterwards. */
  async setOutletPower(pduId: string, outletId: string, state: OutletPowerRequest): Promise<OutletState> {
    const outlet = await this.getOutlet(pduId, outletId);
    return setOutletPower(this.t, outlet, pduId, state);
  }

  /** Members of the service root's ComponentIntegrity collection (read expanded where offered); [] without the link. */
  componentIntegrity(): Promise<IntegrityComponent[]> {
    return readComponentIntegrity(this.t);
  }

  /** #ComponentIntegrity.SPDMGetSignedMeasurements; RACKFORM_ERR_REDFISH_COMPONENT_SILENT when the component is mute. */
  spdmSignedMeasurements(measureUri: string, req: MeasureRequest): Promise<SpdmAnswer> {
    return requestSignedMeasurements(this.t, measureUri, req);
  }

  /** The Model of the resource a component's integrity protects (its TargetComponentURI). */
  componentModel(targetUri: string): Promise<string | undefined> {
    return readTargetModel(this.t, targetUri);
  }

  /** A Certificate's CertificateString as PEM blocks (types PEM and PEMchain). */
  certificateChain(uri: string): Promise<string[]> {
    return readCertificateChain(this.t, uri);
  }

  /** The SecureBoot of the system at `systemUri` (secure-boot.ts). */
  secureBoot(systemUri: string): Promise<secureBoot.SecureBootState> {
    return secureBoot.readSecureBoot(this.t, systemUri);
  }

  /** Every key database under a SecureBoot's `databasesUri`, with its certificates and signatures. */
  secureBootDatabases(databasesUri: string, only?: readonly string[]): Promise<secureBoot.SecureBootDatabase[]> {
    return secureBoot.readSecureBootDatabases(this.t, databasesUri, only);
  }

  /** Sets SecureBootEnable (If-Match on the ETag; one re-read on 412); takes effect at the next boot. */
  setSecureBootEnable(secureBootUri: string, enable: boolean): Promise<secureBoot.SecureBootState> {
    return secureBoot.setSecureBootEnable(this.t, secureBootUri, enable);
  }

  /** Enrols a PEM certificate in a key database; returns the new Certificate's URI. */
  enrolCertificate(dbUri: string, pem: string): Promise<string> {
    return secureBoot.enrolCertificate(this.t, dbUri, pem);
  }

  /** Adds a SHA-256 (EFI_CERT_SHA256_GUID) to a key database; returns the new Signature's URI. */
  addSignature(dbUri: string, sha256Hex: string, owner?: string): Promise<string> {
    return secureBoot.addSignature(this.t, dbUri, sha256Hex, owner);
  }

  /** Deletes a member (a key database's Certificate or Signature). */
  async deleteMember(uri: string): Promise<void> {
    await this.t.send("DELETE", uri);
  }
}
