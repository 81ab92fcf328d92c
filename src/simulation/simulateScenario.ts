/**
 * docs/rules.md §7: run a scenario on a virtual clock — the simulated fleet as the backend, the scenario's
 * actions at their instants — and report the status tree, the clusters as the run left them, and
 * every state change.
 */
// The fleet's own modules, not the simulator's index: that also brings the fleet-file modules and
// the YAML parser, which a simulation never uses (issue 13: start-up).
import { SimulatedFleet } from "../backends/simulator/simulatedFleet";
import type { ClusterSnapshot } from "../backends/simulator/snapshot";
import type { ClusterBackend } from "../engine/backend";
import { VirtualClock, type Clock } from "../engine/clock";
import type { EngineOptions } from "../engine/context";
import type { PlanInput } from "../engine/plan";
import { drive, type RunAction } from "../engine/drive";
import { UpdateRunEngine } from "../engine/engine";
import { summarize, type RunSummary } from "../engine/summary";
import type { FailedMember } from "../engine/results";
import { isoInstant } from "../model/common";
import type { ExcludedMember } from "../model/run";
import { resolveScenarioStrategy, scenarioHorizon, type Scenario, type ScenarioAction } from "../model/scenario";
import type { RunEvent, UpdateRunStatus } from "../model/status";
import type { ManagedClusterUpdate } from "../model/update";
import { gateIdsFor, type UpdateRunStrategy } from "../model/strategy";
import { updateChoiceOf } from "../model/autoUpgrade";

export interface SimulationResult {
  status: UpdateRunStatus;
  /** Counts per state, times and the outcome a pipeline tests (`summarize(status)`). */
  summary: RunSummary;
  clusters: ClusterSnapshot[];
  events: RunEvent[];
}

export interface SimulationReport {
  result: SimulationResult;
  /** Members left out because their group is in no stage (docs/rules.md §2 warning). */
  excludedMembers: ExcludedMember[];
  /** User actions the engine refused (e.g. skipping a running member), with why. */
  refusedActions: Array<{ at: string; message: string }>;
  /** Members that failed, as a retry run takes them (issue 5). */
  failedMembers: FailedMember[];
  /** One image per family the run applied, as a promotion run takes them (issue 5). */
  appliedNodeImageVersions: Array<{ version: string }>;
  /** With an `autoUpgradeProfile`: the update its channel generated at the run's start (docs/rules.md §18). */
  generatedUpdate?: ManagedClusterUpdate;
}

export const SCENARIO_RUN_NAME = "scenario";

/** `onEvent` receives each state change as the engine emits it (an event journal, a webhook). */
export async function simulateScenario(scenario: Scenario, options: { onEvent?: (event: RunEvent) => void } = {}): Promise<SimulationReport> {
  const clock = new VirtualClock(Date.parse(scenario.start));
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  return runScenario(scenario, { backend: fleet.atOnce, clock, clusters: () => fleet.snapshot().clusters, ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }) });
}

/** Where a scenario's run executes: a backend, the clock it runs on, and how to read its clusters. */
export interface ScenarioTarget {
  backend: ClusterBackend;
  clock: Clock;
  clusters: () => ClusterSnapshot[];
  /** The members as the backend knows them (default: the scenario's). */
  members?: PlanInput["members"];
  engineOptions?: Omit<EngineOptions, "onEvent">;
  /** Also receives each state change as it happens (the report's `events` collects them all). */
  onEvent?: (event: RunEvent) => void;
  /** The run's name in events (default "scenario"). */
  runName?: string;
}

/** Start the scenario's run now, apply its actions at their instants, drive it to its horizon, report. */
export async function runScenario(scenario: Scenario, target: ScenarioTarget): Promise<SimulationReport> {
  const events: RunEvent[] = [];
  const strategy = resolveScenarioStrategy(scenario);
  const engine = UpdateRunEngine.create(
    {
      name: target.runName ?? SCENARIO_RUN_NAME,
      members: target.members ?? scenario.members,
      ...(strategy === undefined ? {} : { strategy }),
      ...(scenario.analysis === undefined ? {} : { analysis: scenario.analysis }),
      ...updateChoiceOf(scenario),
    },
    target.backend,
    {
      ...target.engineOptions,
      onEvent: (e) => {
        events.push(e);
        target.onEvent?.(e);
      },
    },
  );
  const refusedActions: SimulationReport["refusedActions"] = [];
  engine.start(target.clock.now());
  await drive(engine, target.clock, {
    until: scenarioHorizon(scenario),
    actions: toRunActions(scenario),
    onActionRefused: (action, error) => refusedActions.push({ at: isoInstant(action.at), message: error.message }),
  });
  // Rendered once (it walks every member); the results are read from the run, not from a copy of it.
  const status = engine.status();
  return {
    result: { status, summary: summarize(status), clusters: target.clusters(), events },
    excludedMembers: engine.excludedMembers,
    refusedActions,
    ...engine.results(),
  };
}

export function toRunActions(scenario: Scenario): RunAction[] {
  const strategy = resolveScenarioStrategy(scenario);
  return scenario.actions.map((action) => toRunAction(action, strategy));
}

function toRunAction(action: ScenarioAction, strategy: UpdateRunStrategy | undefined): RunAction {
  const at = Date.parse(action.at);
  if (action.skip !== undefined) return { at, skip: action.skip };
  if (action.approve !== undefined) return { at, approve: action.approve.flatMap((a) => gateIdsFor(strategy, a)) };
  if (action.stop !== undefined) return { at, stop: true };
  return { at, start: true };
}
