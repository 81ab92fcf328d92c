/**
 * Simulated time running at `timeScale` × real time, anchored so that it continues across processes:
 * the wall's instant is simulatedOrigin + (real − realOrigin) × timeScale. The Pulumi resources drive the
 * simulated fleet with it, so a 10-minute simulated upgrade takes 10 / timeScale real minutes and a
 * second `pulumi up` finds the clusters where the simulated hours have taken them.
 *
 * **Held between sleeps** (`HeldScaledClock`; issue 23; docs/behaviour.md#scaled-clock). The run's clock on the
 * simulated fleet moves only
 * when its user sleeps: `sleepUntil(t)` waits for the wall to reach `t`, then the clock reads `t`, and
 * goes on reading `t` while the engine's pass and its persistence run, however long they take in real
 * time. So members due at one instant start at that instant, as in `simulate`, and a run's timing is
 * its plan's; our own processing never becomes simulated delay. A pass that starts late (the wall is
 * already past its instant) is still evaluated at its instant. The clock never reads past the wall,
 * so a process that starts later (`catchUp`, at every open) starts at the wall's instant, after every
 * instant recorded before.
 */
import type { Clock } from "../engine/clock";
import { RealClock } from "./realClock";

export interface ClockAnchor {
  /** Real epoch ms at the anchor. */
  realOrigin: number;
  /** Simulated epoch ms at the anchor. */
  simulatedOrigin: number;
  /** Simulated ms per real ms. */
  timeScale: number;
}

/** A clock held at an instant between sleeps, which its user can move to the wall's instant. */
export interface HeldClock extends Clock {
  /** Read the wall's instant from now on (never going back). */
  catchUp(): void;
  /** The wall has reached `instant` (a sleep its user timed itself ended): read it from now on. */
  reached(instant: number): void;
}

export function isHeldClock(clock: Clock): clock is HeldClock {
  return typeof (clock as Partial<HeldClock>).catchUp === "function" && typeof (clock as Partial<HeldClock>).reached === "function";
}

/** The wall's simulated time: what the emulator's fleet runs on (nothing holds it). */
export class ScaledClock implements Clock {
  protected readonly real: Clock;

  constructor(
    readonly anchor: ClockAnchor,
    real: Clock = new RealClock(),
  ) {
    this.real = real;
  }

  /** Anchor now: simulated time starts at real time (so windows fall on real dates), at `timeScale`. */
  static startingNow(timeScale: number, real: Clock = new RealClock()): ScaledClock {
    const now = real.now();
    return new ScaledClock({ realOrigin: now, simulatedOrigin: now, timeScale }, real);
  }

  /** Keep simulated time continuous while changing speed. */
  rescaled(timeScale: number): ScaledClock {
    if (timeScale === this.anchor.timeScale) return this;
    const real = this.real.now();
    return new ScaledClock({ realOrigin: real, simulatedOrigin: this.toSimulated(real), timeScale }, this.real);
  }

  toSimulated(realInstant: number): number {
    return Math.floor(this.anchor.simulatedOrigin + (realInstant - this.anchor.realOrigin) * this.anchor.timeScale);
  }

  toReal(simulatedInstant: number): number {
    return this.anchor.realOrigin + (simulatedInstant - this.anchor.simulatedOrigin) / this.anchor.timeScale;
  }

  now(): number {
    return this.toSimulated(this.real.now());
  }

  sleepUntil(instant: number): Promise<void> {
    return this.real.sleepUntil(Math.ceil(this.toReal(instant)));
  }
}

/**
 * The simulated fleet's clock when a run drives it (`fileBacked.ts`): a `ScaledClock` **held between
 * sleeps** (see the top of this file).
 */
export class HeldScaledClock extends ScaledClock implements HeldClock {
  /** The instant the clock reads: the last sleep's end, or the wall's instant at the last catch-up. */
  private current: number;

  constructor(anchor: ClockAnchor, real: Clock = new RealClock()) {
    super(anchor, real);
    this.current = super.now();
  }

  static override startingNow(timeScale: number, real: Clock = new RealClock()): HeldScaledClock {
    const now = real.now();
    return new HeldScaledClock({ realOrigin: now, simulatedOrigin: now, timeScale }, real);
  }

  override rescaled(timeScale: number): HeldScaledClock {
    if (timeScale === this.anchor.timeScale) return this;
    const real = this.real.now();
    return new HeldScaledClock({ realOrigin: real, simulatedOrigin: this.toSimulated(real), timeScale }, this.real);
  }

  /** The held instant; `wallNow` is the wall's. */
  override now(): number {
    return this.current;
  }

  wallNow(): number {
    return super.now();
  }

  catchUp(): void {
    this.current = Math.max(this.current, this.wallNow());
  }

  reached(instant: number): void {
    this.current = Math.max(this.current, Math.min(instant, this.wallNow()));
  }

  override async sleepUntil(instant: number): Promise<void> {
    await super.sleepUntil(instant);
    this.reached(instant);
  }
}
