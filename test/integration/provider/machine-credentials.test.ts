/**
 * A rotated BMC password reaches the backends: the operator rotates it on the BMCs (lab control API), MAAS and Ironic
 * fail their power calls with the old one, the provider's redfish password changes, and the plan updates each
 * rackform_machine in place (a new credentials fingerprint, nothing replaced), apply hands the backends the new
 * password, and their power calls work again. The password is never in a plan, a state or a diagnostic.
 */
import { describe, expect, it } from "vitest";
import type { ObjectValue } from "../../../src/framework/index.js";
import { machineSchema } from "../../../src/provider/resources/machine-schema.js";
import { rotatePassword } from "../../support/lab-control.js";
import { planChange } from "../../support/provider-rpc.js";
import { apply, lines, machineConfig, machineRig, read, T } from "./machine-support.js";

const ROTATED = "Rotated-Passw0rd-2";

const rig = machineRig(2, { provider: false });

describe("rackform_machine after the BMC password was rotated", () => {
  it("GIVEN machines in MAAS and Ironic and a rotated BMC password WHEN the provider's password changes THEN one in-place update per machine gives the backends the new password", async () => {
    const before = await rig.provider();
    const maasConfig = machineConfig(rig.ml, "r01-n01", "maas");
    const ironicConfig = machineConfig(rig.ml, "r01-n02", "ironic");
    const created = await Promise.all([apply(before.srv, maasConfig), apply(before.srv, ironicConfig)]);
    expect(lines(created.flatMap((c) => c.diagnostics))).toBe("");
    const [maasState, ironicState] = created.map((c) => c.newState as ObjectValue);
    const maasId = maasState.machine_id as string;
    const ironicId = ironicState.machine_id as string;
    expect(maasState.bmc_credentials_fingerprint).toMatch(/^scrypt2\$/);

    await rotatePassword(rig.ml.lab, "/nodes/r01-n01/bmc/password", ROTATED);
    await rotatePassword(rig.ml.lab, "/nodes/r01-n02/bmc/password", ROTATED);
    // The backends still hold the old password: the BMC refuses their power calls.
    expect(await rig.ml.maas.queryPowerState(maasId).catch((e: Error) => e.message)).toMatch(/401/);

    const after = await rig.provider(ROTATED);
    const updated: ObjectValue[] = [];
    for (const [config, prior, id] of [
      [maasConfig, maasState, maasId],
      [ironicConfig, ironicState, ironicId],
    ] as const) {
      const refreshed = (await read(after.srv, prior)).newState as ObjectValue;
      const plan = await planChange(after.srv, T, machineSchema, config, refreshed);
      expect(lines(plan.diagnostics)).toBe("");
      expect(plan.requiresReplace).toEqual([]);
      const planned = plan.plannedState as ObjectValue;
      // Only the fingerprint changes, to a known value: the plan shows an update and why, without the password.
      const changed = Object.keys(planned).filter((k) => JSON.stringify(planned[k]) !== JSON.stringify(refreshed[k]));
      expect(changed).toEqual(["bmc_credentials_fingerprint"]);
      expect(JSON.stringify(planned)).not.toContain(ROTATED);

      const applied = await after.srv.applyResourceChange({
        typeName: T,
        priorState: refreshed,
        plannedState: planned,
        config,
        plannedPrivate: plan.plannedPrivate,
      });
      expect(lines(applied.diagnostics)).toBe("");
      const state = applied.newState as ObjectValue;
      expect(state).toMatchObject({ machine_id: id, bmc_credentials_fingerprint: planned.bmc_credentials_fingerprint });
      expect(JSON.stringify(state)).not.toContain(ROTATED);
      const again = await apply(after.srv, config, state);
      expect(again.plan.plannedState).toEqual(state);
      updated.push(state);
    }

    // Both backends power the nodes with the new password again.
    expect(await rig.ml.maas.queryPowerState(maasId)).toMatch(/^(on|off)$/);
    await rig.ml.ironic.setPowerState(ironicId, "power on");
    const node = await rig.ml.ironic.waitForPowerState(ironicId, "power on", { timeoutMs: 20_000, pollMs: 20 });
    expect(node.lastError ?? null).toBeNull();
    // A configuration still holding the old password plans the change back (in place, too).
    const back = await planChange(before.srv, T, machineSchema, maasConfig, updated[0]);
    expect(back.requiresReplace).toEqual([]);
    expect((back.plannedState as ObjectValue).bmc_credentials_fingerprint).not.toBe(
      updated[0].bmc_credentials_fingerprint,
    );
  });
});
