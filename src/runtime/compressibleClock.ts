/**
 * A `ScaledClock` that skips idle time: when its user sleeps until an instant and nothing is in flight
 * (no request being answered), simulated time jumps straight to that instant instead of passing at
 * `timeScale`. A scenario of weeks through the ARM emulator then takes seconds, as in process.
 *
 * Why no event is skipped: the emulator has no timers. Everything it shows — an upgrade's progress and
 * end, a window, a version's arrival, a cluster busy until an instant — is computed from the clock when
 * a request asks, so nothing happens between requests that anyone could see. The one who sleeps (the
 * engine, through `drive`) asks to wake at the first instant anything can matter to it (its next poll of
 * an upgrade, a window opening, a wait's end), and finds the world exactly as it would be had that much
 * time passed for real. While a request is in flight the clock does not jump: the sleeper waits for the
 * emulator to go idle first, so no request sees time move under it.
 *
 * Between jumps time still passes at `timeScale` (requests, and the backend's real-time retry pauses,
 * take simulated time as before), so instants differ from the in-process run by that much, no more.
 */
import type { Clock } from "../engine/clock";
import { RealClock } from "./realClock";
import { ScaledClock, type ClockAnchor } from "./scaledClock";

export class CompressibleClock extends ScaledClock {
  /** Simulated ms jumped over so far. */
  private skipped = 0;
  private inFlight = 0;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(anchor: ClockAnchor, real: Clock = new RealClock()) {
    super(anchor, real);
  }

  /** Simulated ms skipped by jumps so far (for reports and tests). */
  get skippedMs(): number {
    return this.skipped;
  }

  /** A request started being answered: no jump until it is done. */
  begin(): void {
    this.inFlight += 1;
  }

  /** A request was answered (or dropped). */
  end(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight > 0) return;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  override toSimulated(realInstant: number): number {
    return super.toSimulated(realInstant) + this.skipped;
  }

  override toReal(simulatedInstant: number): number {
    return super.toReal(simulatedInstant - this.skipped);
  }

  /** Not offered: a rescaled copy would lose the jumps. */
  override rescaled(): ScaledClock {
    throw new Error("a CompressibleClock cannot be rescaled");
  }

  override async sleepUntil(instant: number): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    const ahead = instant - this.now();
    if (ahead > 0) this.skipped += ahead;
    // Yield to I/O as a real sleep would, so sockets and callbacks are not starved by a run of jumps.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
