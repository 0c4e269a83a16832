import { describe, expect, it } from "vitest";
import { RequestLog } from "../../../src/lab/request-log.js";

const req = (path: string) => ({
  time: "2026-11-22T00:00:00.000Z",
  method: "GET",
  path,
  host: "127.10.0.1:443",
  address: "127.10.0.1",
  status: 200,
  durationMs: 1,
});

describe("the lab's request log", () => {
  it("returns every entry after a sequence number, oldest first, up to a limit", () => {
    const log = new RequestLog(10);
    for (let i = 1; i <= 5; i++) log.append(req(`/p${i}`));
    expect(log.since(0).map((e) => e.path)).toEqual(["/p1", "/p2", "/p3", "/p4", "/p5"]);
    expect(log.since(3).map((e) => e.seq)).toEqual([4, 5]);
    expect(log.since(1, 2).map((e) => e.seq)).toEqual([2, 3]);
    expect(log.since(5)).toEqual([]);
    expect(log.last()).toBe(5);
  });

  it("keeps the newest entries when full, with sequence numbers still counting", () => {
    const log = new RequestLog(3);
    for (let i = 1; i <= 8; i++) log.append(req(`/p${i}`));
    expect(log.since(0).map((e) => e.seq)).toEqual([6, 7, 8]);
    expect(log.since(6).map((e) => e.path)).toEqual(["/p7", "/p8"]);
    expect(log.last()).toBe(8);
  });
});
