/** What the emulator was asked and what it answered, for accounting in tests and demos. */

export interface RequestLogEntry {
  method: string;
  /** Without the query string. */
  path: string;
  /** HTTP status; 0 when the connection was reset instead of answered. */
  status: number;
  /** Set when the answer was an injected fault or a throttling refusal. */
  fault?: "reset" | "serverError" | "throttle" | "throttled";
}

export interface RequestCounters {
  GET: number;
  PUT: number;
  POST: number;
  /** Refused by the subscription token buckets (real throttling). */
  throttled: number;
  /** Injected faults: 5xx, 429 and connection resets. */
  faults: number;
}

export class RequestLog {
  readonly entries: RequestLogEntry[] = [];
  readonly counters: RequestCounters = { GET: 0, PUT: 0, POST: 0, throttled: 0, faults: 0 };

  record(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (entry.method === "GET" || entry.method === "PUT" || entry.method === "POST") this.counters[entry.method] += 1;
    if (entry.fault === "throttled") this.counters.throttled += 1;
    else if (entry.fault !== undefined) this.counters.faults += 1;
  }

  /** Forget everything so far (between test cases sharing one emulator). */
  clear(): void {
    this.entries.length = 0;
    for (const key of Object.keys(this.counters) as (keyof RequestCounters)[]) this.counters[key] = 0;
  }
}
