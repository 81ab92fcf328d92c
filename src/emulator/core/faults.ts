/**
 * Injected faults, to exercise a client's retries: server errors (500/503 with an ARM body),
 * throttling answers (429 with `Retry-After`), connection resets (the socket is destroyed before any
 * answer) and added latency. Drawn from a seeded PRNG, one draw sequence per request in arrival
 * order, so a run with the same seed and the same requests gets the same faults. These faults are
 * injected before the request is handled: a faulted request changed nothing.
 *
 * One fault is injected after: a lost response (`lostResponseRate`) lets a write (PUT, POST, PATCH,
 * DELETE) be applied, then resets the connection instead of answering — the client cannot tell
 * whether its write happened. It is drawn from a second seeded sequence, one draw per applied write, so
 * turning it on does not move the other faults.
 */

export interface FaultOptions {
  /** Share of requests answered 500 or 503 (0..1). */
  serverErrorRate?: number;
  /** Share of requests answered 429 (0..1), on top of real throttling. */
  throttleRate?: number;
  /** Share of requests whose connection is reset (0..1). */
  resetRate?: number;
  /** Latency added to every request, drawn uniformly from [min, max] ms. */
  latencyMs?: { min: number; max: number };
  /**
   * Simulated seconds an injected 429 asks the client to wait (default 1). Like every duration the
   * emulator hands out, it is scaled to real time: `retry-after-ms` carries it in real milliseconds (the
   * Azure SDK reads that first), `Retry-After` rounded up to whole real seconds.
   */
  retryAfterSeconds?: number;
  /** Share of writes applied and then answered with a connection reset (0..1). */
  lostResponseRate?: number;
}

export type Fault = { kind: "none" } | { kind: "reset" } | { kind: "serverError"; status: 500 | 503 } | { kind: "throttle"; retryAfterSeconds: number };

/** mulberry32: small, fast, good enough to spread faults; the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Offsets the seed of the lost-response sequence from the main one. */
const LOST_RESPONSE_STREAM = 0x5bd1e995;

export class FaultInjector {
  private readonly random: () => number;
  private readonly lostResponseRandom: () => number;

  constructor(
    private readonly options: FaultOptions,
    seed: number,
  ) {
    for (const key of ["serverErrorRate", "throttleRate", "resetRate", "lostResponseRate"] as const) {
      const rate = options[key] ?? 0;
      if (!(rate >= 0 && rate <= 1)) throw new RangeError(`faults.${key} must be between 0 and 1 (got ${rate})`);
    }
    const total = (options.serverErrorRate ?? 0) + (options.throttleRate ?? 0) + (options.resetRate ?? 0);
    if (total > 1) throw new RangeError(`the fault rates add up to ${total}, more than 1`);
    const latency = options.latencyMs;
    if (latency !== undefined && !(latency.min >= 0 && latency.max >= latency.min)) {
      throw new RangeError(`faults.latencyMs must satisfy 0 <= min <= max (got ${latency.min}..${latency.max})`);
    }
    this.random = seededRandom(seed);
    this.lostResponseRandom = seededRandom(seed ^ LOST_RESPONSE_STREAM);
  }

  /** For a write that was handled: whether to lose its answer (reset the connection instead). */
  loseResponse(): boolean {
    const rate = this.options.lostResponseRate ?? 0;
    return rate > 0 && this.lostResponseRandom() < rate;
  }

  /** Milliseconds to wait before answering. */
  latency(): number {
    const range = this.options.latencyMs;
    if (range === undefined) return 0;
    return Math.round(range.min + this.random() * (range.max - range.min));
  }

  /** Which fault, if any, this request gets. Always draws twice, so the sequence does not depend on outcomes. */
  next(): Fault {
    const draw = this.random();
    const which = this.random();
    const reset = this.options.resetRate ?? 0;
    const serverError = this.options.serverErrorRate ?? 0;
    const throttle = this.options.throttleRate ?? 0;
    if (draw < reset) return { kind: "reset" };
    if (draw < reset + serverError) return { kind: "serverError", status: which < 0.5 ? 500 : 503 };
    if (draw < reset + serverError + throttle) return { kind: "throttle", retryAfterSeconds: this.options.retryAfterSeconds ?? 1 };
    return { kind: "none" };
  }
}

export const SERVER_ERROR_BODIES: Record<500 | 503, { code: string; message: string }> = {
  500: { code: "InternalServerError", message: "Encountered internal server error. Please try again." },
  503: { code: "ServiceUnavailable", message: "The service is currently unavailable. Please try again later." },
};
