/**
 * Issue 30: the clock of the service a run drives, as its answers tell it. With ARM, a member's start
 * and end are the instants ARM recorded for its operation (docs/rules.md §20), on ARM's clock; so the
 * run's own instants — a stage's start, an intent, the end of an after-stage wait — are taken on that
 * clock too, or a wait "measured from" ARM's end would be measured on a clock that disagrees with it.
 *
 * Every answer says an instant the service's clock had reached when it was made: the HTTP `Date`
 * header (whole seconds, so at most that), an operation's recorded start or end. This clock runs
 * with the local one from the latest such instant (`reached`), so it is a lower bound of the
 * service's clock: a wait that ends on it has ended on the service's; an instant stamped on it
 * comes no later than what the service records after it. Before the first answer it is the local
 * clock. It never goes backwards.
 *
 * Against the ARM emulator, whose clock may run faster than real time, the same holds: each answer
 * moves it forward, and between answers it runs at real speed (so an after-stage wait takes its real
 * length, at least its length on the emulator's clock).
 */
import type { Clock } from "../engine/clock";

/** Node's timers take at most 2^31-1 ms; longer sleeps are taken in steps. */
const MAX_TIMER_MS = 2_147_483_647;

export class ServerClock implements Clock {
  /** The service's clock minus the local one, as the answers so far show it at least to be. */
  private offset: number | undefined;
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly local: () => number = Date.now) {}

  now(): number {
    this.last = Math.max(this.last, this.local() + (this.offset ?? 0));
    return this.last;
  }

  /** The service's clock has reached `instant` (an answer's `Date`, an operation's recorded start or end). */
  reached(instant: number): void {
    if (!Number.isFinite(instant)) return;
    const offset = instant - this.local();
    if (this.offset === undefined || offset > this.offset) this.offset = offset;
  }

  /** Real milliseconds until this clock reads `instant`, if no answer moves it before. */
  realMsUntil(instant: number): number {
    return instant - this.now();
  }

  async sleepUntil(instant: number): Promise<void> {
    for (;;) {
      const remaining = this.realMsUntil(instant);
      if (remaining <= 0) return;
      await new Promise<void>((resolve) => setTimeout(resolve, Math.min(remaining, MAX_TIMER_MS)));
    }
  }
}
