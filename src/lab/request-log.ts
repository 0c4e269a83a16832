/** Every request any lab endpoint received, in order; tests read it to prove what was (or was not) sent. */

/** One request as the lab saw it. */
export interface RequestLogEntry {
  readonly seq: number;
  /** ISO time (wall clock) the request arrived. */
  readonly time: string;
  readonly method: string;
  readonly path: string;
  /** Host header as sent (address:port). */
  readonly host: string;
  /** Local address the request came in on (identifies the BMC or PDU). */
  readonly address: string;
  /** Node name or PDU id, when the address belongs to one. */
  readonly target?: string;
  /** HTTP status, or 0 when the connection was dropped (reset, hang, BMC off). */
  readonly status: number;
  readonly durationMs: number;
}

/** A bounded, append-only log with sequence numbers. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;
  constructor(private readonly capacity = 200_000) {}

  /** Appends an entry and returns it. */
  append(e: Omit<RequestLogEntry, "seq">): RequestLogEntry {
    const entry = { seq: ++this.seq, ...e };
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    return entry;
  }
  /** Entries with seq > since (all when 0), oldest first. */
  since(since = 0, limit = Number.POSITIVE_INFINITY): RequestLogEntry[] {
    const out: RequestLogEntry[] = [];
    for (const e of this.entries) {
      if (e.seq > since) out.push(e);
      if (out.length >= limit) break;
    }
    return out;
  }
  /** Highest sequence number so far (0 when empty); pass it as `since` later to see only newer requests. */
  last(): number {
    return this.seq;
  }
}
