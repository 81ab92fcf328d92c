/**
 * The simulator's clock (src/engine/clock.ts): it jumps straight to an instant it is asked to wait for,
 * and time never runs backwards — waiting for an instant already past returns at once, at the same time.
 * Issue 34: a clock that jumped back could be written without a test failing.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/engine/clock";

describe("VirtualClock", () => {
  it("jumps to the instant waited for, and stays there when asked to wait for an earlier one", async () => {
    const clock = new VirtualClock(1_000);
    await clock.sleepUntil(5_000);
    expect(clock.now()).toBe(5_000);
    await clock.sleepUntil(2_000);
    expect(clock.now()).toBe(5_000);
    await clock.sleepUntil(5_000);
    expect(clock.now()).toBe(5_000);
  });
});
