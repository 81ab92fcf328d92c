/**
 * Applies SPEC §4 aggregation to the tree after a change and records each change as a transition.
 * Also finishes a halt (SPEC §3.7, §3.8): once nothing is in flight, the run is Stopped or Failed.
 */
import type { ErrorDetail } from "../model/status";
import { aggregateChildren, aggregateRun, type HaltPhase } from "./aggregate";
import type { EngineContext } from "./context";
import { isDone, type GroupRunState, type StageRunState } from "./runState";

export function haltPhase(ctx: EngineContext): HaltPhase {
  switch (ctx.run.control) {
    case "Halting":
      return "halting";
    case "Halted":
      return "halted";
    default:
      return "none";
  }
}

/** Whether the stage has an after-stage wait at all (SPEC §3.1). */
export function hasWait(stage: StageRunState): boolean {
  return stage.afterStageWaitInSeconds > 0;
}

export function refreshGroup(ctx: EngineContext, group: GroupRunState, now: number): void {
  const state = aggregateChildren(
    group.members.map((m) => m.state),
    group.startTime !== undefined,
    haltPhase(ctx),
  );
  const error = state === "Failed" ? summarize(group.members.filter((m) => m.state === "Failed").map((m) => ({ name: m.name, error: m.error })), "Member") : undefined;
  ctx.transitions.transition(group, state, now, "group", group.name, undefined, error);
}

export function refreshStage(ctx: EngineContext, stage: StageRunState, now: number): void {
  for (const group of stage.groups) refreshGroup(ctx, group, now);
  const children = stage.groups.map((g) => g.state);
  // The wait counts as a child once it matters: it keeps a stage whose groups are done from completing.
  if (hasWait(stage) && children.every(isDone) && !children.every((c) => c === "Skipped")) children.push(stage.wait.state);
  const halt = haltPhase(ctx);
  if (halt === "halted" && stage.wait.state === "Running") ctx.transitions.transition(stage.wait, "Stopped", now, "wait", stage.name);
  const state = aggregateChildren(children, stage.startTime !== undefined, halt);
  const error = state === "Failed" ? summarize(stage.groups.filter((g) => g.state === "Failed").map((g) => ({ name: g.name, error: g.error })), "Group") : undefined;
  ctx.transitions.transition(stage, state, now, "stage", stage.name, undefined, error);
}

export function refreshRun(ctx: EngineContext, now: number, stages: Iterable<StageRunState> = ctx.run.stages): void {
  for (const stage of stages) refreshStage(ctx, stage, now);
  const run = ctx.run;
  if (run.control === "Halting" && ctx.inFlight.size === 0) {
    run.control = "Halted";
    for (const stage of run.stages) refreshStage(ctx, stage, now);
  }
  const state = aggregateRun(
    run.stages.map((s) => s.state),
    run.startTime !== undefined,
    haltPhase(ctx),
  );
  const error = state === "Failed" ? summarize(run.stages.filter((s) => s.state === "Failed").map((s) => ({ name: s.name, error: s.error })), "Stage") : undefined;
  ctx.transitions.transition(run, state, now, "run", run.name, undefined, error);
}

/** An error naming the failed child (and through it, the member): `Stage 'prod' failed: Group ...`. */
function summarize(failed: Array<{ name: string; error?: ErrorDetail }>, kind: string): ErrorDetail | undefined {
  const first = failed[0];
  if (first === undefined) return undefined;
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : "";
  const inner = first.error === undefined ? "" : `: ${first.error.message}`;
  return { code: first.error?.code ?? "UpdateFailed", message: `${kind} '${first.name}' failed${inner}${more}` };
}
