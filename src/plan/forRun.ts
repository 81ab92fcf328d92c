/**
 * The plan for an `UpdateRun`: the short summary its Check prints at `pulumi preview` (order of
 * stages with their ETAs, the findings) and the `plan` output computed when the run is created. Only
 * for the simulated fleet, which is local and fast to read; a run on Azure is planned with
 * `fleet-update plan` (reading every cluster at each preview would be slow and cost ARM requests).
 * Runs larger than `PLAN_MEMBER_LIMIT` are not planned, and the summary says so. The plan reads the
 * world through the run's driver, the one the caller already has.
 */
import type { RunState } from "../engine/runState";
import { ValidationError } from "../model/issues";
import type { UpdateRunInputs } from "../spec/runSpec";
import type { RunDriver } from "../drivers/runDriver";
import { buildPlan } from "./buildPlan";
import { worldFromFleetFile } from "./fromFleetFile";
import type { Plan } from "./types";

/** About a second of planning on a 2-core machine: preview stays quick (docs/behaviour.md "Plan"). */
export const PLAN_MEMBER_LIMIT = 2000;
/** Findings listed in the preview summary; the rest are counted. */
const SUMMARY_FINDINGS = 10;

export type RunPlan = { plan: Plan } | { notPlanned: string };

/**
 * The plan of the run the inputs describe, from now (`now`: real epoch ms) on the fleet as its state
 * file has it, or why there is none. `engineState`: the run already exists; the plan continues it.
 */
export async function planRun(driver: RunDriver, inputs: UpdateRunInputs, now: number, engineState?: RunState): Promise<RunPlan> {
  if (!driver.plansLocally) return { notPlanned: "the plan is computed for the simulated fleet only; run `fleet-update plan` for a run on Azure" };
  if (inputs.members.length > PLAN_MEMBER_LIMIT) return { notPlanned: `${inputs.members.length} members is more than the ${PLAN_MEMBER_LIMIT} planned during a preview; run \`fleet-update plan\`` };
  const view = await driver.planView(inputs);
  if (view.reads !== "fleetFile") return { notPlanned: "the plan of this run reads its clusters; run `fleet-update plan`" };
  const world = worldFromFleetFile(view, { now });
  return { plan: await buildPlan(engineState === undefined ? world : { ...world, resumeFrom: engineState }) };
}

/** `[run] plan: …` lines: when the run ends, each stage's ETA in order, then the findings. */
export function planSummaryLines(runName: string, planned: RunPlan): string[] {
  const prefix = `[${runName}] plan:`;
  if ("notPlanned" in planned) return [`${prefix} not computed: ${planned.notPlanned}.`];
  const { plan } = planned;
  const lines = [
    `${prefix} ${plan.members.length} member${plan.members.length === 1 ? "" : "s"} from ${plan.plannedFrom}; ${plan.run.predictedEnd === undefined ? `not finished by ${plan.horizon} (${plan.run.predictedState})` : `${plan.run.predictedState} at ${plan.run.predictedEnd}`}`,
  ];
  for (const stage of plan.stages) {
    const count = plan.members.filter((m) => m.stage === stage.name).length;
    const when = stage.predictedStart === undefined ? "not reached" : `${stage.predictedStart} → ${stage.predictedEnd ?? "…"}`;
    lines.push(`${prefix} stage ${stage.name}: ${when} (${count} member${count === 1 ? "" : "s"}, ${stage.predictedState})`);
  }
  for (const f of plan.findings.slice(0, SUMMARY_FINDINGS)) {
    const subject = f.member ?? f.region ?? f.group;
    lines.push(`${prefix} ${f.severity} ${f.code}${subject === undefined ? "" : ` ${subject}`}: ${f.message}`);
  }
  if (plan.findings.length > SUMMARY_FINDINGS) lines.push(`${prefix} and ${plan.findings.length - SUMMARY_FINDINGS} more findings (\`fleet-update plan\` lists them all).`);
  return lines;
}

/**
 * What Check prints: the summary of the plan of valid inputs on the simulated fleet, to stderr (the
 * Pulumi CLI shows a provider's stderr). Never fails Check: a plan that cannot be made says why in one
 * line.
 */
export async function printPlanSummary(driver: RunDriver, inputs: UpdateRunInputs, write: (text: string) => void = (t) => process.stderr.write(t)): Promise<void> {
  // Only a plan that reads local files: reading every cluster at each preview would be slow and cost ARM requests.
  if (!driver.plansLocally) return;
  let planned: RunPlan;
  try {
    planned = await planRun(driver, inputs, Date.now());
  } catch (e) {
    planned = { notPlanned: e instanceof ValidationError ? e.issues.map((i) => `${i.path}: ${i.message}`).join("; ") : (e as Error).message };
  }
  for (const line of planSummaryLines(inputs.runName, planned)) write(`${line}\n`);
}

/**
 * The `plan` output of a run being created: the plan from the engine's state at the run's start, or
 * undefined when there is none (Azure, a very large run, a fleet that cannot be read: the run itself
 * reports those).
 */
export async function planAtRunStart(driver: RunDriver, inputs: UpdateRunInputs, engineState: RunState): Promise<Plan | undefined> {
  try {
    const planned = await planRun(driver, inputs, Date.now(), engineState);
    return "plan" in planned ? planned.plan : undefined;
  } catch (e) {
    if (e instanceof ValidationError) return undefined;
    throw e;
  }
}
