/**
 * Power-on spacing per circuit: two outlet power-ons on the same rack PDU are at least `intervalMs` apart (inrush
 * current is a per-circuit limit), while power-ons on different PDUs do not wait for each other, so the racks of a
 * run and the PDUs of a rack power on in parallel. One instance per provider process: a second provider process
 * (another stack) switching outlets of the same PDU at the same time is not seen — see docs/hcl.md, "Power-on
 * stagger and shared PDUs", for how to configure shared PDUs.
 */

/** Clock and sleep of a PowerOnStagger (tests inject them). */
export interface StaggerClock {
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The identity of one circuit: the PDU's Redfish service origin and its rack PDU id. */
export function pduCircuit(endpointOrigin: string, pduId: string): string {
  return `${endpointOrigin}#${pduId}`;
}

/** Spaces power-ons per circuit; turns on one circuit are granted first come, first served. */
export class PowerOnStagger {
  private readonly circuits = new Map<string, { chain: Promise<void>; last: number }>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    readonly intervalMs: number,
    clock: StaggerClock = {},
  ) {
    this.now = clock.now ?? Date.now;
    this.sleep = clock.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Resolves when this power-on on `circuit` may start: at least intervalMs after the previous one on it started. */
  turn(circuit: string): Promise<void> {
    let c = this.circuits.get(circuit);
    if (!c) {
      c = { chain: Promise.resolve(), last: Number.NEGATIVE_INFINITY };
      this.circuits.set(circuit, c);
    }
    const state = c;
    const next = state.chain.then(async () => {
      const wait = state.last + this.intervalMs - this.now();
      if (wait > 0) await this.sleep(wait);
      state.last = this.now();
    });
    state.chain = next;
    return next;
  }
}
