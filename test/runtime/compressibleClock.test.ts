import { describe, expect, it } from "vitest";
import { CompressibleClock } from "../../src/runtime/compressibleClock";

const DAY = 86_400_000;
const START = Date.parse("2026-12-05T00:00:00Z");

/** Real time that moves only when a real sleep is taken (or the test moves it). */
function world(timeScale = 6_000) {
  const real = { ms: 1_000, slept: [] as number[] };
  let upgradeUntil = Number.NEGATIVE_INFINITY;
  const clock = new CompressibleClock({
    start: START,
    timeScale,
    underWay: (now) => now < upgradeUntil,
    realNow: () => real.ms,
    realSleep: async (ms) => {
      real.slept.push(ms);
      real.ms += ms;
    },
  });
  return { clock, real, upgradeRunsUntil: (instant: number) => (upgradeUntil = instant) };
}

describe("CompressibleClock", () => {
  it("stands still until the first request; then runs at its scale", () => {
    const { clock, real } = world(6_000);
    real.ms += 5_000; // the client starting up: no simulated time
    expect(clock.now()).toBe(START);
    clock.begin();
    real.ms += 10; // 10 real ms at 6,000×: a simulated minute
    expect(clock.now()).toBe(START + 60_000);
    clock.end();
  });

  it("jumps straight to the instant asked for when no upgrade runs and nothing is in flight, without a real sleep", async () => {
    const { clock, real } = world();
    clock.begin();
    clock.end();
    await clock.sleepUntil(START + 20 * DAY);
    expect(clock.now()).toBe(START + 20 * DAY);
    expect(clock.skippedMs).toBe(20 * DAY);
    expect(real.slept).toEqual([]);
    // Never back; and time runs on from the instant jumped to.
    await clock.sleepUntil(START);
    real.ms += 10;
    expect(clock.now()).toBe(START + 20 * DAY + 60_000);
  });

  it("does not jump while an upgrade runs: it sleeps for real at its scale (a poll 15 s away is 2.5 real ms at 6,000×)", async () => {
    const { clock, real, upgradeRunsUntil } = world(6_000);
    clock.begin();
    clock.end();
    upgradeRunsUntil(START + 10 * 60_000);
    await clock.sleepUntil(START + 15_000);
    expect(real.slept).toEqual([3]);
    expect(clock.now()).toBe(START + 18_000);
    expect(clock.skippedMs).toBe(0);
    // Once it has ended, the rest is jumped.
    upgradeRunsUntil(Number.NEGATIVE_INFINITY);
    await clock.sleepUntil(START + DAY);
    expect(clock.now()).toBe(START + DAY);
    expect(real.slept).toEqual([3]);
  });

  it("does not jump while a request is in flight: the sleeper waits for the last one to end, then jumps", async () => {
    const { clock } = world();
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
});

describe("CompressibleClock with something scheduled (Fleet Manager's server-side passes)", () => {
  it("a jump stops at each scheduled instant and runs what is due there, at that instant, before going on", async () => {
    const schedule = [START + 2 * DAY, START + 5 * DAY];
    const ran: number[] = [];
    let clock: CompressibleClock;
    clock = new CompressibleClock({
      start: START,
      timeScale: 6_000,
      underWay: () => false,
      realNow: () => 1_000,
      realSleep: async () => undefined,
      nextScheduledAt: () => schedule[0],
      runDue: async () => {
        while (schedule[0] !== undefined && schedule[0] <= clock.now()) ran.push(schedule.shift() as number);
      },
    });
    await clock.sleepUntil(START + 10 * DAY);
    expect(ran).toEqual([START + 2 * DAY, START + 5 * DAY]);
    expect(clock.now()).toBe(START + 10 * DAY);
  });

  it("something already due is run before time moves on", async () => {
    const ran: number[] = [];
    let due: number | undefined = START;
    const clock: CompressibleClock = new CompressibleClock({
      start: START,
      timeScale: 6_000,
      underWay: () => false,
      realNow: () => 1_000,
      realSleep: async () => undefined,
      nextScheduledAt: () => due,
      runDue: async () => {
        ran.push(clock.now());
        due = undefined;
      },
    });
    await clock.sleepUntil(START + DAY);
    expect(ran).toEqual([START]);
    expect(clock.now()).toBe(START + DAY);
  });
});
