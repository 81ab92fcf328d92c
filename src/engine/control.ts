/**
 * User control of a run: start (docs/rules.md §3.8), stop (docs/rules.md §3.8), skip (docs/rules.md §3.9). Each applies at an
 * instant and takes effect on the next reconcile pass; none waits for anything.
 */
import type { SkipTarget } from "../model/skip";
import type { EngineContext, MemberPlace } from "./context";
import { HEALTH_CHECK_FAILED } from "./healthCheck";
import { ANALYSIS_FAILED, analysisId } from "./analysisSteps";
import { hasFailed, type AnalysisRunState } from "./analysis";
import { startHalt } from "./halt";
import { approveGates, skipGates } from "./gates";
import { settleRun } from "./settle";
import { isFinished, type GroupRunState, type MemberRunState, type StageRunState } from "./runState";

/** A skip that names unknown items or items that are running. Nothing was changed. */
export class SkipRefusedError extends Error {
  constructor(readonly problems: string[]) {
    super(`skip refused, nothing was skipped: ${problems.join("; ")}`);
    this.name = "SkipRefusedError";
  }
}

/**
 * Start, or resume from NotStarted, Stopped or Failed: Completed and Skipped members stay, Failed
 * members are retried, the rest proceed. Starting a run that is stopping cancels the stop. A finished
 * run (Completed, Skipped) is left as it is. A group that completed within its failure tolerance is
 * finished: its tolerated failures stay (retry them with a new run; docs/behaviour.md F4). A member
 * whose upgrade succeeded but whose health check failed is checked again, not upgraded again.
 */
export function startRun(ctx: EngineContext, now: number): void {
  const run = ctx.run;
  if (run.control === "Running" || run.state === "Completed" || run.state === "Skipped") return;
  run.control = "Running";
  ctx.tally.markAllDirty(run);
  delete run.haltReason;
  // A run that failed because no version qualified generates again (docs/rules.md §18).
  run.updateError = undefined;
  if (run.startTime === undefined) run.startTime = now;
  for (const stage of run.stages) {
    for (const group of stage.groups) {
      ctx.touch(group);
      if (group.state === "Completed") continue;
      for (const member of group.members) {
        if (member.state !== "Failed") continue;
        if ((member.error?.code === HEALTH_CHECK_FAILED || member.error?.code === ANALYSIS_FAILED) && member.request !== undefined) recheckHealth(ctx, { stage, group, member }, now);
        else retry(ctx, member, now);
      }
    }
    if (stage.wait.state === "Stopped") ctx.transitions.transition(stage.wait, "Running", now, "wait", stage.name);
    // Issue 31: a failed pre-check or soak is measured again, from the beginning (docs/rules.md §19).
    if (stage.analysis?.some(hasFailed) === true) stage.analysis = resetFailed(ctx, stage.name, stage.analysis, now);
  }
  settleRun(ctx, now);
}

function retry(ctx: EngineContext, member: MemberRunState, now: number): void {
  const previous = member.error;
  member.operationId = undefined;
  member.request = undefined;
  member.startTime = undefined;
  member.message = `Retrying: the previous attempt failed${previous === undefined ? "" : ` (${previous.code})`}.`;
  ctx.transitions.transition(member, "NotStarted", now, "member", member.name, member.message);
}

/** Its upgrade is done: follow it again into verification (H1), so the cluster is judged as it is now. */
function recheckHealth(ctx: EngineContext, place: MemberPlace, now: number): void {
  const { member } = place;
  member.checkAgainAt = now;
  if (member.analysis !== undefined) resetFailed(ctx, member.name, member.analysis, now);
  member.analysis = undefined;
  member.message = "Checking the cluster's health again (its upgrade itself succeeded).";
  ctx.transitions.transition(member, "Running", now, "member", member.name, member.message);
  ctx.inFlight.add(place);
}

/** The analyses that did not fail; the failed ones are reset (an event each) to be measured again. */
function resetFailed(ctx: EngineContext, owner: string, analyses: AnalysisRunState[], now: number): AnalysisRunState[] {
  for (const a of analyses) if (hasFailed(a)) ctx.transitions.analysisReset(a, analysisId(owner, a), now, "Started again: measuring from the beginning.");
  return analyses.filter((a) => !hasFailed(a));
}

