/**
 * docs/rules.md §7: run a scenario on a virtual clock — the simulated fleet as the backend, the scenario's
 * actions at their instants — and report the status tree, the clusters as the run left them, and
 * every state change.
 *
 * `runScenario` is the one scenario player of the three `simulate` modes: the scenario's run, its
 * actions (`toRunActions`) and its horizon are read here once, and played either by our engine over a
 * backend (in process over the simulated fleet; `--via arm-emulator` over ARM, `viaArmEmulator.ts`) or
 * through a `RunCall` of a driver whose server runs the run (`--via fleet-emulator`, where each action
 * is a change of the call's controls: `viaFleetEmulator.ts`).
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
import { isoInstant } from "../model/instants";
import type { RunCall, RunControls, RunView } from "../drivers/runDriver";
import { refusalOf } from "../drivers/refusal";
import type { ExcludedMember } from "../model/run";
import type { SkipTarget } from "../model/skip";
import { resolveScenarioStrategy, scenarioHorizon, type Scenario, type ScenarioAction } from "./scenario";
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

/** Where a scenario's run executes on our engine: a backend, the clock it runs on, and how to read its clusters. */
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

/**
 * Where a scenario's run executes on a server (Fleet Manager's): a driver's call on the run, opened
 * from `scenarioRun`; the clock the server's run is on, and how to read its clusters.
 */
export interface ServerScenarioTarget {
  call: RunCall;
  clock: Clock;
  clusters: () => ClusterSnapshot[];
  onEvent?: (event: RunEvent) => void;
}

/** What a scenario's run is, whoever executes it: its strategy, its analysis and what it updates to. */
export function scenarioRun(scenario: Scenario): { strategy?: UpdateRunStrategy; analysis?: Scenario["analysis"] } & ReturnType<typeof updateChoiceOf> {
  const strategy = resolveScenarioStrategy(scenario);
  return {
    ...(strategy === undefined ? {} : { strategy }),
    ...(scenario.analysis === undefined ? {} : { analysis: scenario.analysis }),
    ...updateChoiceOf(scenario),
  };
}

/** What playing a scenario hands back, besides the events and the clusters. */
interface Played {
  status: UpdateRunStatus;
  summary: RunSummary;
  excludedMembers: ExcludedMember[];
  results: Pick<SimulationReport, "failedMembers" | "appliedNodeImageVersions" | "generatedUpdate">;
}

/** How a player tells the actions it played. */
interface Play {
  until: number;
  actions: RunAction[];
  onEvent: (event: RunEvent) => void;
  onActionRefused: (action: RunAction, error: Error) => void;
}

/**
 * Start the scenario's run now, apply its actions at their instants, drive it to its horizon, report:
 * on our engine (`ScenarioTarget`) or through a server's run (`ServerScenarioTarget`).
 */
export async function runScenario(scenario: Scenario, target: ScenarioTarget | ServerScenarioTarget): Promise<SimulationReport> {
  const events: RunEvent[] = [];
  const refusedActions: SimulationReport["refusedActions"] = [];
  const play: Play = {
    until: scenarioHorizon(scenario),
    actions: toRunActions(scenario),
    onEvent: (e) => {
      events.push(e);
      target.onEvent?.(e);
    },
    onActionRefused: (action, error) => refusedActions.push({ at: isoInstant(action.at), message: error.message }),
  };
  const played = "call" in target ? await playOnServer(target, play) : await playOnEngine(scenario, target, play);
  return {
    result: { status: played.status, summary: played.summary, clusters: target.clusters(), events },
    excludedMembers: played.excludedMembers,
    refusedActions,
    ...played.results,
  };
}

async function playOnEngine(scenario: Scenario, target: ScenarioTarget, play: Play): Promise<Played> {
  const engine = UpdateRunEngine.create(
    { name: target.runName ?? SCENARIO_RUN_NAME, members: target.members ?? scenario.members, ...scenarioRun(scenario) },
    target.backend,
    { ...target.engineOptions, onEvent: play.onEvent },
  );
  engine.start(target.clock.now());
  await drive(engine, target.clock, { until: play.until, actions: play.actions, onActionRefused: play.onActionRefused });
  // Rendered once (it walks every member); the results are read from the run, not from a copy of it.
  const status = engine.status();
  return { status, summary: summarize(status), excludedMembers: engine.excludedMembers, results: engine.results() };
}

/**
 * The actions as changes of the call's controls, each at its instant on the server's clock, the call
 * driven again after each (a driven call goes on from what it sent and saw), following the run between.
 */
async function playOnServer(target: ServerScenarioTarget, play: Play): Promise<Played> {
  const { call, clock } = target;
  const pending = [...play.actions].sort((a, b) => a.at - b.at);
  const controls: RunControls = { state: "Running", skip: [], approvals: [], timeoutMinutes: 1 };
  let report: RunView | undefined;
  for (;;) {
    const now = clock.now();
    // The actions due: skips at the run's start come before its first step (on our engine they apply
    // before it looks at that instant), so the server takes them on the run not started yet.
    const sentSkips: Array<{ action: RunAction; targets: SkipTarget[] }> = [];
    while (pending.length > 0 && (pending[0] as RunAction).at <= now) {
      const action = pending.shift() as RunAction;
      if ("approve" in action) controls.approvals.push(...action.approve);
      else if ("skip" in action) {
        controls.skip.push(...action.skip);
        sentSkips.push({ action, targets: action.skip });
      } else controls.state = "stop" in action ? "Stopped" : "Running";
    }
    if (now >= play.until) break;
    const next = Math.min(pending[0]?.at ?? Infinity, play.until);
    let driven;
    try {
      driven = await call.drive({ ...controls, timeoutMinutes: Math.max(next - now, 1) / 60_000 }, { onEvent: play.onEvent });
    } catch (e) {
      // The server refused the new skips: refused at their actions and dropped, as on our engine a
      // refused action changes nothing; the run goes on.
      if (refusalOf(e) === undefined || sentSkips.length === 0) throw e;
      for (const sent of sentSkips) play.onActionRefused(sent.action, e as Error);
      const refused = new Set(sentSkips.flatMap((sent) => sent.targets.map((t) => `${t.type}/${t.name}`)));
      controls.skip = controls.skip.filter((t) => !refused.has(`${t.type}/${t.name}`));
      continue;
    }
    report = driven;
    if (driven.end === "deadline") continue;
    // Settled, where it was asked to be, or waiting at a gate with nothing in flight: idle until the next action.
    if (pending[0] === undefined) break;
    await clock.sleepUntil(Math.min(pending[0].at, play.until));
  }
  if (report === undefined) throw new Error(`the scenario's horizon is at its start: update run '${SCENARIO_RUN_NAME}' was never driven`);
  const { status, summary, excludedMembers, failedMembers, appliedNodeImageVersions, generatedUpdate } = report;
  return { status, summary, excludedMembers, results: { failedMembers, appliedNodeImageVersions, ...(generatedUpdate === undefined ? {} : { generatedUpdate }) } };
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
