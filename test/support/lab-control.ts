/** The lab's control API as tests call it: one request, the answer as status, headers, text and parsed JSON. */
import { expect } from "vitest";
import type { Lab } from "../../src/lab/index.js";

/** Untyped JSON as tests read it. */
// biome-ignore lint/suspicious/noExplicitAny: control payloads are arbitrary JSON navigated by assertion
export type ControlJson = any;

/** A control API answer. */
export interface ControlResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  /** The body parsed, or undefined when it is empty or not JSON. */
  readonly json: ControlJson;
}

/** One control API call (`path` below the control URL, e.g. `/faults`), with a JSON body when given. */
export async function labControl(lab: Lab, method: string, path: string, body?: unknown): Promise<ControlResponse> {
  const r = await fetch(`${lab.info.control.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return responseOf(r);
}

/** A fetch Response as tests look at it: status, headers, text, and the text parsed when it is JSON. */
export async function responseOf(r: Response): Promise<ControlResponse> {
  const text = await r.text();
  let json: ControlJson;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: Object.fromEntries(r.headers), text, json };
}

/** Rotates a BMC's (`/nodes/<name>/bmc/password`) or PDU's password, as an operator does on the device. */
export async function rotatePassword(lab: Lab, path: string, password: string): Promise<void> {
  expect((await labControl(lab, "POST", path, { password })).status, path).toBe(204);
}
