/** Issue 13: the Redfish client's tolerance of real firmware — AllowableValues, class codes, busy MessageIds, tasks. */
import { describe, expect, it } from "vitest";
import { extractMessageInfo, HttpStatusError } from "../../../src/clients/errors.js";
import { RESET_TYPE_ENUM, tolerantAllowed, tolerantMembers } from "../../../src/clients/redfish/allowable.js";
import { busyError, isBusyMessageId } from "../../../src/clients/redfish/busy.js";
import { isGpuFunction, isTerminalTaskState, parseSystem, str } from "../../../src/clients/redfish/parse.js";
import { resolveResetType } from "../../../src/clients/redfish/reset.js";

describe("AllowableValues tolerance", () => {
  it("splits concatenated values and forgives one misspelling in a long piece", () => {
    expect(tolerantMembers("GracefulRestartGracefulShutdwon", RESET_TYPE_ENUM)).toEqual([
      "GracefulRestart",
      "GracefulShutdown",
    ]);
    expect(tolerantMembers("ForceOff, On", RESET_TYPE_ENUM)).toEqual(["ForceOff", "On"]);
    expect(tolerantMembers("graceful-shutdown", RESET_TYPE_ENUM)).toEqual(["GracefulShutdown"]);
  });

  it("fails a string that does not split entirely, and an ambiguous near-miss, so nothing unlisted is sent", () => {
    expect(tolerantMembers("GracefulShutdownBanana", RESET_TYPE_ENUM)).toEqual([]);
    expect(tolerantMembers("ForceOf", RESET_TYPE_ENUM)).toEqual([]); // one edit from ForceOff and from ForceOn
    expect(tolerantMembers("Onn", RESET_TYPE_ENUM)).toEqual([]); // short pieces must match exactly
    expect(tolerantAllowed(["On", "Shutdown"], RESET_TYPE_ENUM)).toEqual(["On"]);
  });

  it("resolves exact inline first, then ActionInfo, then the tolerance; refuses what is listed in no form", async () => {
    let infoReads = 0;
    const info = async () => {
      infoReads++;
      return ["ForceOff", "PowerCycle"];
    };
    expect(await resolveResetType("On", ["On"], "Off", info)).toMatchObject({ sent: "On", via: "inline" });
    expect(infoReads).toBe(0);
    expect(await resolveResetType("ForceOff", ["On"], "On", info)).toMatchObject({
      sent: "ForceOff",
      via: "action-info",
    });
    const odd = ["On", "PushPowerButton", "GracefulRestartGracefulShutdwon"];
    expect(await resolveResetType("GracefulShutdown", odd, "On", undefined)).toMatchObject({
      sent: "GracefulShutdown",
      via: "tolerant",
    });
    expect((await resolveResetType("Nmi", odd, "On", undefined)).sent).toBeUndefined();
    // ActionInfo that 404s (resolves undefined) and no inline list: nothing is listed, so the request goes as is.
    expect(await resolveResetType("ForceOff", undefined, "On", async () => undefined)).toMatchObject({
      sent: "ForceOff",
      via: "unstated",
    });
  });

  it("treats an empty or blank AllowableValues list as unstated", () => {
    const sys = parseSystem({
      Id: "1",
      Actions: { "#ComputerSystem.Reset": { target: "/x", "ResetType@Redfish.AllowableValues": [" ", ""] } },
    });
    expect(sys.resetTypes).toBeUndefined();
  });
});

describe("GPUs by PCI class", () => {
  it("accepts numeric and string class codes of display controllers and accelerators, not BMC VGA or NICs", () => {
    expect(isGpuFunction({ ClassCode: "0x030200", VendorId: "0x10de" })).toBe(true);
    expect(isGpuFunction({ ClassCode: 0x120000 })).toBe(true);
    expect(isGpuFunction({ ClassCode: 3, SubclassCode: 2, VendorID: 0x10de })).toBe(true);
    expect(isGpuFunction({ DeviceClass: "ProcessingAccelerators" })).toBe(true);
    expect(isGpuFunction({ DeviceClass: "DisplayController", VendorId: "0x1a03" })).toBe(false);
    expect(isGpuFunction({ ClassCode: 3, VendorID: 0x102b })).toBe(false);
    expect(isGpuFunction({ ClassCode: "0x020000" })).toBe(false);
    expect(isGpuFunction({ DeviceClass: "NetworkController", ClassCode: "0x030000" })).toBe(false);
  });
});

describe("blank strings and task states", () => {
  it("reads a serial of spaces as absent", () => {
    expect(str("     ")).toBeUndefined();
    expect(str(" ABC ")).toBe("ABC");
  });
  it("ends the wait on every terminal TaskState, any case, and not on Suspended/Interrupted", () => {
    for (const s of ["Completed", "Exception", "Killed", "Cancelled", "Failed", "failed"])
      expect(isTerminalTaskState(s)).toBe(true);
    for (const s of ["New", "Running", "Suspended", "Interrupted", "Pending", "Cancelling", undefined])
      expect(isTerminalTaskState(s)).toBe(false);
  });
});

describe("vendor MessageIds", () => {
  const body = JSON.stringify({
    error: {
      code: "Base.1.12.GeneralError",
      message: "busy",
      "@Message.ExtendedInfo": [
        { MessageId: "Base.1.12.GeneralError", Message: "A general error" },
        { MessageId: "IDRAC.2.8.SUP0108", Message: "job running", Resolution: "Wait and retry." },
      ],
    },
  });
  it("keeps the specific MessageId and its Resolution", () => {
    expect(extractMessageInfo(body)).toEqual({ messageId: "IDRAC.2.8.SUP0108", resolution: "Wait and retry." });
    expect(extractMessageInfo("not json")).toEqual({});
  });
  it("maps documented busy MessageIds, whatever their registry version, to a retryable BMC_BUSY", () => {
    expect(isBusyMessageId("Base.1.18.ResourceInUse")).toBe(true);
    expect(isBusyMessageId("Base.1.0.ServiceTemporarilyUnavailable")).toBe(true);
    expect(isBusyMessageId("iLO.2.14.UnableToModifyDuringSystemPOST")).toBe(true);
    expect(isBusyMessageId("Base.1.18.PropertyValueNotInList")).toBe(false);
    const e = new HttpStatusError("POST /x failed with HTTP 400", {
      method: "POST",
      url: "https://bmc/x",
      status: 400,
      messageId: "IDRAC.2.8.SUP0108",
      resolution: "Wait and retry.",
    });
    const busy = busyError(e);
    expect(busy?.code).toBe("RACKFORM_ERR_REDFISH_BMC_BUSY");
    expect(busy?.messageId).toBe("IDRAC.2.8.SUP0108");
    expect(busy?.details.retryable).toBe(true);
    expect(
      busyError(new HttpStatusError("x", { status: 400, messageId: "Base.1.18.PropertyUnknown" })),
    ).toBeUndefined();
  });
});
