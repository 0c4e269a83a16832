/**
 * BIOS settings through Redfish: `Systems/{id}/Bios` (current Attributes, the AttributeRegistry's id and the
 * `@Redfish.Settings` annotation naming the settings object), the settings object per vendor shape
 * (bios-settings.ts: `Bios/Settings`, or Supermicro's `Bios/SD`), and the registry itself published through
 * `/redfish/v1/Registries` (a MessageRegistryFile whose `Location[]` names the AttributeRegistry document). Shapes
 * follow DSP0266 "Settings resource", the Bios and AttributeRegistry schemas (DSP8010) and the DMTF mockup
 * public-rackmount1 (Systems/437XR1138R2/Bios, Registries) and DSP2046 AttributeRegistry example.
 */
import type { BiosAttribute, BiosFlavour } from "../world/bios.js";
import type { LabNode, World } from "../world/model.js";
import { biosPath, getSettings, patchSettings, settingsPath, shapeOf } from "./bios-settings.js";
import { BASE_REGISTRY, RedfishError } from "./errors.js";
import { bmcNode, type Ctx, collection, get, iso, link, type Route, systemOf } from "./router.js";

const REGISTRIES = "/redfish/v1/Registries";
const registryDoc = (f: BiosFlavour) => `${REGISTRIES}/${f.fileId}/${f.registryId}.json`;

/** The Bios resource: current attributes and where settings go (per the vendor's shape). */
function biosBody(n: LabNode): Record<string, unknown> {
  const b = n.bios;
  const listed = shapeOf(n).applyTimes;
  return {
    "@odata.type": "#Bios.v1_2_3.Bios",
    "@odata.id": biosPath(n),
    Id: "Bios",
    Name: "BIOS Configuration Current Settings",
    AttributeRegistry: b.flavour.registryId,
    Attributes: { ...b.current },
    "@Redfish.Settings": {
      "@odata.type": "#Settings.v1_4_0.Settings",
      SettingsObject: link(settingsPath(n)),
      ...(listed ? { SupportedApplyTimes: [...listed] } : {}),
      ...(b.appliedAt !== undefined ? { Time: iso(b.appliedAt) } : {}),
      Messages: b.messages.map((m) => ({
        "@odata.type": "#Message.v1_3_0.Message",
        MessageId: `${BASE_REGISTRY}.${m.MessageId}`,
        Message: m.Message,
        ...(m.RelatedProperties ? { RelatedProperties: [...m.RelatedProperties] } : {}),
        MessageSeverity: m.Severity,
        Severity: m.Severity,
      })),
    },
  };
}

function registryAttribute(a: BiosAttribute, model: string): Record<string, unknown> {
  return {
    AttributeName: a.name,
    DisplayName: a.display,
    HelpText: `${a.display}.`,
    MenuPath: a.menu,
    Type: a.type,
    ReadOnly: a.readOnly === true,
    Hidden: false,
    ResetRequired: true,
    CurrentValue: null,
    DefaultValue: a.initial === "model" ? model : a.initial,
    ...(a.values ? { Value: a.values.map((v) => ({ ValueName: v, ValueDisplayName: v })) } : {}),
    ...(a.lower !== undefined ? { LowerBound: a.lower } : {}),
    ...(a.upper !== undefined ? { UpperBound: a.upper, ScalarIncrement: 1 } : {}),
  };
}

/** The AttributeRegistry document of a node's BIOS flavour. */
function registryBody(world: World, n: LabNode): Record<string, unknown> {
  const f = n.bios.flavour;
  const model = n.spec.hardware.model;
  const menus = [...new Set(f.attributes.map((a) => a.menu))];
  return {
    "@odata.type": "#AttributeRegistry.v1_3_8.AttributeRegistry",
    Id: f.registryId,
    Name: `${f.owningEntity} BIOS Attribute Registry`,
    Description: "This registry defines a representation of BIOS Attribute instances",
    Language: "en",
    OwningEntity: f.owningEntity,
    RegistryVersion: f.registryId.replace(/^.*\.v/, "").replaceAll("_", "."),
    SupportedSystems: [{ ProductName: model, SystemId: model, FirmwareVersion: world.firmwareVersion(n, "bios") }],
    RegistryEntries: {
      Attributes: f.attributes.map((a) => registryAttribute(a, model)),
      Dependencies: f.dependencies.map((d) => ({
        DependencyFor: d.to,
        Type: "Map",
        Dependency: {
          MapFrom: [
            {
              MapFromAttribute: d.from,
              MapFromCondition: "EQU",
              MapFromProperty: "CurrentValue",
              MapFromValue: d.value,
            },
          ],
          MapToAttribute: d.to,
          MapToProperty: "ReadOnly",
          MapToValue: true,
        },
      })),
      Menus: menus.map((m, i) => ({
        MenuName: m.split("/").pop() || "Main",
        DisplayName: m,
        MenuPath: m,
        DisplayOrder: i + 1,
      })),
    },
  };
}

/** The node when `params.file` names its BIOS registry file, else 404. */
function fileOf(ctx: Ctx): LabNode {
  const n = bmcNode(ctx);
  if (ctx.params.file !== n.bios.flavour.fileId)
    throw new RedfishError(404, "ResourceNotFound", ["MessageRegistryFile", ctx.params.file]);
  return n;
}

/** Routes of Bios, its settings object and the Registries collection. */
export const biosRoutes: Route[] = [
  { pattern: "/redfish/v1/Systems/:sys/Bios", methods: get((ctx) => biosBody(systemOf(ctx))) },
  { pattern: "/redfish/v1/Systems/:sys/Bios/Settings", methods: { GET: getSettings, PATCH: patchSettings } },
  { pattern: "/redfish/v1/Systems/:sys/Bios/SD", methods: { GET: getSettings, PATCH: patchSettings } },
  {
    pattern: REGISTRIES,
    methods: get((ctx) =>
      collection("MessageRegistryFileCollection", "Registry File Collection", REGISTRIES, [
        `${REGISTRIES}/${bmcNode(ctx).bios.flavour.fileId}`,
      ]),
    ),
  },
  {
    pattern: `${REGISTRIES}/:file`,
    methods: get((ctx) => {
      const f = fileOf(ctx).bios.flavour;
      return {
        "@odata.type": "#MessageRegistryFile.v1_1_5.MessageRegistryFile",
        "@odata.id": `${REGISTRIES}/${f.fileId}`,
        Id: f.fileId,
        Name: `${f.registryId} Registry File`,
        Description: "BIOS attribute registry file locations",
        Languages: ["en"],
        Registry: f.registryId,
        Location: [{ Language: "en", Uri: registryDoc(f) }],
      };
    }),
  },
  {
    pattern: `${REGISTRIES}/:file/:doc`,
    methods: get((ctx) => {
      const n = fileOf(ctx);
      if (`${REGISTRIES}/${ctx.params.file}/${ctx.params.doc}` !== registryDoc(n.bios.flavour))
        throw new RedfishError(404, "ResourceNotFound", ["AttributeRegistry", ctx.params.doc]);
      return registryBody(ctx.world, n);
    }),
  },
];
