/**
 * The acceptance gate through MAAS: the testing script `rackform-acceptance` run with `op=test` and its parameters,
 * and its result output (base64 JSON) read from `nodes/{id}/results/?include_output=1`.
 *
 * MaasClient.test() sends no script parameters and scriptResults() no output, so this goes through the client's
 * transport (same HTTP core, same OAuth signing). When the client grows both, this file shrinks to the calls.
 */
import type { HttpCore } from "../../clients/http/core.js";
import { MAAS_STATUS, type MaasClient, parseApiKey } from "../../clients/maas/index.js";
import { MaasTransport } from "../../clients/maas/transport.js";
import { type AcceptanceEvidence, type AcceptanceParams, parseEvidence } from "./backend.js";

/** Name of the MAAS testing script. */
export const MAAS_ACCEPTANCE_SCRIPT = "rackform-acceptance";

/** Statuses testing starts from (MAAS returns the machine to it when the tests pass). */
export const TESTABLE: ReadonlySet<number> = new Set([
  MAAS_STATUS.READY,
  MAAS_STATUS.ALLOCATED,
  MAAS_STATUS.DEPLOYED,
  MAAS_STATUS.FAILED_TESTING,
]);

/** Where a passing test leaves the machine. */
export const AFTER_TEST = [MAAS_STATUS.READY, MAAS_STATUS.ALLOCATED, MAAS_STATUS.DEPLOYED];

interface Obj {
  readonly [k: string]: unknown;
}
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Script runs and results of one MAAS region beyond what MaasClient offers. */
export class MaasAcceptance {
  private readonly t: MaasTransport;
  constructor(
    private readonly client: MaasClient,
    t: { readonly core: HttpCore; readonly apiKey: string },
  ) {
    this.t = new MaasTransport(t.core, client.apiRoot, parseApiKey(t.apiKey));
  }

  /** Starts the gate with its parameters (as `<script>_<param>`, which MAAS binds to that script only). */
  async start(id: string, p: AcceptanceParams, signal?: AbortSignal): Promise<void> {
    const s = MAAS_ACCEPTANCE_SCRIPT;
    try {
      await this.t.post(
        `machines/${encodeURIComponent(id)}/`,
        "test",
        {
          testing_scripts: s,
          [`${s}_dcgm_level`]: String(p.dcgmLevel),
          [`${s}_burn_in`]: p.burnIn,
          [`${s}_nccl_min_busbw_gbps`]: p.ncclMinBusbwGBps === undefined ? undefined : String(p.ncclMinBusbwGBps),
        },
        signal,
      );
    } finally {
      this.client.machines.invalidate();
    }
  }

  /** The evidence of the newest testing result of the gate. */
  async last(id: string, signal?: AbortSignal): Promise<AcceptanceEvidence | undefined> {
    const sets = await this.t.get(
      `nodes/${encodeURIComponent(id)}/results/`,
      { type: "testing", include_output: 1 },
      signal,
    );
    let newest: { id: number; output: unknown } | undefined;
    for (const set of Array.isArray(sets) ? sets : []) {
      if (!isObj(set) || !Array.isArray(set.results)) continue;
      for (const r of set.results) {
        if (!isObj(r) || r.name !== MAAS_ACCEPTANCE_SCRIPT || typeof r.id !== "number") continue;
        if (!newest || r.id > newest.id) newest = { id: r.id, output: r.output };
      }
    }
    if (!newest || typeof newest.output !== "string") return undefined;
    return parseEvidence(Buffer.from(newest.output, "base64").toString("utf8"));
  }
}