/** Issue 5: approve gates by id (all or nothing; `ApprovalRefusedError` names unknown ids). */
export function approve(ctx: EngineContext, gateIds: readonly string[], now: number): void {
  approveGates(ctx, gateIds, now);
  settleRun(ctx, now);
}

/** No new member starts; in-flight upgrades finish and are recorded; then the run is Stopped. */
export function stopRun(ctx: EngineContext, now: number): void {
  if (ctx.run.control !== "Running") return;
  startHalt(ctx, "stop", now);
  settleRun(ctx, now);
}

/**
 * Skip a batch (docs/rules.md §3.9). All or nothing: unknown names or anything running refuse the batch.
 * Items not started (NotStarted, Pending, or Stopped after a halt) are skipped; finished items are
 * left as they are. Skipping a stage skips its wait. The one running item that may be skipped is an
 * after-stage wait under way: it ends at this instant (Skipped), so the next stage may start now —
 * cutting a soak short is what the wait skip is for.
 */
export function skipItems(ctx: EngineContext, targets: readonly SkipTarget[], now: number): void {
  const problems: string[] = [];
  const actions: Array<() => void> = [];
  for (const target of targets) {
    const found = locate(ctx, target);
    if (found === undefined) {
      problems.push(`no ${target.type} named '${target.name}' in this run`);
      continue;
    }
    if (found.running) {
      problems.push(found.why ?? `${target.type} '${target.name}' is running and cannot be skipped`);
      continue;
    }
    actions.push(found.skip);
  }
  if (problems.length > 0) throw new SkipRefusedError(problems);
  for (const apply of actions) apply();
  settleRun(ctx, now);

  function skipMember(member: MemberRunState, why: string): void {
    if (member.state !== "NotStarted" && member.state !== "Pending") return;
    member.checkAgainAt = undefined;
    member.message = why;
    ctx.transitions.transition(member, "Skipped", now, "member", member.name, why);
  }
  function skipGroup(group: GroupRunState, why: string): void {
    for (const member of group.members) skipMember(member, why);
    skipGates(ctx, group.beforeGates, now, why);
    skipGates(ctx, group.afterGates, now, why);
    ctx.touch(group);
  }
  function skipWait(stage: StageRunState, why: string, evenRunning = false): void {
    const { state } = stage.wait;
    if (stage.afterStageWaitInSeconds > 0 && (state === "NotStarted" || state === "Stopped" || (evenRunning && state === "Running"))) {
      ctx.transitions.transition(stage.wait, "Skipped", now, "wait", stage.name, why);
    }
  }
  function locate(ctx: EngineContext, target: SkipTarget): { running: boolean; why?: string; skip: () => void } | undefined {
    for (const stage of ctx.run.stages) {
      const stageRunning = stage.groups.some((g) => g.members.some((m) => m.state === "Running"));
      if (target.type === "Stage" && stage.name === target.name) {
        if (!stageRunning && stage.wait.state === "Running") {
          return { running: true, why: `Stage '${stage.name}' is running (its after-stage wait is under way) and cannot be skipped; skip its AfterStageWait to end the wait now`, skip: () => {} };
        }
        return {
          running: stageRunning,
          skip: () => {
            for (const group of stage.groups) skipGroup(group, `Skipped by user (stage '${stage.name}').`);
            skipGates(ctx, stage.beforeGates, now, `Skipped by user (stage '${stage.name}').`);
            skipGates(ctx, stage.afterGates, now, `Skipped by user (stage '${stage.name}').`);
            skipWait(stage, "Skipped by user (stage skipped).");
          },
        };
      }
      if (target.type === "AfterStageWait" && stage.name === target.name) {
        // docs/rules.md §3.9: a wait under way is not refused; it ends now.
        return { running: false, skip: () => skipWait(stage, stage.wait.state === "Running" ? "Skipped by user: the wait ends now." : "Skipped by user.", true) };
      }
      for (const group of stage.groups) {
        if (target.type === "Group" && group.name === target.name) {
          return { running: group.members.some((m) => m.state === "Running"), skip: () => skipGroup(group, `Skipped by user (group '${group.name}').`) };
        }
        if (target.type !== "Member") continue;
        const member = group.members.find((m) => m.name === target.name);
        if (member !== undefined) {
          return {
            running: member.state === "Running",
            skip: () => {
              if (!isFinished(member.state)) skipMember(member, "Skipped by user.");
              ctx.touch(group);
            },
          };
        }
      }
    }
    return undefined;
  }
}
