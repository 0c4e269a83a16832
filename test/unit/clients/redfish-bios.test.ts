/**
 * The BIOS client against the DMTF public-rackmount1 mockup (its Bios and Bios/Settings) and sushy's registry
 * samples: current and staged settings, the registry found through the Registries collection, staging for reset.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RedfishClient } from "../../../src/clients/redfish/client.js";
import { fixture, type MockupServer, requireFixtures, startMockup } from "../../support/clients/mockup-server.js";

const servers: MockupServer[] = [];
const clients: RedfishClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function rackmount() {
  const server = await startMockup(join(requireFixtures(), "dmtf", "mockups", "public-rackmount1"));
  servers.push(server);
  const client = new RedfishClient({ baseUrl: server.url, username: "admin", password: "secret" });
  clients.push(client);
  return { server, client };
}

const BIOS = "/redfish/v1/Systems/437XR1138R2/Bios";

describe("Redfish BIOS settings", () => {
  it("reads current attributes, the settings object from @Redfish.Settings and what is staged there", async () => {
    const { client } = await rackmount();
    const bios = await client.bios().read();
    expect(bios.ref).toBe(BIOS);
    expect(bios.registryId).toBe("BiosAttributeRegistryP89.v1_0_0");
    expect(bios.settingsRef).toBe(`${BIOS}/Settings`);
    expect(bios.attributes.ProcTurboMode).toBe("Enabled");
    // The mockup's settings object differs from the current values in four attributes: staged by someone else.
    expect(bios.pending).toEqual({
      AdminPhone: "(404) 555-1212",
      EmbeddedSata: "Ahci",
      NicBoot2: "NetworkBoot",
      ProcTurboMode: "Disabled",
    });
    expect(bios.lastApplyMessages).toEqual([
      { messageId: "Base.1.0.SettingsFailed", properties: ["/Attributes/ProcTurboMode"] },
    ]);
  });

  it("finds the registry the BIOS names through Registries and its English location; none when unpublished", async () => {
    const { server, client } = await rackmount();
    expect(await client.bios().registry("BiosAttributeRegistryP89.v1_0_0")).toBeUndefined();
    const file = fixture("sushy/json_samples/bios_attribute_registry_file.json");
    server.override("/redfish/v1/Registries", (j) => ({
      ...j,
      Members: [...(j.Members as object[]), { "@odata.id": "/redfish/v1/Registries/BiosAttributeRegistry.v1_0" }],
    }));
    server.put("/redfish/v1/Registries/BiosAttributeRegistry.v1_0", file);
    server.put(
      "/redfish/v1/registrystore/registries/en/biosattributeregistry.v1_0",
      fixture("sushy/json_samples/bios_attribute_registry.json"),
    );
    // Same family, other version: the file is found by its family name.
    const reg = await client.bios().registry("BiosAttributeRegistry.v1_0_4");
    expect(reg?.id).toBe("BiosAttributeRegistryP89.v1_0_0");
    expect(reg?.attributes.get("ProcVirtualization")?.allowed).toEqual(["Enabled", "Disabled"]);
  });

  it("stages settings in the settings object, without an apply time where the BIOS lists none (the mockup)", async () => {
    const { server, client } = await rackmount();
    const ops = client.bios();
    const bios = await ops.read();
    expect(bios.applyTimes).toEqual([]);
    expect(await ops.stage(bios, { ProcTurboMode: "Enabled", NicBoot2: "Disabled" })).toBe("unstated");
    const patch = server.seen.find((s) => s.method === "PATCH");
    expect(patch?.path).toBe(`${BIOS}/Settings`);
    expect(JSON.parse(patch?.body ?? "{}")).toEqual({ Attributes: { ProcTurboMode: "Enabled", NicBoot2: "Disabled" } });
    expect((await ops.read()).pending).toEqual({ AdminPhone: "(404) 555-1212", EmbeddedSata: "Ahci" });
  });

  it("asks for OnReset where the BIOS lists it in SupportedApplyTimes", async () => {
    const { server, client } = await rackmount();
    server.override(BIOS, (j) => ({
      ...j,
      "@Redfish.Settings": { ...(j["@Redfish.Settings"] as object), SupportedApplyTimes: ["OnReset", "Immediate"] },
    }));
    const ops = client.bios();
    expect(await ops.stage(await ops.read(), { NicBoot2: "Disabled" })).toBe("OnReset");
    const patch = server.seen.find((s) => s.method === "PATCH");
    expect(JSON.parse(patch?.body ?? "{}")).toEqual({
      Attributes: { NicBoot2: "Disabled" },
      "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" },
    });
  });

  it("leaves out the apply time where the BIOS lists apply times without OnReset", async () => {
    const { server, client } = await rackmount();
    server.override(BIOS, (j) => ({
      ...j,
      "@Redfish.Settings": { ...(j["@Redfish.Settings"] as object), SupportedApplyTimes: ["Immediate"] },
    }));
    const ops = client.bios();
    expect(await ops.stage(await ops.read(), { NicBoot2: "Disabled" })).toBe("unstated");
    const patch = server.seen.find((s) => s.method === "PATCH");
    expect(JSON.parse(patch?.body ?? "{}")).toEqual({ Attributes: { NicBoot2: "Disabled" } });
  });
});
