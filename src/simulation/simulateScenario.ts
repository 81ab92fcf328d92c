/**
 * SPEC §7: run a scenario on a virtual clock — the simulated fleet as the backend, the scenario's
 * actions at their instants — and report the status tree, the clusters as the run left them, and
 * every state change.
 */
import { SimulatedFleet } from "../backends/simulator";
import type { ClusterSnapshot } from "../backends/simulator";
import { VirtualClock } from "../engine/clock";
import { drive, type RunAction } from "../engine/drive";
import { UpdateRunEngine } from "../engine/engine";
import { isoInstant } from "../model/common";
import type { ExcludedMember } from "../model/run";
import { resolveScenarioStrategy, scenarioHorizon, type Scenario, type ScenarioAction } from "../model/scenario";
import type { RunEvent, UpdateRunStatus } from "../model/status";

export interface SimulationResult {
  status: UpdateRunStatus;
  clusters: ClusterSnapshot[];
  events: RunEvent[];
}

export interface SimulationReport {
  result: SimulationResult;
  /** Members left out because their group is in no stage (SPEC §2 warning). */
  excludedMembers: ExcludedMember[];
  /** User actions the engine refused (e.g. skipping a running member), with why. */
  refusedActions: Array<{ at: string; message: string }>;
}

export const SCENARIO_RUN_NAME = "scenario";

export async function simulateScenario(scenario: Scenario): Promise<SimulationReport> {
  const start = Date.parse(scenario.start);
  const clock = new VirtualClock(start);
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  const events: RunEvent[] = [];
  const engine = UpdateRunEngine.create(
    {
      name: SCENARIO_RUN_NAME,
      members: scenario.members,
      strategy: resolveScenarioStrategy(scenario),
      managedClusterUpdate: scenario.managedClusterUpdate,
    },
    fleet,
    { onEvent: (e) => events.push(e) },
  );
  const refusedActions: SimulationReport["refusedActions"] = [];
  engine.start(start);
  await drive(engine, clock, {
    until: scenarioHorizon(scenario),
    actions: toRunActions(scenario),
    onActionRefused: (action, error) => refusedActions.push({ at: isoInstant(action.at), message: error.message }),
  });
  return {
    result: { status: engine.status(), clusters: fleet.snapshot().clusters, events },
    excludedMembers: engine.excludedMembers,
    refusedActions,
  };
}

export function toRunActions(scenario: Scenario): RunAction[] {
  return scenario.actions.map(toRunAction);
}

function toRunAction(action: ScenarioAction): RunAction {
  const at = Date.parse(action.at);
  if (action.skip !== undefined) return { at, skip: action.skip };
  if (action.stop !== undefined) return { at, stop: true };
  return { at, start: true };
}
