/** User-facing problems: a summary, a detail that says how to fix it, and the attribute it concerns. */

/** One step of an attribute path: an attribute name, a map key, or a list/set index. */
export type PathStep = { readonly attr: string } | { readonly key: string } | { readonly index: number };

/** A path to an attribute inside a resource's or provider's configuration. */
export type AttributePath = readonly PathStep[];

/** A diagnostic as the engine shows it to the user. */
export interface Diagnostic {
  readonly severity: "error" | "warning";
  readonly summary: string;
  readonly detail: string;
  readonly attribute?: AttributePath;
}

/** Builds a path from names and indices: path("bmc", 0, "mac") → bmc[0].mac. Strings after the first are attrs. */
export function path(...steps: (string | number | PathStep)[]): AttributePath {
  return steps.map((s) => (typeof s === "string" ? { attr: s } : typeof s === "number" ? { index: s } : s));
}

/** Renders a path the way HCL writes it: nodes[2].bmc["a"]. */
export function formatPath(p: AttributePath | undefined): string {
  if (!p || p.length === 0) return "";
  let out = "";
  for (const s of p) {
    if ("attr" in s) out += out ? `.${s.attr}` : s.attr;
    else if ("key" in s) out += `[${JSON.stringify(s.key)}]`;
    else out += `[${s.index}]`;
  }
  return out;
}

/** An error diagnostic. */
export function errorDiag(summary: string, detail: string, attribute?: AttributePath): Diagnostic {
  return attribute ? { severity: "error", summary, detail, attribute } : { severity: "error", summary, detail };
}

/** A warning diagnostic. */
export function warningDiag(summary: string, detail: string, attribute?: AttributePath): Diagnostic {
  return attribute ? { severity: "warning", summary, detail, attribute } : { severity: "warning", summary, detail };
}

/** A growable list of diagnostics with a cheap error check; handlers receive one pre-filled in their response. */
export class Diagnostics {
  readonly items: Diagnostic[] = [];
  add(...d: Diagnostic[]): this {
    this.items.push(...d);
    return this;
  }
  error(summary: string, detail: string, attribute?: AttributePath): this {
    return this.add(errorDiag(summary, detail, attribute));
  }
  warning(summary: string, detail: string, attribute?: AttributePath): this {
    return this.add(warningDiag(summary, detail, attribute));
  }
  hasError(): boolean {
    return this.items.some((d) => d.severity === "error");
  }
}
