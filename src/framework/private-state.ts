/** Private state: a JSON object per resource instance that the engine stores opaquely next to its state. */
import type { JsonValue } from "./json-value.js";

/** A resource's private data; keep it small and free of secrets (it is stored in the state file). */
export type PrivateState = { [key: string]: JsonValue };

/** The engine's bytes for a private object; an empty object is sent as no bytes at all. */
export function encodePrivate(p: PrivateState): Uint8Array {
  if (Object.keys(p).length === 0) return new Uint8Array(0);
  return new TextEncoder().encode(JSON.stringify(p));
}

/** Reads private bytes written by `encodePrivate`; throws on bytes that are not a JSON object. */
export function decodePrivate(bytes: Uint8Array | undefined): PrivateState {
  if (!bytes || bytes.length === 0) return {};
  const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new TypeError("private state is not a JSON object");
  }
  return parsed as PrivateState;
}
