/**
 * Issue 5: chained runs on one simulated fleet and one virtual clock. Each run starts when the one
 * before it has settled (or at its own `start`, if later), with references to earlier runs' outputs
 * resolved at that moment; each is executed by the same runner as a single scenario.
 */
import { SimulatedFleet } from "../backends/simulator/simulatedFleet";
import type { ClusterSnapshot } from "../backends/simulator/snapshot";
import { VirtualClock } from "../engine/clock";
import type { RunSummary } from "../engine/summary";
import type { FailedMember } from "../engine/results";
import { ValidationError } from "../model/issues";
import { isoInstant } from "../model/instants";
import { DEFAULT_HORIZON_DAYS, type Scenario } from "./scenario";
import { chainRunStrategy, resolveChainUpdate, type ChainScenario, type ChainedMember, type ChainedRun } from "./chain";
import { crossValidateRun } from "../model/run";
import type { SimulatedCluster } from "../model/fleet";
import type { RunEvent, UpdateRunStatus } from "../model/status";
import { runScenario, type SimulationReport } from "./simulateScenario";

export interface ChainedRunResult {
  name: string;
  status: UpdateRunStatus;
  summary: RunSummary;
  failedMembers: FailedMember[];
  appliedNodeImageVersions: Array<{ version: string }>;
  events: RunEvent[];
}

export interface ChainReport {
  result: { runs: ChainedRunResult[]; clusters: ClusterSnapshot[] };
  /** Per run: members left out, and actions refused. */
  warnings: string[];
}

export async function simulateChain(chain: ChainScenario, options: { onEvent?: (event: RunEvent) => void } = {}): Promise<ChainReport> {
  const clock = new VirtualClock(Date.parse(chain.start));
  const fleet = new SimulatedFleet({ regions: chain.regions, members: chain.members }, clock);
  const done = new Map<string, SimulationReport>();
  const runs: ChainedRunResult[] = [];
  const warnings: string[] = [];
  for (const [index, run] of chain.runs.entries()) {
    const startAt = Math.max(clock.now(), run.start === undefined ? 0 : Date.parse(run.start));
    await clock.sleepUntil(startAt);
    const members = runMembers(chain, run, index, done);
    const strategy = chainRunStrategy(chain, run);
    const managedClusterUpdate = resolveChainUpdate(index, run.managedClusterUpdate, () => {
      const ref = (run.managedClusterUpdate as { nodeImageSelection: { customNodeImageVersions: { fromRun: string } } }).nodeImageSelection.customNodeImageVersions;
      return (done.get(ref.fromRun) as SimulationReport).appliedNodeImageVersions;
    });
    const scenario: Scenario = {
      start: isoInstant(startAt),
      until: chain.until ?? isoInstant(startAt + DEFAULT_HORIZON_DAYS * 86_400_000),
      regions: chain.regions,
      members,
      ...(strategy === undefined ? {} : { strategy }),
      managedClusterUpdate,
      actions: run.actions,
    };
    const report = await runScenario(scenario, {
      backend: fleet.atOnce,
      clock,
      clusters: () => fleet.snapshot().clusters,
      runName: run.name,
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
    done.set(run.name, report);
    for (const m of report.excludedMembers) warnings.push(`run '${run.name}': member '${m.name}' is left out of the run: ${m.reason}`);
    for (const a of report.refusedActions) warnings.push(`run '${run.name}': action at ${a.at} refused: ${a.message}`);
    runs.push({
      name: run.name,
      status: report.result.status,
      summary: report.result.summary,
      failedMembers: report.failedMembers,
      appliedNodeImageVersions: report.appliedNodeImageVersions,
      events: report.result.events,
    });
  }
  return { result: { runs, clusters: fleet.snapshot().clusters }, warnings };
}

/** The run's members as fleet clusters, each in the group this run gives it. */
function runMembers(chain: ChainScenario, run: ChainedRun, index: number, done: Map<string, SimulationReport>): SimulatedCluster[] {
  const byName = new Map(chain.members.map((m) => [m.name, m]));
  let chosen: ChainedMember[];
  if (run.members === undefined) chosen = chain.members.map((m) => ({ name: m.name, ...(m.group === undefined ? {} : { group: m.group }), ...(m.labels === undefined ? {} : { labels: m.labels }), ...(m.healthCheck === undefined ? {} : { healthCheck: m.healthCheck }) }));
  else if (Array.isArray(run.members)) chosen = run.members;
  else chosen = (done.get(run.members.fromRun) as SimulationReport).failedMembers.map((m) => ({ name: m.name, group: m.group }));
  // A retry's groups come from the earlier run: they must still fit this run's strategy.
  const strategy = chainRunStrategy(chain, run);
  const { issues } = crossValidateRun({ members: chosen, ...(strategy === undefined ? {} : { strategy }) });
  if (issues.length > 0) throw new ValidationError(issues.map((issue) => ({ ...issue, path: `runs[${index}].${issue.path}` })));
  return chosen.map((m) => {
    const cluster = byName.get(m.name) as SimulatedCluster;
    const { group: _fleetGroup, healthCheck: _fleetCheck, ...rest } = cluster;
    return { ...rest, ...(m.group === undefined ? {} : { group: m.group }), ...(m.healthCheck === undefined ? {} : { healthCheck: m.healthCheck }) };
  });
}
