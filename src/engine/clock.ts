/**
 * Time as the engine sees it. The engine never reads the system clock or sets timers: it asks a
 * `Clock` what time it is and to wake it at an instant. Instants are epoch milliseconds (UTC).
 */
export interface Clock {
  now(): number;
  /** Resolves at (or after) `instant`. Returns at once when `instant` is not in the future. */
  sleepUntil(instant: number): Promise<void>;
}

/**
 * A clock that jumps straight to the instant it is asked to wait for: a week of rollout takes
 * milliseconds, and every run is reproducible.
 */
export class VirtualClock implements Clock {
  private current: number;

  constructor(start: number) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleepUntil(instant: number): Promise<void> {
    if (instant > this.current) this.current = instant;
    return Promise.resolve();
  }
}
