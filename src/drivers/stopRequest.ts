/**
 * A stop asked for from outside while a run is driven in real time (Ctrl-C in `fleet-update run`).
 * The engine's drive loop only looks at user actions between passes, and may be asleep until the
 * next poll or the end of a long wait; `StoppableClock` cuts that sleep short, so the stop applies
 * at the instant it was asked for rather than at the next wake.
 */
import type { Clock } from "../engine/clock";
import { isHeldClock } from "../runtime/scaledClock";

/** Node's timers take at most 2^31-1 ms; longer sleeps are taken in steps. */
const MAX_TIMER_MS = 2_147_483_647;

export class StopRequest {
  private pending = false;
  private asked = false;
  private readonly sleepers = new Set<() => void>();

  /** Ask for a stop: wakes every sleep in progress. */
  request(): void {
    this.pending = true;
    this.asked = true;
    for (const wake of [...this.sleepers]) wake();
  }

  get isPending(): boolean {
    return this.pending;
  }

  /**
   * Whether a stop was ever asked for, even once taken: the drive loop takes the request to apply it,
   * and its caller still needs to know the call ended because of it (the provider plugin's Cancel).
   */
  get wasRequested(): boolean {
    return this.asked;
  }

  /** Whether a stop was asked for since the last take; clears it. */
  take(): boolean {
    const was = this.pending;
    this.pending = false;
    return was;
  }

  /** Resolves after `ms` or at a request, whichever comes first; its timer never outlives it. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }
}

/** Thrown out of `StoppableClock.sleepUntil` (and so out of `drive`, between passes) when a stop is asked for. */
export class StopRequested extends Error {
  constructor() {
    super("stop requested");
    this.name = "StopRequested";
  }
}

/**
 * The backend's clock, with sleeps that end early when a stop is asked for. It sets its own timers
 * (from `realMsUntil`) instead of the inner clock's, so an interrupted sleep leaves no timer behind
 * to keep the process alive.
 */
export class StoppableClock implements Clock {
  constructor(
    private readonly inner: Clock,
    private readonly realMsUntil: (instant: number) => number,
    private readonly stop: StopRequest,
  ) {}

  now(): number {
    return this.inner.now();
  }

  async sleepUntil(instant: number): Promise<void> {
    for (;;) {
      if (this.stop.isPending) {
        // The stop applies at the instant it was asked for: a held clock moves to the wall's instant.
        if (isHeldClock(this.inner)) this.inner.catchUp();
        throw new StopRequested();
      }
      const remaining = this.realMsUntil(instant);
      if (remaining <= 0) {
        // A held clock reads the instant slept to (docs/behaviour.md#scaled-clock).
        if (isHeldClock(this.inner)) this.inner.reached(instant);
        return;
      }
      await this.stop.sleep(Math.min(Math.ceil(remaining), MAX_TIMER_MS));
    }
  }
}
