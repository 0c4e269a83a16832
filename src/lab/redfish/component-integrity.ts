/**
 * ComponentIntegrity (DSP0268, ComponentIntegrity v1_2) on a host's BMC: one SPDM member per attesting component
 * (attest/components.ts), its certificate chain as a Certificate resource (PEMchain) under the chassis, and the
 * SPDMGetSignedMeasurements action answering with a signed SPDM 1.2 transcript (attest/spdm.ts).
 */
import { randomBytes, X509Certificate } from "node:crypto";
import { type AttestedComponent, attestedComponents } from "../attest/components.js";
import { MEASUREMENT_INDICES } from "../attest/measurements.js";
import { attestFault, type MeasurementRequest } from "../attest/responder.js";
import type { LabNode } from "../world/model.js";
import { certificateFields } from "./cert-fields.js";
import { RedfishError } from "./errors.js";
import { bmcNode, type Ctx, chassisOf, collection, get, link, objectBody, ok, type Route, status } from "./router.js";

const BASE = "/redfish/v1/ComponentIntegrity";
const ACTION = "ComponentIntegrity.SPDMGetSignedMeasurements";
/** Seconds a client is told to wait when a component's responder does not answer. */
const SILENT_RETRY_S = 60;

const certPath = (n: LabNode, c: AttestedComponent) =>
  `/redfish/v1/Chassis/${n.chassisId}/Certificates/${c.id}_CertChain`;

function componentOf(ctx: Ctx, id: string): { n: LabNode; c: AttestedComponent } {
  const n = bmcNode(ctx);
  const c = attestedComponents(ctx.world, n).find((x) => x.id === id);
  if (!c) throw new RedfishError(404, "ResourceNotFound", ["ComponentIntegrity", id]);
  return { n, c };
}

function member(n: LabNode, c: AttestedComponent): Record<string, unknown> {
  const path = `${BASE}/${c.id}`;
  return {
    "@odata.type": "#ComponentIntegrity.v1_2_5.ComponentIntegrity",
    "@odata.id": path,
    Id: c.id,
    Name: `SPDM responder of ${c.identity.commonName}`,
    ComponentIntegrityType: "SPDM",
    ComponentIntegrityTypeVersion: "1.2.0",
    ComponentIntegrityEnabled: true,
    TargetComponentURI: c.target,
    Status: status(),
    Links: { ComponentsProtected: [link(c.target)] },
    SPDM: {
      Requester: link(`/redfish/v1/Managers/${n.ids.manager}`),
      IdentityAuthentication: { ResponderAuthentication: { ComponentCertificate: link(certPath(n, c)) } },
    },
    Actions: { [`#${ACTION}`]: { target: `${path}/Actions/${ACTION}` } },
  };
}

function certificate(ctx: Ctx, n: LabNode, c: AttestedComponent): Record<string, unknown> {
  const pem = ctx.world.attestation.chain(c, ctx.world.faults.list(), n.spec.name);
  const leaf = new X509Certificate(pem);
  return {
    "@odata.type": "#Certificate.v1_8_3.Certificate",
    "@odata.id": certPath(n, c),
    Id: `${c.id}_CertChain`,
    Name: `${c.identity.commonName} identity certificate chain`,
    CertificateString: pem,
    CertificateType: "PEMchain",
    CertificateUsageTypes: ["Device"],
    ...certificateFields(leaf),
    KeyUsage: ["DigitalSignature"],
    SPDM: { SlotId: 0 },
  };
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** The action's parameters, or 400 naming the bad one. */
function parseRequest(ctx: Ctx): MeasurementRequest {
  const b = objectBody(ctx);
  for (const k of Object.keys(b))
    if (!["Nonce", "SlotId", "MeasurementIndices"].includes(k)) throw new RedfishError(400, "PropertyUnknown", [k]);
  const nonce = b.Nonce;
  if (nonce !== undefined && (typeof nonce !== "string" || !HEX64.test(nonce)))
    throw new RedfishError(400, "ActionParameterValueFormatError", [String(nonce), "Nonce", ACTION]);
  const slot = b.SlotId ?? 0;
  if (typeof slot !== "number" || !Number.isInteger(slot))
    throw new RedfishError(400, "ActionParameterValueTypeError", [String(slot), "SlotId", ACTION]);
  if (slot < 0 || slot > 7)
    throw new RedfishError(400, "ActionParameterValueNotInList", [String(slot), "SlotId", ACTION]);
  const raw = b.MeasurementIndices ?? [];
  if (!Array.isArray(raw))
    throw new RedfishError(400, "ActionParameterValueTypeError", [String(raw), "MeasurementIndices", ACTION]);
  const known = new Set<number>([0, ...MEASUREMENT_INDICES]);
  for (const i of raw)
    if (typeof i !== "number" || !known.has(i))
      throw new RedfishError(400, "ActionParameterValueNotInList", [String(i), "MeasurementIndices", ACTION]);
  // A BMC with no Nonce from the client generates one (DSP0268: "If not provided by the client, the service shall
  // generate the nonce").
  const bytes = typeof nonce === "string" ? Buffer.from(nonce, "hex") : randomBytes(32);
  return { nonce: bytes, slot, indices: raw as number[] };
}

function measure(ctx: Ctx) {
  const { n, c } = componentOf(ctx, ctx.params.ci);
  const req = parseRequest(ctx);
  const faults = ctx.world.faults.list();
  if (attestFault(faults, "attest-silent", n.spec.name, c.id)) {
    // The BMC's SPDM requester timed out waiting for the device: the service is unavailable for now.
    throw new RedfishError(503, "ServiceTemporarilyUnavailable", [String(SILENT_RETRY_S)], {
      "Retry-After": String(SILENT_RETRY_S),
    });
  }
  const answer = ctx.world.attestation.answer(c, req, faults, n.spec.name);
  return ok({
    "@odata.type": "#ComponentIntegrity.v1_2_5.SPDMGetSignedMeasurementsResponse",
    ...answer,
    Certificate: link(certPath(n, c)),
  });
}

/** Routes of ComponentIntegrity and the components' certificates. */
export const componentIntegrityRoutes: Route[] = [
  {
    pattern: BASE,
    methods: get((ctx) =>
      collection(
        "ComponentIntegrityCollection",
        "Component Integrity Collection",
        BASE,
        attestedComponents(ctx.world, bmcNode(ctx)).map((c) => `${BASE}/${c.id}`),
      ),
    ),
  },
  {
    pattern: `${BASE}/:ci`,
    methods: get((ctx) => {
      const { n, c } = componentOf(ctx, ctx.params.ci);
      return member(n, c);
    }),
  },
  { pattern: `${BASE}/:ci/Actions/${ACTION}`, methods: { POST: measure } },
  {
    pattern: "/redfish/v1/Chassis/:ch/Certificates",
    methods: get((ctx) => {
      const n = chassisOf(ctx);
      const base = `/redfish/v1/Chassis/${n.chassisId}/Certificates`;
      return collection(
        "CertificateCollection",
        "Certificate Collection",
        base,
        attestedComponents(ctx.world, n).map((c) => certPath(n, c)),
      );
    }),
  },
  {
    pattern: "/redfish/v1/Chassis/:ch/Certificates/:cert",
    methods: get((ctx) => {
      const n = chassisOf(ctx);
      const c = attestedComponents(ctx.world, n).find((x) => `${x.id}_CertChain` === ctx.params.cert);
      if (!c) throw new RedfishError(404, "ResourceNotFound", ["Certificate", ctx.params.cert]);
      return certificate(ctx, n, c);
    }),
  },
];
