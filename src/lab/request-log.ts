/** Every request any lab endpoint received, in order; tests read it to prove what was (or was not) sent. */

/** One request as the lab saw it. */
export interface RequestLogEntry {
  readonly seq: number;
  /** ISO time (wall clock) the request arrived. */
  readonly time: string;
  readonly method: string;
  readonly path: string;
  /** Query string as sent, decoded (e.g. `$expand=.($levels=3)`); absent when there was none. */
  readonly query?: string;
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

/**
 * A bounded, append-only log with sequence numbers. A ring: when full the oldest entry is overwritten in O(1), and
 * sequence numbers are contiguous, so `since` jumps straight to the first newer entry instead of scanning.
 */
export class RequestLog {
  private readonly ring: RequestLogEntry[] = [];
  private seq = 0;
  constructor(private readonly capacity = 200_000) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("capacity must be a positive integer");
  }

  /** Appends an entry and returns it. */
  append(e: Omit<RequestLogEntry, "seq">): RequestLogEntry {
    const entry = { seq: ++this.seq, ...e };
    this.ring[(entry.seq - 1) % this.capacity] = entry;
    return entry;
  }
  /** Entries with seq > since (all when 0), oldest first. */
  since(since = 0, limit = Number.POSITIVE_INFINITY): RequestLogEntry[] {
    const oldest = Math.max(1, this.seq - this.capacity + 1);
    const out: RequestLogEntry[] = [];
    for (let s = Math.max(oldest, Math.floor(since) + 1); s <= this.seq && out.length < limit; s++) {
      out.push(this.ring[(s - 1) % this.capacity]);
    }
    return out;
  }
  /** Highest sequence number so far (0 when empty); pass it as `since` later to see only newer requests. */
  last(): number {
    return this.seq;
  }
}
