/**
 * The engine's derived indexes (`RunTally`, `InFlight`) against a full recount, after every reconcile
 * pass and every user action of random scenarios — with gates, failures and tolerance too — and
 * after a resume from a snapshot: counts by state per group and stage, Failed members per stage,
 * members in flight per group and stage, the earliest `checkAgainAt`, and the current stage's groups
 * aggregated only when touched still equal to aggregating them all (docs/rules.md §4).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { SimulatedFleet } from "../../src/backends/simulator";
import { VirtualClock } from "../../src/engine/clock";
import type { EngineContext } from "../../src/engine/context";
import { drive, type RunAction } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { currentStage } from "../../src/engine/execute";
import { refreshGroup } from "../../src/engine/refresh";
import { countStates } from "../../src/engine/tally";
import { toRunActions } from "../../src/simulation/simulateScenario";
import { resolveScenarioStrategy, scenarioHorizon, type Scenario } from "../../src/simulation/scenario";
import { scenarioArb } from "./arbitraries";
import { controlledScenarioArb, failingScenarioArb } from "./controlsArbitraries";
import { updateChoiceOf } from "../../src/model/autoUpgrade";

const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

const contextOf = (engine: UpdateRunEngine): EngineContext => (engine as unknown as { ctx: EngineContext }).ctx;

/** Every derived count equals a recount of the run state as it is now. */
function expectIndexesMatch(ctx: EngineContext): void {
  let earliest = Number.POSITIVE_INFINITY;
  for (const stage of ctx.run.stages) {
    expect(ctx.tally.groupCounts(stage)).toEqual(countStates(stage.groups.map((g) => g.state)));
    let failed = 0;
    let stageRunning = 0;
    for (const group of stage.groups) {
      expect(ctx.tally.memberCounts(group)).toEqual(countStates(group.members.map((m) => m.state)));
      failed += group.members.filter((m) => m.state === "Failed").length;
      const running = group.members.filter((m) => m.state === "Running");
      expect(ctx.inFlight.runningIn(group)).toBe(running.length);
      stageRunning += running.length;
      for (const m of running) earliest = Math.min(earliest, m.checkAgainAt ?? Number.NEGATIVE_INFINITY);
    }
    expect(ctx.tally.stageFailures(stage)).toBe(failed);
    expect(ctx.inFlight.runningInStage(stage)).toBe(stageRunning);
  }
  expect(ctx.inFlight.earliest()).toBe(earliest);
}

/** Aggregating every group of the current stage again changes none (no touched group was missed). */
function expectCurrentStageSettled(ctx: EngineContext, now: number): void {
  const stage = currentStage(ctx);
  if (stage === undefined || stage.startTime === undefined) return;
  const before = stage.groups.map((g) => ({ state: g.state, error: g.error }));
  // Recorded without a sink: a change here would show as a different state, compared below.
  for (const group of stage.groups) refreshGroup(ctx, group, now);
  expect(stage.groups.map((g) => ({ state: g.state, error: g.error }))).toEqual(before);
}

async function runChecked(scenario: Scenario): Promise<void> {
  const start = Date.parse(scenario.start);
  const clock = new VirtualClock(start);
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  const strategy = resolveScenarioStrategy(scenario);
  let engine = UpdateRunEngine.create({ name: "scenario", members: scenario.members, ...(strategy === undefined ? {} : { strategy }), ...updateChoiceOf(scenario) }, fleet);
  engine.start(start);
  const horizon = scenarioHorizon(scenario);
  const actions: RunAction[] = toRunActions(scenario);
  let passes = 0;
  // Halfway through, the run moves to a new engine resumed from a snapshot: its indexes are rebuilt.
  const resumeAt = start + (horizon - start) / 2;
  let resumed = false;
  const watched = {
    start: (now: number) => engine.start(now),
    stop: (now: number) => engine.stop(now),
    skip: (targets: Parameters<UpdateRunEngine["skip"]>[0], now: number) => engine.skip(targets, now),
    approve: (ids: readonly string[], now: number) => engine.approve(ids, now),
    reconcile: async (now: number) => {
      if (!resumed && now >= resumeAt) {
        resumed = true;
        engine = UpdateRunEngine.resume(engine.snapshot(), fleet);
        expectIndexesMatch(contextOf(engine));
      }
      const result = await engine.reconcile(now);
      passes++;
      expectIndexesMatch(contextOf(engine));
      expectCurrentStageSettled(contextOf(engine), now);
      return result;
    },
    get settled() {
      return engine.settled;
    },
    get busy() {
      return engine.busy;
    },
  } as unknown as UpdateRunEngine;
  await drive(watched, clock, { until: horizon, actions, onActionRefused: () => {} });
  expect(passes).toBeGreaterThan(0);
}

describe("the engine's counts and queues equal a full recount after every pass", () => {
  it("random scenarios (windows, busy clusters, late versions, skips, stops)", async () => {
    await fc.assert(fc.asyncProperty(scenarioArb, runChecked), { numRuns: NUM_RUNS });
  });
  it("random scenarios with gates and approvals", async () => {
    await fc.assert(fc.asyncProperty(controlledScenarioArb, runChecked), { numRuns: NUM_RUNS });
  });
  it("random scenarios with failures, tolerance and health checks", async () => {
    await fc.assert(fc.asyncProperty(failingScenarioArb, runChecked), { numRuns: NUM_RUNS });
  });
});
