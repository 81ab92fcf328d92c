import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/engine/clock";
import { RealClock } from "../../src/runtime/realClock";

describe("clocks", () => {
  it("the real clock wakes no earlier than the instant asked for, and at once for a past instant", async () => {
    const clock = new RealClock();
    const target = clock.now() + 30;
    await clock.sleepUntil(target);
    expect(clock.now()).toBeGreaterThanOrEqual(target);
    // A past instant resolves without a timer: the promise settles in this microtask queue turn.
    let woke = false;
    void clock.sleepUntil(clock.now() - 1_000).then(() => (woke = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(woke).toBe(true);
  });

  it("the virtual clock jumps straight to the instant and never goes back", async () => {
    const clock = new VirtualClock(1_000);
    await clock.sleepUntil(86_400_000);
    expect(clock.now()).toBe(86_400_000);
    await clock.sleepUntil(5);
    expect(clock.now()).toBe(86_400_000);
  });
});
