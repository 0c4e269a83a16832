/** Keeps secrets out of diagnostics and logs. */

const MASK = "(sensitive value)";

/** Replaces every occurrence of each secret in `text` with a mask; secrets shorter than 3 characters are left alone. */
export function redact(text: string, secrets: Iterable<string>): string {
  const list = [...new Set(secrets)].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of list) out = out.split(s).join(MASK);
  return out;
}
