import { describe, expect, it } from "vitest";
import { HttpStatusError, HttpTimeoutError, RackformClientError } from "../../../src/clients/errors.js";
import { PollFailures } from "../../../src/clients/http/poll.js";
import type { IronicNode } from "../../../src/clients/ironic/types.js";
import { waitForProvisionState } from "../../../src/clients/ironic/wait.js";
import { Redactor } from "../../../src/clients/redact.js";

const timeout = () => new HttpTimeoutError("no response headers within 30000 ms", "headers", { method: "GET" });
const status = (s: number) => new HttpStatusError(`HTTP ${s}`, { method: "GET", status: s });

describe("PollFailures: a wait survives an API that does not answer for a while", () => {
  it("lets a wait poll again after a timeout, a 503 or a 429, and forgets them once a poll answers", () => {
    let t = 0;
    const f = new PollFailures(() => t, 60_000);
    for (const e of [timeout(), status(503), status(429)]) {
      expect(() => f.failed(e, 1e9)).not.toThrow();
      t += 20_000;
    }
    f.ok();
    t += 50_000;
    expect(() => f.failed(timeout(), 1e9)).not.toThrow();
  });

  it("gives up with the last failure once failures in a row have lasted the limit, or at the wait's deadline", () => {
    let t = 0;
    const f = new PollFailures(() => t, 60_000);
    f.failed(timeout(), 1e9);
    t = 60_000;
    expect(() => f.failed(status(503), 1e9)).toThrow("HTTP 503");
    const g = new PollFailures(() => t, 60_000);
    expect(() => g.failed(timeout(), t)).toThrow("no response headers");
  });

  it("ends the wait at once on a failure that does not pass (refused credentials, a 404, a bad answer)", () => {
    const f = new PollFailures(() => 0);
    expect(() => f.failed(status(401), 1e9)).toThrow("HTTP 401");
    expect(() => f.failed(status(404), 1e9)).toThrow("HTTP 404");
    expect(() => f.failed(new RackformClientError("RACKFORM_ERR_HTTP_BAD_BODY", "not JSON"), 1e9)).toThrow("not JSON");
    expect(() => f.failed(new Error("bug"), 1e9)).toThrow("bug");
  });
});

describe("waitForProvisionState through a busy Ironic API", () => {
  it("keeps polling through two unanswered polls and resolves when the node reaches the state", async () => {
    let t = 0;
    const answers: (IronicNode | Error)[] = [
      { uuid: "u1", name: "r01-n01", provisionState: "deploying", targetProvisionState: "active" } as IronicNode,
      timeout(),
      status(503),
      { uuid: "u1", name: "r01-n01", provisionState: "active", targetProvisionState: null } as unknown as IronicNode,
    ];
    let reads = 0;
    const n = await waitForProvisionState(
      {
        read: async () => {
          const a = answers[reads++];
          if (a instanceof Error) throw a;
          return a;
        },
        redactor: new Redactor(),
        now: () => t,
        sleep: async (ms) => {
          t += ms;
        },
      },
      "u1",
      "active",
      { pollMs: 1_000 },
    );
    expect(n.provisionState).toBe("active");
    expect(reads).toBe(4);
  });
});
