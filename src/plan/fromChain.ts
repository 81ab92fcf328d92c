/**
 * Issue 19: `fleet-update plan` of a chained scenario (`runs:`, docs/behaviour.md R4) plans each run
 * of the chain, one after another, as `simulate` runs them: on one simulated fleet (each run starts
 * from the clusters as the run before it is predicted to leave them) and one clock (each run starts
 * when the one before it is predicted to end, or at its own `start` if later). An earlier run's
 * outputs are read from its prediction: `failedMembers` (none, unless a cluster is stopped: the plan
 * assumes nothing fails) and `appliedNodeImageVersions`. A run that cannot be planned is listed with
 * the reason: a reference gives it nothing to take (a retry of no failed members: the runs after it
 * go on as if it took no time), or the run before it does not end by the horizon (and so every run
 * after it).
 */
import type { FleetState } from "../simulation/simulatedWorld";
import { appliedNodeImageVersions, failedMembers } from "../engine/results";
import { ValidationError } from "../model/issues";
import { DEFAULT_HORIZON_DAYS } from "../simulation/scenario";
import { chainRunStrategy, resolveChainUpdate, type ChainScenario, type ChainedMember, type ChainedRun } from "../simulation/chain";
import { buildPlanAndPrediction } from "./buildPlan";
import type { Finding, Plan } from "./types";
import { hasSimulatedFailure, stoppedClusters, withoutFailures } from "./world";

/** One run of the chain: its plan, or why it has none. */
export type ChainedRunPlan = ({ name: string } & Plan) | { name: string; notPlanned: string };

export interface ChainPlan {
  runs: ChainedRunPlan[];
}

interface Outputs {
  failedMembers: Array<{ name: string; group: string }>;
  appliedNodeImageVersions: Array<{ version: string }>;
}

export async function planChain(chain: ChainScenario): Promise<ChainPlan> {
  const fleet = { regions: chain.regions, members: chain.members.map(withoutFailures) };
  const stopped = stoppedClusters(fleet);
  const outputs = new Map<string, Outputs>();
  const runs: ChainedRunPlan[] = [];
  let state: FleetState | undefined;
  let at = Date.parse(chain.start);
  let blocked: string | undefined;
  for (const [index, run] of chain.runs.entries()) {
    if (blocked !== undefined) {
      runs.push({ name: run.name, notPlanned: blocked });
      continue;
    }
    const start = Math.max(at, run.start === undefined ? at : Date.parse(run.start));
    const horizon = chain.until === undefined ? start + DEFAULT_HORIZON_DAYS * 86_400_000 : Date.parse(chain.until);
    const resolved = resolveRun(chain, run, index, outputs);
    if (typeof resolved === "string") {
      // Nothing to run: the next run starts when this one would have, and finds no outputs of it.
      runs.push({ name: run.name, notPlanned: resolved });
      outputs.set(run.name, { failedMembers: [], appliedNodeImageVersions: [] });
      continue;
    }
    const { plan, prediction } = await buildPlanAndPrediction({
      fleet,
      ...(state === undefined ? {} : { restoredState: state }),
      start,
      horizon,
      run: resolved,
      controls: { skip: [], approvals: [] },
      stopped,
      notes: assumptions(chain, run, resolved.members),
    });
    runs.push({ name: run.name, ...plan });
    const engineState = prediction.engineState();
    outputs.set(run.name, { failedMembers: failedMembers(engineState), appliedNodeImageVersions: appliedNodeImageVersions(engineState) });
    state = prediction.fleetStateAtEnd();
    if (plan.run.predictedEnd === undefined) blocked = `it follows run '${run.name}', which is not predicted to end by ${plan.horizon}`;
    else at = Date.parse(plan.run.predictedEnd);
  }
  return { runs };
}

/** The run's members, strategy and update with its references read from earlier predictions, or why it cannot be planned. */
function resolveRun(chain: ChainScenario, run: ChainedRun, index: number, outputs: Map<string, Outputs>) {
  let chosen: ChainedMember[];
  if (run.members === undefined) chosen = chain.members.map((m) => ({ name: m.name, ...(m.group === undefined ? {} : { group: m.group }), ...(m.labels === undefined ? {} : { labels: m.labels }), ...(m.healthCheck === undefined ? {} : { healthCheck: m.healthCheck }) }));
  else if (Array.isArray(run.members)) chosen = run.members;
  else {
    chosen = (outputs.get(run.members.fromRun) as Outputs).failedMembers;
    if (chosen.length === 0) return `runs[${index}].members: run '${run.members.fromRun}' is predicted to leave no failed members to retry (the plan assumes nothing fails)`;
  }
  const strategy = chainRunStrategy(chain, run);
  try {
    const managedClusterUpdate = resolveChainUpdate(index, run.managedClusterUpdate, () => {
      const ref = (run.managedClusterUpdate as { nodeImageSelection: { customNodeImageVersions: { fromRun: string } } }).nodeImageSelection.customNodeImageVersions;
      return (outputs.get(ref.fromRun) as Outputs).appliedNodeImageVersions;
    });
    return { members: chosen, ...(strategy === undefined ? {} : { strategy }), managedClusterUpdate };
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return e.issues.map((i) => `${i.path}: ${i.message}`).join("; ");
  }
}

/** As for a single scenario: say what the plan leaves out, so a difference from `simulate` is explained. */
function assumptions(chain: ChainScenario, run: ChainedRun, members: readonly ChainedMember[]): Finding[] {
  const names = new Set(members.map((m) => m.name));
  const failing = chain.members.filter((m) => names.has(m.name) && hasSimulatedFailure(m)).map((m) => m.name);
  const parts: string[] = [];
  if (failing.length > 0) parts.push(`simulated failures of ${failing.join(", ")}`);
  if (run.actions.length > 0) parts.push(`${run.actions.length} user action${run.actions.length === 1 ? "" : "s"}`);
  if (parts.length === 0) return [];
  return [{ severity: "info", code: "PLAN_ASSUMPTION", message: `The plan assumes nothing fails and nobody acts: it leaves out ${parts.join(" and ")}.` }];
}
