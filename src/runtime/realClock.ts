/**
 * The wall clock, for runs against real time (the Pulumi resources, `fleet-update run`). Lives
 * outside `src/engine/` because it reads the system clock and sets timers, which the engine never does.
 */
import type { Clock } from "../engine/clock";

/** Node's timers take at most 2^31-1 ms; longer sleeps are taken in steps. */
const MAX_TIMER_MS = 2_147_483_647;

export class RealClock implements Clock {
  now(): number {
    return Date.now();
  }

  async sleepUntil(instant: number): Promise<void> {
    for (;;) {
      const remaining = instant - Date.now();
      if (remaining <= 0) return;
      await new Promise<void>((resolve) => setTimeout(resolve, Math.min(remaining, MAX_TIMER_MS)));
    }
  }
}
