/**
 * One node's chain from PDU-on to joined, summed from the lab's simulated durations (after the speed factor): the floor
 * under any apply, however parallel. Shared by the rack and fleet benchmarks.
 */

/** The lab's durations the chain is made of (the TimeProfile keys, already scaled). */
export type ChainDuration = (
  op: "bmcBootMs" | "commissionMs" | "burnInMs" | "deployMs" | "cleaningMs" | "powerOnMs",
) => number;

/** The chain term by term and its total, for MAAS (commissioning) or Ironic (inspection and cleaning). */
export function criticalPath(d: ChainDuration, backend: "maas" | "ironic"): { totalMs: number; terms: string } {
  const terms: [string, number][] =
    backend === "maas"
      ? [
          ["BMC boot", d("bmcBootMs")],
          ["commissioning", d("commissionMs")],
          // MAAS runs its default commissioning tests after the scripts; the lab times them as testing (burn-in).
          ["commissioning tests", d("burnInMs")],
          ["deploy", d("deployMs")],
          ["acceptance (op=test)", d("burnInMs")],
          // The lab's OS boot before slurmd registers: five host power-on times (src/lab/glue/joins.ts).
          ["OS boot + join", 5 * d("powerOnMs")],
        ]
      : [
          ["BMC boot", d("bmcBootMs")],
          ["inspection", d("commissionMs")],
          ["automated cleaning (provide)", d("cleaningMs")],
          ["deploy", d("deployMs")],
          ["acceptance (service step)", d("burnInMs")],
          ["OS boot + join", 5 * d("powerOnMs")],
        ];
  return {
    totalMs: terms.reduce((a, [, ms]) => a + ms, 0),
    terms: terms.map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)}`).join(" + "),
  };
}
