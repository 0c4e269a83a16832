/** Ironic API microversions ("1.82"): parsing, comparison and negotiation. */
import { IronicError } from "./errors.js";

/** Highest microversion this client was written against (Ironic 2023.x); newer servers are spoken to at this one. */
export const CLIENT_MAX_MICROVERSION = "1.87";
/** Lowest microversion this client needs: allocations (1.52). */
export const CLIENT_MIN_MICROVERSION = "1.52";

/** The microversion that first accepts each provision target (absent: available since 1.1 or long enough). */
export const TARGET_MIN_MICROVERSION: Readonly<Record<string, string>> = {
  service: "1.87",
  unhold: "1.85",
};

/** [major, minor] of "1.82"; undefined when not a microversion. */
export function parseMicroversion(v: string | undefined): [number, number] | undefined {
  const m = /^(\d+)\.(\d+)$/.exec(v?.trim() ?? "");
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Negative, zero or positive as a < b, a = b, a > b. */
export function compareMicroversions(a: string, b: string): number {
  const pa = parseMicroversion(a) ?? [0, 0];
  const pb = parseMicroversion(b) ?? [0, 0];
  return pa[0] - pb[0] || pa[1] - pb[1];
}

/** The server's supported range. */
export interface MicroversionRange {
  readonly min: string;
  readonly max: string;
}

/** The version to speak: `pinned` if the server supports it, else the highest both sides know. */
export function negotiate(server: MicroversionRange, pinned?: string): string {
  const range = `[${server.min}, ${server.max}]`;
  if (pinned !== undefined) {
    if (!parseMicroversion(pinned)) {
      throw new IronicError(
        "RACKFORM_ERR_IRONIC_MICROVERSION",
        `microversion ${JSON.stringify(pinned)} is not of the form 1.NN`,
      );
    }
    if (compareMicroversions(pinned, server.min) < 0 || compareMicroversions(pinned, server.max) > 0) {
      throw new IronicError(
        "RACKFORM_ERR_IRONIC_MICROVERSION",
        `Ironic does not support microversion ${pinned}; the supported range is ${range}`,
        {},
        { requested: pinned, min: server.min, max: server.max },
      );
    }
    return pinned;
  }
  const best = compareMicroversions(server.max, CLIENT_MAX_MICROVERSION) < 0 ? server.max : CLIENT_MAX_MICROVERSION;
  if (compareMicroversions(best, CLIENT_MIN_MICROVERSION) < 0 || compareMicroversions(best, server.min) < 0) {
    throw new IronicError(
      "RACKFORM_ERR_IRONIC_MICROVERSION",
      `Ironic supports microversions ${range}; rackform needs at least ${CLIENT_MIN_MICROVERSION} (Ironic 12.1 / Stein or newer)`,
      {},
      { min: server.min, max: server.max },
    );
  }
  return best;
}
