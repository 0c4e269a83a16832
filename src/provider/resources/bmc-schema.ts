/** rackform_bmc's schema; its model (ModelOf) is what the handlers in bmc-ops.ts read and write. */
import {
  attr,
  type ModelOf,
  numberBetween,
  requiresReplace,
  stringLength,
  stringOneOf,
  timeoutsBlock,
  useStateForUnknown,
  validator,
} from "../../framework/index.js";
import { endpointSpelling, redfishEndpoint } from "../shared/endpoint.js";

/** Boot source override targets of the Redfish ComputerSystem schema. */
export const BOOT_TARGETS = ["None", "Pxe", "Hdd", "Cd", "Usb", "BiosSetup", "UefiHttp", "UefiShell", "UefiTarget"];

const macList = validator("MAC addresses such as 0C:42:A1:00:00:01", (req, resp) => {
  if (!Array.isArray(req.value)) return;
  req.value.forEach((m, i) => {
    if (typeof m === "string" && !/^[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}$/.test(m.trim())) {
      resp.diagnostics.error(
        "Invalid MAC address",
        `${JSON.stringify(m)} is not a MAC address; write six hex pairs such as "0C:42:A1:00:00:01".`,
        [...req.path, { index: i }],
      );
    }
  });
});

const count = (what: string, max = 1024) =>
  attr.number({ optional: true, description: what, validators: [numberBetween(0, max)] });

