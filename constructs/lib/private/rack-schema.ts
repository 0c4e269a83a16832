/** The JSON Schema of a Rack's data props (PDUs, nodes, user data); the construct-valued props are checked apart. */
import type { PropsSchema } from "./validate.js";

/** Outlets a PDU has when its props leave the number out. */
export const DEFAULT_PDU_OUTLETS = 48;

/** The highest U position of a rack (52U is the tallest common rack). */
const MAX_U = 52;

/** Schema of RackProps minus flavor, image, acceptance, backend, cluster and redfish. */
export const RACK_SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["pdus", "nodes"],
  properties: {
    pdus: {
      type: "array",
      minItems: 1,
      expect: "a list of at least one PDU",
      fix: "list the rack's PDUs: { name, endpoint, outlets }",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["name", "endpoint"],
        properties: {
          name: { type: "string", minLength: 1, expect: "a PDU name", fix: 'name the PDU, e.g. "r12-pdu-a"' },
          endpoint: {
            type: "string",
            format: "redfish-url",
            expect: "a Redfish URL",
            fix: "use https://host[:port] of the PDU's Redfish service",
          },
          outlets: {
            type: "integer",
            minimum: 1,
            maximum: 96,
            expect: "a whole number of outlets in 1..96",
            fix: "give how many outlets the PDU has, e.g. 48",
          },
          redfishId: { type: "string", minLength: 1, expect: "a RackPDU id", fix: "leave it out to use the PDU name" },
        },
      },
    },
    nodes: {
      type: "array",
      minItems: 1,
      expect: "a list of at least one node",
      fix: "add the rack's nodes: { name, u, pdu, outlet, bmc }",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["name", "u", "pdu", "outlet", "bmc"],
        properties: {
          name: {
            type: "string",
            format: "node-name",
            expect: "a host name",
            fix: "use lower-case letters, digits, '-' and '.', starting and ending with a letter or digit (≤ 63)",
          },
          u: {
            type: "integer",
            minimum: 1,
            maximum: MAX_U,
            expect: `a U position in 1..${MAX_U}`,
            fix: "give the node's lowest U position, 1 at the bottom of the rack",
          },
          pdu: { type: "string", minLength: 1, expect: "a PDU name", fix: "name one of the rack's PDUs" },
          outlet: {
            anyOf: [
              { type: "integer", minimum: 1 },
              { type: "string", minLength: 1 },
            ],
            expect: "an outlet number (1, 2, …) or id",
            fix: 'give the outlet feeding the node, e.g. 7 or "A7"',
          },
          bmc: {
            type: "string",
            format: "bmc-address",
            expect: "an IPv4 address or URL",
            fix: "use https://host[:port]",
          },
          macs: {
            type: "array",
            items: {
              type: "string",
              format: "mac",
              expect: "a MAC address",
              fix: 'write six hex pairs, e.g. "3c:fd:fe:a1:b2:c3"',
            },
          },
          dpus: {
            type: "array",
            items: {
              type: "string",
              format: "bmc-address",
              expect: "an IPv4 address or URL of a DPU's BMC",
              fix: "use https://host[:port] of the DPU BMC's Redfish service",
            },
          },
          systemId: {
            type: "string",
            minLength: 1,
            expect: "a Systems member id",
            fix: "leave it out for the BMC's only system",
          },
        },
      },
    },
    userData: {
      type: "string",
      pattern: "rackform-join:",
      expect: "cloud-init user data with a `rackform-join:` line",
      fix: "keep a line `rackform-join: slurm` (or kubernetes) so the booted node registers, or leave userData out",
    },
  },
};
