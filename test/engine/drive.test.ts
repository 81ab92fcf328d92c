/**
 * Driving an engine on a clock (src/engine/drive.ts): it stops at the horizon `until` (reconciling at
 * that very instant), at the caller's own deadline, or — asked to return when idle — when nothing is in
 * flight and the next step is further away than allowed; it never moves the clock past an instant where
 * nothing can happen; a refused user action is thrown unless the caller takes it.
 * Issue 34: each of these could be broken without a test failing (the CLI's and the provider's tests
 * drive it, but not the engine's).
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { VirtualClock } from "../../src/engine/clock";
import { drive, type DriveOptions } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { parseScenario, resolveScenarioStrategy } from "../../src/simulation/scenario";
import { START, member, scenario } from "./helpers";

const at = (time: string) => Date.parse(`2026-12-05T${time}Z`);

/** Two stages with an hour's wait between them; each member's upgrade takes 10 minutes. */
function setUp(strategy = "{stages: [{name: one, groups: [{name: one}], afterStageWaitInSeconds: 3600}, {name: two, groups: [{name: two}]}]}", members = [member("a-1", { group: "one" }), member("b-1", { group: "two" })]) {
  const parsed = parseScenario(scenario({ members, strategy }));
  const clock = new VirtualClock(Date.parse(START));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const engine = UpdateRunEngine.create({ name: "run", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed) }, fleet);
  engine.start(clock.now());
  const states = () => engine.status().stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((m) => `${m.name} ${m.status.state}`)));
  return { engine, clock, states, go: (options: DriveOptions) => drive(engine, clock, options) };
}

describe("the horizon", () => {
  it("an upgrade ending exactly at `until` is seen ended: the engine reconciles at the horizon itself", async () => {
    const { clock, states, go } = setUp();
    await go({ until: at("00:10:00") });
    expect(clock.now()).toBe(at("00:10:00"));
    expect(states()).toEqual(["a-1 Completed", "b-1 NotStarted"]);
  });

  it("a run that waits for nothing known (a gate to approve) stops driving without moving the clock", async () => {
    const { clock, engine, go } = setUp("{stages: [{name: one, groups: [{name: one}], afterGates: [{type: Approval, displayName: sign-off}]}, {name: two, groups: [{name: two}]}]}");
    await go({});
    expect(engine.status().status.state).toBe("Pending");
    expect(clock.now()).toBe(at("00:10:00"));
  });
});

describe("the caller's deadline", () => {
  it("driving stops before waking past it, and goes on while it is not reached", async () => {
    const { clock, states, go } = setUp();
    await go({ pastDeadline: (instant) => instant > at("00:30:00") });
    // The wait ends at 01:10: waking then would be past the deadline.
    expect(clock.now()).toBe(at("00:10:00"));
    expect(states()).toEqual(["a-1 Completed", "b-1 NotStarted"]);
  });
});

describe("returning when idle", () => {
  it("returns when nothing is in flight and the next step (the wait's end) is further away than allowed", async () => {
    const { clock, go } = setUp();
    await go({ returnWhenIdleFor: 30 * 60_000 });
    expect(clock.now()).toBe(at("00:10:00"));
  });

  it("goes on through a step exactly as far away as allowed, and while an upgrade is in flight", async () => {
    const { clock, engine, go } = setUp();
    // The upgrade's 10 minutes are longer than the 5 allowed, but it is in flight; the wait is exactly an hour.
    await go({ returnWhenIdleFor: 3600_000 });
    expect(engine.status().status.state).toBe("Completed");
    expect(clock.now()).toBe(at("01:20:00"));
    const busy = setUp();
    await busy.go({ returnWhenIdleFor: 5 * 60_000 });
    expect(busy.clock.now()).toBe(at("00:10:00"));
    expect(busy.states()).toEqual(["a-1 Completed", "b-1 NotStarted"]);
  });
});

describe("user actions", () => {
  it("a refused action is thrown as the engine refused it when the caller does not take it", async () => {
    const { go } = setUp();
    await expect(go({ actions: [{ at: at("00:05:00"), skip: [{ type: "Member", name: "a-1" }] }] })).rejects.toThrow(/a-1/);
    const taken: string[] = [];
    const again = setUp();
    await again.go({ actions: [{ at: at("00:05:00"), skip: [{ type: "Member", name: "a-1" }] }], onActionRefused: (_action, e) => taken.push(e.message) });
    expect(taken).toHaveLength(1);
    expect(again.states()).toEqual(["a-1 Completed", "b-1 Completed"]);
  });
});
