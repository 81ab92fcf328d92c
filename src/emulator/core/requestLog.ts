/** What the emulator was asked and what it answered, for accounting in tests and demos. */

export type FaultKind = "reset" | "serverError" | "throttle" | "lostResponse";

export interface RequestLogEntry {
  method: string;
  /** Without the query string. */
  path: string;
  /** HTTP status; 0 when the connection was reset instead of answered (a `reset` or `lostResponse` fault). */
  status: number;
  /** Set when the answer was an injected fault (`lostResponse`: handled, then reset) or a throttling refusal. */
  fault?: FaultKind | "throttled";
}

export interface RequestCounters {
  GET: number;
  PUT: number;
  POST: number;
  PATCH: number;
  DELETE: number;
  /** Refused by the subscription token buckets (real throttling). */
  throttled: number;
  /** Injected faults: 5xx, 429, connection resets, and answers lost after the write was applied. */
  faults: number;
  /** The injected faults by kind. */
  injected: Record<FaultKind, number>;
}

const METHODS = ["GET", "PUT", "POST", "PATCH", "DELETE"] as const;

function emptyCounters(): RequestCounters {
  return { GET: 0, PUT: 0, POST: 0, PATCH: 0, DELETE: 0, throttled: 0, faults: 0, injected: { reset: 0, serverError: 0, throttle: 0, lostResponse: 0 } };
}

export class RequestLog {
  readonly entries: RequestLogEntry[] = [];
  readonly counters: RequestCounters = emptyCounters();

  /** `onRecord` is told of each entry as it is logged, synchronously (see `ArmEmulatorOptions.onRequest`). */
  constructor(private readonly onRecord?: (entry: RequestLogEntry) => void) {}

  record(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if ((METHODS as readonly string[]).includes(entry.method)) this.counters[entry.method as (typeof METHODS)[number]] += 1;
    if (entry.fault === "throttled") this.counters.throttled += 1;
    else if (entry.fault !== undefined) {
      this.counters.faults += 1;
      this.counters.injected[entry.fault] += 1;
    }
    this.onRecord?.(entry);
  }

  /** Forget everything so far (between test cases sharing one emulator). */
  clear(): void {
    this.entries.length = 0;
    Object.assign(this.counters, emptyCounters());
  }
}