/** The schema of rackform_bmc. */
export const bmcSchema = {
  version: 0,
  description:
    "One node's Redfish BMC, the step after its outlet is on. Create waits for the BMC to boot (connection " +
    "failures and 503 are retried until timeouts.create, default 10m), discovers the system (MACs, GPUs, memory, " +
    "CPUs, firmware) and checks it against `expected`: a node that does not conform fails with one error listing " +
    "every difference, and nothing is recorded. Drift found by a refresh (or a BMC that stopped answering) is a " +
    "warning, conformant = false and a planned in-place update that re-checks the node, so one bad node never blocks " +
    "the plans of its neighbours; the re-check of drift records what it finds (a warning, not an error), so the " +
    "node's acceptance gate (bmc_gpu_count = this gpu_count) can run again and take a node that lost a GPU out of " +
    "service in the same apply. A refresh of a conforming node reads only what it must where the BMC offers " +
    "$expand (the service root, the session's login and logout, and one conditional GET each of the expanded " +
    "System and FirmwareInventory, plus one of the event log's Entries where the log is not inside the System's " +
    "expansion, as iDRAC's SEL under its Manager), also when they changed (the node is re-read from them, and its Manager when " +
    "its firmware changed and FirmwareInventory does not list the BMC's own firmware); without $expand, or without a previous full read, everything is read. " +
    "Credentials come from the provider's redfish block. Destroy only forgets the " +
    "BMC: it powers nothing off and changes no setting. Import with the endpoint or the system's URL.",
  attributes: {
    id: attr.string({
      computed: true,
      description:
        "The system's Redfish URL when it was first discovered: endpoint + system path, e.g. " +
        "https://10.0.0.5/redfish/v1/Systems/1. It stays the same when the BMC is re-addressed.",
      planModifiers: [useStateForUnknown()],
    }),
    endpoint: attr.string({
      required: true,
      description:
        "Address of the BMC's Redfish service, e.g. \"https://10.0.0.5\" (https; http:// only with the provider's " +
        "redfish.allow_http). Another spelling of the same address (a trailing slash, the default port 443, the host's " +
        "case) plans nothing. A new address is an in-place update: the apply checks that the same system (UUID, serial) " +
        "answers there and records it, and nothing built on this BMC is replaced (the machine hands the new address to " +
        "its backend); a different system there fails the apply for this node, naming both, and changes nothing.",
      validators: [redfishEndpoint],
      planModifiers: [endpointSpelling()],
    }),
    system_id: attr.string({
      optional: true,
      computed: true,
      description: "Id of the ComputerSystem under /redfish/v1/Systems. @default the BMC's only system",
      validators: [stringLength({ min: 1, max: 256 })],
      planModifiers: [useStateForUnknown(), requiresReplace()],
    }),
    expected: attr.single(
      {
        gpu_model: attr.string({
          optional: true,
          description: 'Text every GPU model must contain, case-insensitive, e.g. "H100".',
          validators: [stringLength({ min: 1 })],
        }),
        gpu_count: count("Exact number of GPUs."),
        dpu_count: count(
          "Exact number of BlueField DPUs the host lists among its PCIe devices (each converged by its own rackform_dpu).",
        ),
        min_memory_gib: count("Least system memory in GiB.", 1_048_576),
        cpu_count: count("Exact number of CPU sockets."),
        nic_count: count("Exact number of network ports with a MAC address (Redfish EthernetInterfaces)."),
        macs: attr.list("string", {
          optional: true,
          description: "The exact set of MAC addresses (any order and case).",
          validators: [macList],
        }),
        firmware: attr.map("string", {
          optional: true,
          description:
            'Component → exact version. A component is a FirmwareInventory Id or Name as the BMC lists it (see the computed `firmware`), or `bios_version` / `bmc_firmware_version` for the computed attributes of those names, e.g. { BIOS = "2.3.5" } or { bios_version = "2.3.5" }.',
        }),
      },
      {
        optional: true,
        description:
          "The conformance baseline a flavor sets. Create fails, listing every difference, when the node does not match; a later mismatch (drift) sets conformant = false and plans an update that re-checks and records what it finds. @default nothing is checked",
      },
    ),
    boot_source_override_target: attr.string({
      optional: true,
      description:
        'Boot source override set after discovery, e.g. "Pxe" for the first commissioning boot. Applied on create and when changed; not read back, because a one-time override is consumed by the next boot.',
      validators: [stringOneOf(...BOOT_TARGETS)],
    }),
    boot_source_override_enabled: attr.string({
      optional: true,
      description: 'How long the override lasts: "Once", "Continuous" or "Disabled". @default "Once"',
      validators: [stringOneOf("Once", "Continuous", "Disabled")],
    }),
    system_uuid: attr.string({
      computed: true,
      description:
        "The system's UUID (ComputerSystem.UUID, lower case); with the serial, what identifies the node when its BMC " +
        "is re-addressed. Null when the BMC does not report it.",
      planModifiers: [useStateForUnknown()],
    }),
    serial: attr.string({
      computed: true,
      description: "The system's serial number.",
      planModifiers: [useStateForUnknown()],
    }),
    model: attr.string({ computed: true, description: "The system's model.", planModifiers: [useStateForUnknown()] }),
    manufacturer: attr.string({
      computed: true,
      description: "The system's manufacturer.",
      planModifiers: [useStateForUnknown()],
    }),
    power_state: attr.string({ computed: true, description: "Host power state when last read (On, Off, …)." }),
    macs: attr.list("string", {
      computed: true,
      description: "MAC addresses of the network ports, upper case.",
      planModifiers: [useStateForUnknown()],
    }),
    gpus: attr.list(["object", { model: "string", serial: "string" }], {
      computed: true,
      description: "The GPUs found (Processors of type GPU and PCIe display controllers).",
      planModifiers: [useStateForUnknown()],
    }),
    gpu_count: attr.number({
      computed: true,
      description: "Number of GPUs found.",
      planModifiers: [useStateForUnknown()],
    }),
    memory_gib: attr.number({
      computed: true,
      description: "System memory in GiB.",
      planModifiers: [useStateForUnknown()],
    }),
    cpu_count: attr.number({
      computed: true,
      description: "Number of CPU sockets.",
      planModifiers: [useStateForUnknown()],
    }),
    firmware: attr.map("string", {
      computed: true,
      description: "FirmwareInventory: component Id → version.",
      planModifiers: [useStateForUnknown()],
    }),
    bios_version: attr.string({
      computed: true,
      description: "The system's BIOS version (ComputerSystem.BiosVersion); null when the BMC does not report it.",
      planModifiers: [useStateForUnknown()],
    }),
    bmc_firmware_version: attr.string({
      computed: true,
      description: "The BMC's own firmware version (Manager.FirmwareVersion); null when the BMC does not report it.",
      planModifiers: [useStateForUnknown()],
    }),
    health: attr.list(
      ["object", { component: "string", kind: "string", health: "string", uri: "string", since: "string" }],
      {
        computed: true,
        description:
          "Components the BMC reports as not healthy (Redfish Status.Health Warning or Critical) when last read: GPUs, " +
          "CPUs, PCIe devices, network interfaces and memory modules, each with its name, kind (gpu, cpu, pcie, nic, " +
          "memory), health, Redfish URI and `since` (RFC 3339: when a read first found it so). Read from the payloads " +
          "the inventory reads anyway, so a refresh costs no extra request for it. Also the entries the BMC's event log " +
          "(SEL, IML, EventLog) gained since the last read, as the vendors word them: kind log:gpu-xid (component names " +
          "the GPU and its XID), log:nvlink, log:memory-ecc, log:pcie-aer, log:thermal, log:power, or log:critical for " +
          "any other Critical entry; uri the entry, since its Created time. Only newer entries are asked for (the last " +
          "Id seen is kept in private state; what the log held before the first read is not a finding). A log finding " +
          "stays until the host is seen powered on after its entry (the System's LastResetTime, or a read finding it " +
          "off then on), or until the node's components, some not OK at the last read, all read OK again (a repair); " +
          "a fault that outlives the power-on is logged again and found again. Empty on a healthy node; " +
          "a finding is also a warning of the refresh, so a scheduled plan shows sick nodes.",
        planModifiers: [useStateForUnknown()],
      },
    ),
    conformant: attr.bool({
      computed: true,
      description: "Whether the node matched `expected` when last read (true when no baseline is set).",
    }),
  },
  blocks: { timeouts: timeoutsBlock(["create", "read", "update"]) },
} as const;

/** The recorded BMC. */
export type BmcState = ModelOf<typeof bmcSchema>;
/** The planned BMC at apply: computed attributes may be unknown. */
export type BmcPlan = ModelOf<typeof bmcSchema, "plan">;
/** The planned (or configured) BMC at plan time: any attribute may be unknown. */
export type BmcConfig = ModelOf<typeof bmcSchema, "config">;
/** The conformance baseline (`expected`) of a state or an apply-time plan. */
export type BmcExpected = BmcState["expected"];
