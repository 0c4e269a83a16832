/** RackPDU per DMTF (DSP2046 PowerDistribution/Outlet): PowerEquipment, RackPDUs, Outlets and #Outlet.PowerControl. */
import type { LabPdu, World } from "../world/model.js";
import { RedfishError } from "./errors.js";
import { type Ctx, collection, link, objectBody, ok, type Route, status } from "./router.js";

const RACK_PDUS = "/redfish/v1/PowerEquipment/RackPDUs";

function pduOf(ctx: Ctx): LabPdu {
  const t = ctx.target;
  if (t.kind !== "pdu" || ctx.params.pdu !== t.pdu.spec.id)
    throw new RedfishError(404, "ResourceNotFound", ["PowerDistribution", ctx.params.pdu ?? ctx.path]);
  return t.pdu;
}

function outletIndex(pdu: LabPdu, id: string): number {
  const n = Number(id);
  if (!/^\d+$/.test(id) || n < 1 || n > pdu.outlets.length)
    throw new RedfishError(404, "ResourceNotFound", ["Outlet", id]);
  return n;
}

function outletBody(world: World, pdu: LabPdu, n: number): Record<string, unknown> {
  const path = `${RACK_PDUS}/${pdu.spec.id}/Outlets/${n}`;
  const o = world.outlet(pdu.spec.id, n);
  const fed = [...world.nodes.values()].find((x) => x.spec.pdu === pdu.spec.id && x.spec.outlet === n);
  const hostOn = fed ? world.powerState(fed) === "On" : false;
  const watts = !o.on ? 0 : fed ? (hostOn ? 650 + world.visibleGpus(fed).length * 350 : 35) : 0;
  return {
    "@odata.type": "#Outlet.v1_4_4.Outlet",
    "@odata.id": path,
    Id: String(n),
    Name: fed ? `Outlet ${n} (${fed.spec.name})` : `Outlet ${n}`,
    Status: status(),
    PhaseWiringType: "OnePhase3Wire",
    VoltageType: "AC",
    OutletType: "IEC_60320_C19",
    NominalVoltage: "AC200To240V",
    RatedCurrentAmps: 16,
    PowerState: o.on ? "On" : "Off",
    PowerEnabled: true,
    PowerOnDelaySeconds: 0,
    PowerOffDelaySeconds: 0,
    PowerCycleDelaySeconds: Math.round(world.time.duration("outletCycleMs") / 1000),
    PowerWatts: { Reading: watts },
    Actions: {
      "#Outlet.PowerControl": {
        target: `${path}/Outlet.PowerControl`,
        "PowerState@Redfish.AllowableValues": ["On", "Off", "PowerCycle"],
      },
    },
  };
}

/** Routes of a PDU's Redfish service. */
export const pduRoutes: Route[] = [
  {
    pattern: "/redfish/v1/PowerEquipment",
    methods: {
      GET: (ctx) => {
        if (ctx.target.kind !== "pdu") throw new RedfishError(404, "ResourceNotFound", ["PowerEquipment", ctx.path]);
        return ok({
          "@odata.type": "#PowerEquipment.v1_2_3.PowerEquipment",
          "@odata.id": "/redfish/v1/PowerEquipment",
          Id: "PowerEquipment",
          Name: "Power Equipment",
          Status: status(),
          RackPDUs: link(RACK_PDUS),
        });
      },
    },
  },
  {
    pattern: RACK_PDUS,
    methods: {
      GET: (ctx) => {
        if (ctx.target.kind !== "pdu")
          throw new RedfishError(404, "ResourceNotFound", ["PowerDistributionCollection", ctx.path]);
        return ok(
          collection("PowerDistributionCollection", "Rack PDUs", RACK_PDUS, [`${RACK_PDUS}/${ctx.target.pdu.spec.id}`]),
        );
      },
    },
  },
  {
    pattern: `${RACK_PDUS}/:pdu`,
    methods: {
      GET: (ctx) => {
        const p = pduOf(ctx);
        return ok({
          "@odata.type": "#PowerDistribution.v1_6_0.PowerDistribution",
          "@odata.id": `${RACK_PDUS}/${p.spec.id}`,
          Id: p.spec.id,
          Name: `Rack PDU ${p.spec.id}`,
          EquipmentType: "RackPDU",
          Manufacturer: "Contoso",
          Model: p.spec.model ?? "ZAP4000",
          SerialNumber: p.serial,
          FirmwareVersion: "4.3.0",
          Status: status(),
          Location: { Placement: { Rack: p.spec.rack } },
          Outlets: link(`${RACK_PDUS}/${p.spec.id}/Outlets`),
        });
      },
    },
  },
  {
    pattern: `${RACK_PDUS}/:pdu/Outlets`,
    methods: {
      GET: (ctx) => {
        const p = pduOf(ctx);
        const base = `${RACK_PDUS}/${p.spec.id}/Outlets`;
        return ok(
          collection(
            "OutletCollection",
            "Outlets",
            base,
            p.outlets.map((_, i) => `${base}/${i + 1}`),
          ),
        );
      },
    },
  },
  {
    pattern: `${RACK_PDUS}/:pdu/Outlets/:n`,
    methods: {
      GET: (ctx) => {
        const p = pduOf(ctx);
        return ok(outletBody(ctx.world, p, outletIndex(p, ctx.params.n)));
      },
    },
  },
  {
    pattern: `${RACK_PDUS}/:pdu/Outlets/:n/Outlet.PowerControl`,
    methods: {
      POST: (ctx) => {
        const p = pduOf(ctx);
        const n = outletIndex(p, ctx.params.n);
        const b = objectBody(ctx);
        const action = "Outlet.PowerControl";
        if (b.PowerState === undefined) throw new RedfishError(400, "ActionParameterMissing", [action, "PowerState"]);
        const s = b.PowerState;
        if (s !== "On" && s !== "Off" && s !== "PowerCycle")
          throw new RedfishError(400, "ActionParameterValueNotInList", [String(s), "PowerState", action]);
        ctx.world.setOutlet(p.spec.id, n, s);
        return { status: 204 };
      },
    },
  },
];
