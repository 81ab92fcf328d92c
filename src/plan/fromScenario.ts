/**
 * A scenario file as a plan's world: its fleet with simulated failures left out, its run, started at
 * the scenario's start and looked at up to its horizon. Its user actions are left out: the plan is the
 * run as it goes when nobody acts, which is what `simulate` does with a scenario without actions.
 */
import { resolveScenarioStrategy, scenarioHorizon, type Scenario } from "../simulation/scenario";
import type { Finding } from "./types";
import { hasSimulatedFailure, stoppedClusters, withoutFailures, type PlanWorld } from "./world";
import { updateChoiceOf } from "../model/autoUpgrade";

export function worldFromScenario(scenario: Scenario): PlanWorld {
  const strategy = resolveScenarioStrategy(scenario);
  const fleet = { regions: scenario.regions, members: scenario.members.map(withoutFailures) };
  return {
    fleet,
    start: Date.parse(scenario.start),
    horizon: scenarioHorizon(scenario),
    run: { members: scenario.members, ...(strategy === undefined ? {} : { strategy }), ...(scenario.analysis === undefined ? {} : { analysis: scenario.analysis }), ...updateChoiceOf(scenario) },
    controls: { skip: [], approvals: [] },
    stopped: stoppedClusters(fleet),
    notes: ignoredSettings(scenario),
  };
}

/** Say what the plan did not take into account, so that a difference from `simulate` is explained. */
function ignoredSettings(scenario: Scenario): Finding[] {
  const failing = scenario.members.filter(hasSimulatedFailure).map((m) => m.name);
  const parts: string[] = [];
  if (failing.length > 0) parts.push(`simulated failures of ${failing.join(", ")}`);
  if (scenario.actions.length > 0) parts.push(`${scenario.actions.length} user action${scenario.actions.length === 1 ? "" : "s"}`);
  if (parts.length === 0) return [];
  return [{ severity: "info", code: "PLAN_ASSUMPTION", message: `The plan assumes nothing fails and nobody acts: it leaves out ${parts.join(" and ")}.` }];
}
