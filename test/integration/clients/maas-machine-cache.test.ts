/** MaasClient.machines on loopback: a shared machine list never answers behind a status this client read directly. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MaasClient } from "../../../src/clients/maas/index.js";
import { FakeMaas } from "./maas-fake-server.js";

let maas: FakeMaas;
beforeEach(async () => {
  maas = await new FakeMaas().start();
});
afterEach(async () => {
  await maas.stop();
});

const lists = () => maas.requests.filter((r) => r.method === "GET" && r.path.endsWith("/machines/")).length;

describe("MachineCache and direct reads", () => {
  it("fails to answer from a kept list older than a direct read of the machine; a later list answers again", async () => {
    // GIVEN a client keeping finished lists for a minute, and one list of both its machines taken while they were
    // commissioning
    const client = new MaasClient({ url: maas.url, apiKey: "ck:tk:s3cretTOKEN", machineListMaxAgeMs: 60_000 });
    const m = maas.add("gpu-01", 1, "Commissioning");
    const other = maas.add("gpu-02", 1, "Commissioning");
    const first = await Promise.all([client.machines.get(m.system_id), client.machines.get(other.system_id)]);
    expect(first.map((x) => x?.statusName)).toEqual(["Commissioning", "Commissioning"]);

    // WHEN MAAS finishes commissioning (no write by this client) and a caller reads the machine directly
    Object.assign(maas.machines.get(m.system_id)!, { status: 4, status_name: "Ready" });
    expect((await client.getMachine(m.system_id)).statusName).toBe("Ready");

    // THEN the kept list no longer answers for that machine (its caller reads directly) but still does for the other
    expect(await client.machines.get(m.system_id)).toBeUndefined();
    expect((await client.machines.get(other.system_id))?.statusName).toBe("Commissioning");
    expect(lists()).toBe(1);
    // AND a list started after the direct read answers for it again
    expect((await client.machines.get(m.system_id, { fresh: true }))?.statusName).toBe("Ready");
    await client.close();
  });
});
