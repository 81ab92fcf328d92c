/**
 * Simulated time running at `timeScale` × real time, anchored so that it continues across processes:
 * simulated = simulatedOrigin + (real − realOrigin) × timeScale. The Pulumi resources drive the
 * simulated fleet with it, so a 10-minute simulated upgrade takes 10 / timeScale real minutes and a
 * second `pulumi up` finds the clusters where the simulated hours have taken them.
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

export class ScaledClock implements Clock {
  private readonly real: Clock;

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
