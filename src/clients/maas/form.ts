/** MAAS request bodies: application/x-www-form-urlencoded, repeated keys for lists, booleans as MAAS parses them. */

/** A form value; arrays become repeated keys, undefined is left out. */
export type FormValue = string | number | boolean | readonly string[] | undefined;

/** A form: field name to value. */
export type Form = Readonly<Record<string, FormValue>>;

/** Encodes a form (or query string) the way Django's QueryDict reads it back. */
export function encodeForm(form: Form): string {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) out.append(k, item);
    else out.append(k, typeof v === "boolean" ? (v ? "true" : "false") : String(v));
  }
  return out.toString();
}
