/**
 * docs/rules.md §7 events, as `Transitions` coalesces them: the changes an item goes through at one
 * instant make one event, from where it was to where it ends, with the message of its last change (or
 * none); a change undone at the same instant makes none; changes at different instants are never merged.
 * Issue 34: these could be broken without a test failing.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { VirtualClock } from "../../src/engine/clock";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import type { RunState } from "../../src/engine/runState";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { parseScenario, resolveScenarioStrategy } from "../../src/simulation/scenario";
import type { RunEvent } from "../../src/model/status";
import { START, member, scenario, simulate, startAt, stopAt } from "./helpers";

const T = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");
const at = (minutes: number) => Date.parse(START) + minutes * 60_000;
const line = (e: RunEvent) => `${e.time} ${e.scope} ${e.name} ${e.from}->${e.to}${e.message === undefined ? "" : ` ${e.message}`}`;

function made(yaml: string) {
  const parsed = parseScenario(yaml);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const events: RunEvent[] = [];
  const run = { name: "run", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed) };
  return { parsed, clock, fleet, events, run };
}

describe("one instant, one event per item", () => {
  it("a retried member that starts at once: one event from Failed to Running, saying what it does now", async () => {
    const o = await simulate(scenario({ members: [member("f-1", { fail: "drain timed out" })], actions: [startAt(T(30))] }));
    expect(o.eventsOf("member", "f-1").map(line)).toEqual([
      `${T(0)} member f-1 NotStarted->Running Upgrading the control plane to Kubernetes 1.32.0.`,
      `${T(10)} member f-1 Running->Failed Upgrade failed: drain timed out (UpgradeFailed)`,
      `${T(30)} member f-1 Failed->Running Upgrading the control plane to Kubernetes 1.32.0.`,
      `${T(40)} member f-1 Running->Failed Upgrade failed: drain timed out (UpgradeFailed)`,
    ]);
  });

  it("an upgrade found already ended when a resumed run adopts it: one event to Completed, with no message", async () => {
    const { clock, fleet, events, run } = made(scenario({ members: [member("a")] }));
    const checkpoints: RunState[] = [];
    const first = UpdateRunEngine.create(run, fleet, { checkpoint: (intent) => void (intent !== undefined && checkpoints.push(first.snapshot())) });
    first.start(at(0));
    await first.reconcile(at(0));
    // The first process died after asking for the upgrade; the next one comes up after it ended.
    await clock.sleepUntil(at(30));
    const second = UpdateRunEngine.resume(checkpoints[0]!, fleet, { onEvent: (e) => events.push(e) });
    await drive(second, clock);
    // Stamped with the upgrade's end as the fleet recorded it (docs/rules.md §20), not when it was seen.
    expect(events.filter((e) => e.scope === "member").map(line)).toEqual([`${T(10)} member a NotStarted->Completed`]);
  });

  it("a stop and a start at one instant change nothing: no event, and nothing left undelivered", async () => {
    const { clock, fleet, events, run } = made(scenario({ members: [member("m-1"), member("m-2")] }));
    const engine = UpdateRunEngine.create(run, fleet, { onEvent: (e) => events.push(e) });
    engine.start(at(0));
    await engine.reconcile(at(0));
    await clock.sleepUntil(at(5));
    engine.stop(at(5));
    engine.start(at(5));
    expect(engine.undeliveredEvents()).toEqual([]);
    await engine.reconcile(at(5));
    expect(events.filter((e) => e.time === T(5))).toEqual([]);
  });

  it("changes at different instants are separate events, each at its instant, though no pass ran between them", async () => {
    const { fleet, events, run } = made(scenario({ members: [member("m-1")] }));
    const engine = UpdateRunEngine.create(run, fleet, { onEvent: (e) => events.push(e) });
    engine.start(at(0));
    engine.stop(at(5));
    await engine.reconcile(at(5));
    expect(events.filter((e) => e.scope === "run").map(line)).toEqual([`${T(0)} run run NotStarted->Pending`, `${T(5)} run run Pending->Stopped`]);
  });
});

describe("the order of events at one instant", () => {
  it("upgrades that all ended while no process ran are followed in the order they were started, whenever each ended", async () => {
    const { clock, fleet, events, run } = made(
      scenario({ members: [member("long", { minutes: 60 }), member("short", { minutes: 10 })], strategy: '{stages: [{name: s, groups: [{name: g, maxConcurrency: "2"}]}]}' }).replaceAll("  - {name: ", "  - {group: g, name: "),
    );
    const first = UpdateRunEngine.create(run, fleet);
    first.start(at(0));
    await first.reconcile(at(0));
    const snapshot = first.snapshot();
    // Back two hours later: short ended at 00:10, long at 01:00; both are taken in this pass.
    await clock.sleepUntil(at(120));
    const second = UpdateRunEngine.resume(snapshot, fleet, { onEvent: (e) => events.push(e) });
    await second.reconcile(at(120));
    // Each event carries its upgrade's own end (docs/rules.md §20); the order is the order of the starts.
    expect(events.filter((e) => e.scope === "member").map(line)).toEqual([`${T(60)} member long Running->Completed`, `${T(10)} member short Running->Completed`]);
  });

  it("groups changing at one instant are reported in the stage's order, whichever of their members ended first", async () => {
    // b's member started at 00:00 (20 min), a's at 00:10 once its cluster was free (10 min): both end at
    // 00:20, while a stop (00:15) drains the run.
    const o = await simulate(
      scenario({
        members: [member("a-1", { group: "a", busyUntil: T(10) }), member("b-1", { group: "b", minutes: 20 })],
        strategy: "{stages: [{name: s, groups: [{name: a}, {name: b}]}]}",
        actions: [stopAt(T(15))],
      }),
    );
    expect(o.events.filter((e) => e.time === T(20) && e.scope === "group").map(line)).toEqual([`${T(20)} group a Stopping->Completed`, `${T(20)} group b Stopping->Completed`]);
  });
});
