/**
 * The acceptance gate through Warewulf — rackform's convention on top of Warewulf, not a Warewulf feature (Warewulf
 * has no test runner or result store). Warewulf nodes fetch their runtime overlays periodically through wwclient, and
 * overlay templates render the node's tags. The site imports rackform's runtime overlay `rackform-acceptance`
 * (`wwctl overlay import`); to run the gate the adapter adds it to the node's runtime overlays with the request tag
 * `rackform_acceptance_request` (base64 JSON of the parameters and a run id). The overlay's script on the node runs
 * DCGM, NCCL and the burn-in once per run id and writes `rackform_acceptance_result` (base64 JSON: the run id, passed,
 * and the `rackform-acceptance/v1` evidence) back through warewulfd's API as a dedicated low-privilege API user that
 * the site adds to auth.conf (rackform never ships or prints that password). The adapter polls GET /api/nodes/{id}
 * until the result of its run id appears, then consumes the run: it removes the request tag and the overlay and keeps
 * the result (lastAcceptance reads it). A request whose result is there but not yet consumed is a finished run a
 * crashed apply left behind; one without a result is a run still going: both are taken up, never started twice.
 */
import { randomBytes } from "node:crypto";
import type { WarewulfNodeFields } from "../../clients/warewulf/index.js";
import { type AcceptanceEvidence, type AcceptanceParams, parseEvidence } from "./backend.js";

/** The runtime overlay the site imports from rackform, and the node tags of a run. */
export const WAREWULF_ACCEPTANCE = {
  overlay: "rackform-acceptance",
  request: "rackform_acceptance_request",
  result: "rackform_acceptance_result",
} as const;

/** A gate request as the overlay reads it. */
export interface GateRequest {
  readonly run: string;
  readonly dcgm_level: number;
  readonly burn_in: string;
  readonly nccl_min_busbw_gbps?: number;
}

/** A gate result as the overlay writes it. */
export interface GateResult {
  readonly run: string;
  readonly passed: boolean;
  readonly evidence?: AcceptanceEvidence;
  /** Why the gate could not measure (no GPU, a tool missing). */
  readonly error?: string;
}

const enc = (v: unknown) => Buffer.from(JSON.stringify(v), "utf8").toString("base64");

function dec(v: string | undefined): Record<string, unknown> | undefined {
  if (!v) return undefined;
  try {
    const o: unknown = JSON.parse(Buffer.from(v, "base64").toString("utf8"));
    return o !== null && typeof o === "object" && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A new request for `p` with a fresh run id. */
export function newRequest(p: AcceptanceParams): GateRequest {
  return {
    run: `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`,
    dcgm_level: p.dcgmLevel,
    burn_in: p.burnIn,
    ...(p.ncclMinBusbwGBps === undefined ? {} : { nccl_min_busbw_gbps: p.ncclMinBusbwGBps }),
  };
}

/** The request tag's value. */
export const encodeRequest = (r: GateRequest): string => enc(r);

/** The pending request on a node's tags; undefined when none (or unreadable). */
export function requestOf(tags: Readonly<Record<string, string>> | undefined): GateRequest | undefined {
  const o = dec(tags?.[WAREWULF_ACCEPTANCE.request]);
  return o && typeof o.run === "string" ? (o as unknown as GateRequest) : undefined;
}

/** The result on a node's tags (its evidence parsed); undefined when none (or unreadable). */
export function resultOf(tags: Readonly<Record<string, string>> | undefined): GateResult | undefined {
  const o = dec(tags?.[WAREWULF_ACCEPTANCE.result]);
  if (!o || typeof o.run !== "string") return undefined;
  return {
    run: o.run,
    passed: o.passed === true,
    evidence: parseEvidence(o.evidence),
    ...(typeof o.error === "string" ? { error: o.error } : {}),
  };
}

/** True when a pending request asks for the same gate as `p`. */
export function sameGate(r: GateRequest, p: AcceptanceParams): boolean {
  return r.dcgm_level === p.dcgmLevel && r.burn_in === p.burnIn && r.nccl_min_busbw_gbps === p.ncclMinBusbwGBps;
}

/** The node's raw fields with the request tag and the overlay added (what a PATCH sets). */
export function startFields(raw: WarewulfNodeFields, r: GateRequest): WarewulfNodeFields {
  const overlays = (raw["runtime overlay"] ?? []).filter((o) => o !== WAREWULF_ACCEPTANCE.overlay);
  return {
    "runtime overlay": [...overlays, WAREWULF_ACCEPTANCE.overlay],
    tags: { [WAREWULF_ACCEPTANCE.request]: encodeRequest(r) },
  };
}

/** The node's raw fields without the request tag and the overlay, the result kept (what a PUT writes). */
export function consumedFields(raw: WarewulfNodeFields): WarewulfNodeFields {
  const { [WAREWULF_ACCEPTANCE.request]: _req, ...tags } = raw.tags ?? {};
  const { "runtime overlay": prior, ...rest } = raw;
  const overlays = (prior ?? []).filter((o) => o !== WAREWULF_ACCEPTANCE.overlay);
  return { ...rest, ...(overlays.length ? { "runtime overlay": overlays } : {}), tags };
}

/** The failure message of a finished run. */
export function resultMessage(r: GateResult): string {
  if (r.error) return `the gate could not run on the node: ${r.error}`;
  const failures = Array.isArray(r.evidence?.failures) ? (r.evidence.failures as unknown[]).map(String) : [];
  return failures.length ? `acceptance failed: ${failures.join("; ")}` : "acceptance failed";
}
