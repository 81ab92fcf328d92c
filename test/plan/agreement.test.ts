/**
 * The plan predicts what `simulate` then does: for a scenario where nothing fails and nobody acts,
 * every member's predicted start, end and state equal the simulation's, to the second, and so do its
 * Pending periods and the reasons they open with. Shared scenarios, the demo, this project's scenarios (quieted), and generated ones.
 */
import fc from "fast-check";
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { scenarioArb } from "../engine/arbitraries";
import {
  DEMO,
  EXAMPLE_SCENARIOS,
  TEST_SCENARIOS,
  isQuiet,
  planScenario,
  plannedPendingIntervals,
  plannedTimings,
  quieted,
  readScenario,
  scenarioFiles,
  simulateScenario,
  simulatedPendingIntervals,
  simulatedTimings,
} from "./support";
import type { Scenario } from "../../src/simulation/scenario";

const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

async function expectAgreement(scenario: Scenario): Promise<void> {
  const plan = await planScenario(scenario);
  const { result } = await simulateScenario(scenario);
  expect(plannedTimings(plan)).toEqual(simulatedTimings(result));
  // The same Pending intervals, each opening with the engine's own reason (later splits are the plan's).
  expect(plannedPendingIntervals(plan)).toEqual(simulatedPendingIntervals(result));
  // A member still Pending at the end: its last period gives the reason the status gives then (a
  // reason changed while Pending, which no event shows, is caught up with).
  const messages = new Map(result.status.stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((m) => [m.name, m.message]))));
  for (const m of plan.members.filter((p) => p.predictedState === "Pending")) expect([m.name, m.pending.at(-1)?.reason]).toEqual([m.name, messages.get(m.name)]);
  expect(plan.run.predictedState).toBe(result.status.status.state);
  expect(plan.run.predictedEnd).toBe(result.status.status.completedTime);
  expect(plan.stages.map((s) => [s.name, s.predictedStart, s.predictedEnd])).toEqual(result.status.stages.map((s) => [s.name, s.status.startTime, s.status.completedTime]));
}

describe("plan and simulate agree", () => {
  it.each(scenarioFiles(EXAMPLE_SCENARIOS).map((f) => [basename(f), f]))("on the example scenario %s, to the second", async (_name, file) => {
    const scenario = readScenario(file);
    expect(isQuiet(scenario)).toBe(true);
    await expectAgreement(scenario);
  });

  it("on the demo rollout (windows, a version arriving late, a member already at target)", async () => {
    await expectAgreement(readScenario(DEMO));
  });

  it.each(scenarioFiles(TEST_SCENARIOS).map((f) => [basename(f), f]))("on %s with its failures and actions taken out", async (_name, file) => {
    await expectAgreement(quieted(readScenario(file)));
  });

  it("on generated scenarios without failures and user actions (property)", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb.map(quieted), async (scenario) => {
        await expectAgreement(scenario);
      }),
      { numRuns: NUM_RUNS },
    );
  }, 300_000);
});
