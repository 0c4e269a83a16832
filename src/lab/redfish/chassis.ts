/** Chassis with Power and Thermal readings. */
import { THERMAL_CRITICAL_C, THERMAL_READING_C } from "../world/health.js";
import { thermalTrip } from "../world/health-faults.js";
import type { LabNode, World } from "../world/model.js";
import { bmcNode, chassisOf, collection, get, link, type Route, status } from "./router.js";

function chassis(world: World, n: LabNode): Record<string, unknown> {
  const path = `/redfish/v1/Chassis/${n.chassisId}`;
  return {
    "@odata.type": "#Chassis.v1_28_0.Chassis",
    "@odata.id": path,
    Id: n.chassisId,
    Name: `${n.spec.hardware.model} chassis`,
    ChassisType: "RackMount",
    Manufacturer: n.spec.hardware.manufacturer,
    Model: n.spec.hardware.model,
    SerialNumber: n.serial,
    PowerState: world.powerState(n),
    Location: { Placement: { Rack: n.spec.rack, RackOffset: n.spec.u, RackOffsetUnits: "EIA_310" } },
    Status: status(thermalTrip(world.faults.list(), n.spec.name) ? "Critical" : "OK"),
    Power: link(`${path}/Power`),
    Thermal: link(`${path}/Thermal`),
    PCIeDevices: link(`${path}/PCIeDevices`),
    Links: {
      ComputerSystems: [link(`/redfish/v1/Systems/${n.systemId}`)],
      ManagedBy: [link(`/redfish/v1/Managers/${n.ids.manager}`)],
    },
  };
}

/** Routes of Chassis. */
export const chassisRoutes: Route[] = [
  {
    pattern: "/redfish/v1/Chassis",
    methods: get((ctx) =>
      collection("ChassisCollection", "Chassis Collection", "/redfish/v1/Chassis", [
        `/redfish/v1/Chassis/${bmcNode(ctx).chassisId}`,
      ]),
    ),
  },
  { pattern: "/redfish/v1/Chassis/:ch", methods: get((ctx) => chassis(ctx.world, chassisOf(ctx))) },
  {
    pattern: "/redfish/v1/Chassis/:ch/Power",
    methods: get((ctx) => {
      const n = chassisOf(ctx);
      const on = ctx.world.powerState(n) === "On";
      const watts = on ? 650 + ctx.world.visibleGpus(n).length * 350 : 0;
      return {
        "@odata.type": "#Power.v1_7_1.Power",
        "@odata.id": `/redfish/v1/Chassis/${n.chassisId}/Power`,
        Id: "Power",
        Name: "Power",
        PowerControl: [
          {
            "@odata.id": `/redfish/v1/Chassis/${n.chassisId}/Power#/PowerControl/0`,
            MemberId: "0",
            Name: "System Power",
            PowerConsumedWatts: watts,
            PowerCapacityWatts: 10_200,
          },
        ],
      };
    }),
  },
  {
    pattern: "/redfish/v1/Chassis/:ch/Thermal",
    methods: get((ctx) => {
      const n = chassisOf(ctx);
      const on = ctx.world.powerState(n) === "On";
      const trip = thermalTrip(ctx.world.faults.list(), n.spec.name);
      return {
        "@odata.type": "#Thermal.v1_7_1.Thermal",
        "@odata.id": `/redfish/v1/Chassis/${n.chassisId}/Thermal`,
        Id: "Thermal",
        Name: "Thermal",
        Temperatures: [
          {
            "@odata.id": `/redfish/v1/Chassis/${n.chassisId}/Thermal#/Temperatures/0`,
            MemberId: "0",
            Name: "Inlet Temp",
            ReadingCelsius: trip ? THERMAL_READING_C : on ? 24 : 21,
            UpperThresholdCritical: THERMAL_CRITICAL_C,
            Status: status(trip ? "Critical" : "OK"),
          },
        ],
        Fans: [
          {
            "@odata.id": `/redfish/v1/Chassis/${n.chassisId}/Thermal#/Fans/0`,
            MemberId: "0",
            Name: "Fan 1",
            Reading: on ? 9800 : 0,
            ReadingUnits: "RPM",
            Status: status(),
          },
        ],
      };
    }),
  },
];
