/**
 * Requests for the typed resource handlers (`<name>-ops.ts`) called directly in unit tests: a quiet context, fresh
 * diagnostics and a private-data slot; and diagnostics as one line each for assertions.
 */
import {
  backgroundContext,
  createLogger,
  type Diagnostic,
  Diagnostics,
  formatPath,
  type PrivateSlot,
  type PrivateState,
} from "../../src/framework/index.js";

/** A private-data slot holding `initial` until a handler sets another. */
export function privateSlot(initial: PrivateState = {}): PrivateSlot {
  let value = initial;
  return {
    get value() {
      return value;
    },
    set(next) {
      value = next;
    },
  };
}

const quiet = createLogger({ level: "off" });

/** What a handler's request holds besides its models: context, diagnostics, private data `priv`. */
export function typedRequest(priv: PrivateState = {}) {
  return { context: backgroundContext(undefined, quiet), diagnostics: new Diagnostics(), private: privateSlot(priv) };
}

/** Each diagnostic as "severity summary @ attribute path". */
export function diagnosticLines(d: Diagnostics | readonly Diagnostic[]): string[] {
  const items = d instanceof Diagnostics ? d.items : d;
  return items.map((x) => `${x.severity} ${x.summary} @ ${formatPath(x.attribute)}`);
}
