import { describe, expect, it } from "vitest";
import type { Clock } from "../src/engine/clock";
import { CompressibleClock } from "../src/runtime/compressibleClock";

/** Real time that moves only when told to, and never sleeps for real. */
class StillRealClock implements Clock {
  constructor(public current: number) {}
  now(): number {
    return this.current;
  }
  async sleepUntil(instant: number): Promise<void> {
    if (instant > this.current) this.current = instant;
  }
}

const DAY = 86_400_000;
const START = Date.parse("2026-12-05T00:00:00Z");

function clockAt(real: StillRealClock, timeScale = 6_000): CompressibleClock {
  return new CompressibleClock({ realOrigin: real.now(), simulatedOrigin: START, timeScale }, real);
}

describe("CompressibleClock", () => {
  it("jumps straight to the instant asked for when nothing is in flight, without real time passing", async () => {
    const real = new StillRealClock(1_000);
    const clock = clockAt(real);
    await clock.sleepUntil(START + 20 * DAY);
    expect(clock.now()).toBe(START + 20 * DAY);
    expect(real.now()).toBe(1_000);
    expect(clock.skippedMs).toBe(20 * DAY);
    // A past instant changes nothing.
    await clock.sleepUntil(START);
    expect(clock.now()).toBe(START + 20 * DAY);
  });

  it("between jumps, time passes at its scale, continuing from where the last jump left it", async () => {
    const real = new StillRealClock(1_000);
    const clock = clockAt(real, 6_000);
    await clock.sleepUntil(START + DAY);
    real.current += 10; // 10 real ms at 6,000× are a simulated minute
    expect(clock.now()).toBe(START + DAY + 60_000);
    expect(clock.toReal(clock.now())).toBe(real.now());
    expect(clock.toSimulated(real.now())).toBe(clock.now());
  });

  it("does not jump while a request is in flight: the sleeper waits for the last one to end, then jumps", async () => {
    const real = new StillRealClock(1_000);
    const clock = clockAt(real);
    clock.begin();
    clock.begin();
    let woke = false;
    const sleeping = clock.sleepUntil(START + 7 * DAY).then(() => (woke = true));
    await new Promise((r) => setImmediate(r));
    expect(woke).toBe(false);
    expect(clock.now()).toBe(START);
    clock.end();
    await new Promise((r) => setImmediate(r));
    expect(woke).toBe(false);
    expect(clock.now()).toBe(START);
    clock.end();
    await sleeping;
    expect(clock.now()).toBe(START + 7 * DAY);
  });

  it("cannot be rescaled (a copy would lose the jumps)", () => {
    expect(() => clockAt(new StillRealClock(0)).rescaled()).toThrow(/cannot be rescaled/);
  });
});
