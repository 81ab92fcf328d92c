/**
 * The clock `simulate --via arm-emulator` gives the ARM emulator and the engine: scaled real time, as
 * a `ScaledClock` (a simulated minute every `60000 / timeScale` real ms), except that when the engine
 * sleeps until an instant, no request is in flight and nothing in the simulated world changes with time
 * by itself (no upgrade runs: `underWay`), simulated time jumps straight to that instant. Weeks of
 * maintenance windows and soaks through the emulator then take seconds.
 *
 * Why no event is skipped: the emulator has no timers. Everything it shows — an upgrade's progress and
 * end, a window, a version's arrival, a cluster busy until an instant — is computed from the clock when
 * a request asks, so nothing happens between requests that anyone could see. The sleeper (the engine,
 * through `drive`) asks to wake at the first instant anything can matter to it — a window opening, a
 * wait's end, a version's announced arrival — and finds the world exactly as it would be had that much
 * time passed. While a request is in flight the clock does not jump: the sleeper waits for the emulator
 * to go idle first, so no request sees time leap under it.
 *
 * Why time keeps running (and does not jump) while an upgrade runs: the backend polls a running upgrade
 * every 15–60 simulated seconds; taken one jump at a time, those polls would come with no real time
 * between them and meet ARM's throttling (real-time token buckets). At `timeScale` they are paced as
 * they always were, and a request that takes real time takes simulated time, which paces the engine's
 * re-checks the same way.
 *
 * Time starts running with the first request, not at construction: the client's start (its TLS
 * handshake, its first requests' warm-up) would otherwise pass as simulated minutes before anything
 * happened.
 */
import type { Clock } from "../engine/clock";

export interface CompressibleClockOptions {
  /** Simulated instant at the start. */
  start: number;
  /** Simulated ms per real ms. */
  timeScale: number;
  /** Something changes with time by itself at `now` (an upgrade runs): no jump. */
  underWay: (now: number) => boolean;
  /** Real time, whole ms (default `Date.now`: at a whole number of simulated ms per real ms, instants stay whole). */
  realNow?: () => number;
  /** A real sleep (default `setTimeout`). */
  realSleep?: (ms: number) => Promise<void>;
  /**
   * The earliest instant at which something scheduled acts by itself (a Fleet Manager run's next
   * pass, server-side), if any: a jump stops there, and `runDue` runs it at that instant.
   */
  nextScheduledAt?: () => number | undefined;
  /** Run what is scheduled for now or before (resolves when it is done). */
  runDue?: () => Promise<void>;
}

export class CompressibleClock implements Clock {
  /** Simulated instant at `realAtBase` (moved by jumps). */
  private base: number;
  private realAtBase = 0;
  private started = false;
  private skipped = 0;
  private inFlight = 0;
  private readonly idleWaiters: Array<() => void> = [];
  private readonly realNow: () => number;
  private readonly realSleep: (ms: number) => Promise<void>;

  constructor(private readonly options: CompressibleClockOptions) {
    this.base = options.start;
    this.realNow = options.realNow ?? (() => Date.now());
    this.realSleep = options.realSleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  now(): number {
    if (!this.started) return this.base;
    return this.base + Math.floor((this.realNow() - this.realAtBase) * this.options.timeScale);
  }

  /** Simulated ms jumped over so far. */
  get skippedMs(): number {
    return this.skipped;
  }

  /** A request started being answered: time runs from the first one; no jump until it is done. */
  begin(): void {
    if (!this.started) {
      this.started = true;
      this.realAtBase = this.realNow();
    }
    this.inFlight += 1;
  }

  /** A request was answered (or dropped). */
  end(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight > 0) return;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  async sleepUntil(instant: number): Promise<void> {
    for (;;) {
      while (this.inFlight > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      const now = this.now();
      if (instant <= now) return;
      if (!this.started || !this.options.underWay(now)) {
        const scheduled = this.options.nextScheduledAt?.();
        if (scheduled !== undefined && scheduled <= now) {
          // Due and not run yet (its real-time timer is behind a jump): run it before time moves on.
          await this.options.runDue?.();
          const after = this.options.nextScheduledAt?.();
          if (after !== undefined && after <= this.now()) await this.realSleep(1);
          continue;
        }
        const target = scheduled === undefined ? instant : Math.min(instant, scheduled);
        this.skipped += target - now;
        this.base = target;
        this.realAtBase = this.realNow();
        // Yield to I/O as a real sleep would, so sockets and callbacks are not starved by a run of jumps.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (target === instant) return;
        continue;
      }
      // An upgrade runs: time runs on; look again when the instant is due.
      await this.realSleep(Math.max(1, Math.ceil((instant - now) / this.options.timeScale)));
    }
  }
}
