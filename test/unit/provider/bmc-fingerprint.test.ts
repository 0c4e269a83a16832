/**
 * rackform_bmc's refresh fingerprint (bmc-discovery.ts): which tags are trusted for a conditional GET, and how it is
 * kept in and read back from private state (state files written by other versions must never be trusted blindly).
 */
import { describe, expect, it } from "vitest";
import type { Inventory, RefreshFingerprint, SystemState } from "../../../src/clients/redfish/index.js";
import {
  type Discovered,
  fingerprintIn,
  fingerprintOf,
  PRIVATE_FINGERPRINT,
  withFingerprint,
} from "../../../src/provider/resources/bmc-discovery.js";

const SYS = "/redfish/v1/Systems/1?$expand=.($levels=3)";
const FW = "/redfish/v1/UpdateService/FirmwareInventory?$expand=.";

function discovered(expandedEtag: string | undefined, plainEtag: string | undefined, withRefresh = true): Discovered {
  const inv: Inventory = {
    systemId: "1",
    macs: [],
    cpus: [],
    gpus: [],
    drives: [],
    firmware: [],
    ...(withRefresh
      ? {
          refresh: {
            system: { path: SYS, etag: expandedEtag, hash: "h1" },
            firmware: { path: FW, etag: expandedEtag && `${expandedEtag}fw`, hash: "h2" },
          },
        }
      : {}),
  };
  const sys = { id: "1", odataId: "/redfish/v1/Systems/1", boot: {}, etag: plainEtag } as SystemState;
  return { inv, sys };
}

describe("fingerprintOf", () => {
  it("keeps the ETags when the expanded System's differs from the plain System's (it covers the children)", () => {
    expect(fingerprintOf(discovered('"x1"', '"7"'))).toEqual({
      system: { path: SYS, etag: '"x1"', hash: "h1" },
      firmware: { path: FW, etag: '"x1"fw', hash: "h2" },
    });
  });

  it("drops the ETags when the expanded System has the plain System's ETag: a child's change would still answer 304", () => {
    expect(fingerprintOf(discovered('"7"', '"7"'))).toEqual({
      system: { path: SYS, hash: "h1" },
      firmware: { path: FW, hash: "h2" },
    });
  });

  it("compares by hash on a BMC without ETags, and has no fingerprint without $expand", () => {
    expect(fingerprintOf(discovered(undefined, undefined))?.system).toEqual({ path: SYS, hash: "h1" });
    expect(fingerprintOf(discovered(undefined, undefined, false))).toBeUndefined();
  });
});

describe("private state", () => {
  const fp: RefreshFingerprint = { system: { path: SYS, etag: '"a"', hash: "h" } };

  it("round-trips through private state next to the other keys, and is removed when there is none", () => {
    const priv = withFingerprint({ drift: false }, fp);
    expect(fingerprintIn(JSON.parse(JSON.stringify(priv)))).toEqual(fp);
    expect(priv.drift).toBe(false);
    expect(withFingerprint(priv, undefined)).toEqual({ drift: false });
  });

  it("ignores a value it did not write (no refresh is skipped on a malformed fingerprint)", () => {
    for (const bad of [null, "x", [], {}, { system: { path: SYS } }, { system: { path: SYS, hash: 1 } }])
      expect(fingerprintIn({ [PRIVATE_FINGERPRINT]: bad as never }), JSON.stringify(bad)).toBeUndefined();
    expect(fingerprintIn({})).toBeUndefined();
  });
});
