/** Shapes of Ironic API bodies that rackform reads; each keeps its raw JSON for fields not modelled here. */

/** A bare-metal node. Fields absent from a `fields=` selection are undefined. */
export interface IronicNode {
  readonly uuid: string;
  readonly name: string | null;
  readonly driver?: string;
  /** e.g. "enroll", "manageable", "available", "active", "deploy failed", "clean wait". */
  readonly provisionState?: string;
  /** Where a transition is heading; null when the node is in a stable state. */
  readonly targetProvisionState?: string | null;
  /** "power on", "power off" or null (unknown). */
  readonly powerState?: string | null;
  readonly targetPowerState?: string | null;
  readonly maintenance?: boolean;
  readonly maintenanceReason?: string | null;
  /** What Ironic itself found wrong (API 1.42): "power failure" when its power sync put the node in maintenance. */
  readonly fault?: string | null;
  /** Ironic's description of the last failure, or null. */
  readonly lastError?: string | null;
  readonly instanceUuid?: string | null;
  readonly resourceClass?: string | null;
  readonly allocationUuid?: string | null;
  /** Host of the conductor holding the node's lock, or null when free. */
  readonly reservation?: string | null;
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly driverInfo?: Readonly<Record<string, unknown>>;
  readonly instanceInfo?: Readonly<Record<string, unknown>>;
  readonly extra?: Readonly<Record<string, unknown>>;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** A network port (a NIC's MAC) of a node. */
export interface IronicPort {
  readonly uuid: string;
  readonly address: string;
  readonly nodeUuid?: string;
  readonly pxeEnabled?: boolean;
  readonly physicalNetwork?: string | null;
  readonly localLinkConnection?: Readonly<Record<string, unknown>>;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** An allocation: a request for a node by resource class and traits. */
export interface IronicAllocation {
  readonly uuid: string;
  readonly name: string | null;
  /** "allocating", "active" or "error". */
  readonly state: string;
  readonly nodeUuid: string | null;
  readonly resourceClass: string | null;
  readonly traits: readonly string[];
  readonly candidateNodes: readonly string[];
  readonly lastError: string | null;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** Result of node validation, per driver interface. */
export type IronicValidation = Readonly<Record<string, { readonly result: boolean | null; readonly reason?: string }>>;

/** One RFC 6902 operation of a node/port update. */
export type JsonPatchOp =
  | { readonly op: "add" | "replace"; readonly path: string; readonly value: unknown }
  | { readonly op: "remove"; readonly path: string };

/** Provision targets of PUT /v1/nodes/{id}/states/provision. */
export type ProvisionTarget =
  | "manage"
  | "inspect"
  | "provide"
  | "active"
  | "deleted"
  | "clean"
  | "rebuild"
  | "service"
  | "abort"
  | "adopt"
  | "rescue"
  | "unrescue";

/** A clean/service/deploy step. */
export interface IronicStep {
  readonly interface: string;
  readonly step: string;
  readonly args?: Readonly<Record<string, unknown>>;
  readonly priority?: number;
}

/** Extras of a provision transition. */
export interface ProvisionOptions {
  /** Required by "clean" (manual cleaning). */
  readonly cleanSteps?: readonly IronicStep[];
  /** Required by "service". */
  readonly serviceSteps?: readonly IronicStep[];
  readonly deploySteps?: readonly IronicStep[];
  /** For "active"/"rebuild": a config drive as a gzipped base64 string or as JSON (meta_data, user_data…). */
  readonly configdrive?: string | Readonly<Record<string, unknown>>;
  /** Skip automated cleaning on provide/deleted (needs Ironic 1.88, and the conductor allowing it). */
  readonly disableRamdisk?: boolean;
}
