/**
 * Applies docs/rules.md §4 aggregation to a group, a stage or the run after a change, and records each
 * change as a transition. Only aggregation: what else follows from a change (a skipped item's gates,
 * the end of a halt) is `settle.ts`, which calls these in order.
 */
import type { ErrorDetail, UpdateState } from "../model/status";
import { aggregateCounts, aggregateRun, type HaltPhase } from "./aggregate";
import type { EngineContext } from "./context";
import type { GateRunState, GroupRunState, StageRunState, Timed } from "./runState";
import { endOf, groupEnds, runEnds, stageEnds } from "./times";
import { ENDED_STATES } from "./transitions";
import type { StateCounts } from "./tally";
import { groupExceedsWith, stageFailureCount, stageOwnLimitExceededWith } from "./tolerance";
import { stageAnalysisError } from "./analysisSteps";

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

/** Whether the stage has an after-stage wait at all (docs/rules.md §3.1). */
export function hasWait(stage: StageRunState): boolean {
  return stage.afterStageWaitInSeconds > 0;
}

/**
 * Gates that still matter to their item's state: a passed (Completed) gate changes nothing, an
 * unapproved one holds its item (Pending), a skipped one counts as skipped.
 */
function addGateStates(counts: StateCounts, gates: GateRunState[] | undefined): void {
  for (const g of gates ?? []) {
    if (g.state === "Completed") continue;
    counts[g.state]++;
    counts.total++;
  }
}

/**
 * A group over its members and gates (docs/rules.md §4, issue 5): failures within `maxAllowedFailures` count
 * as finished members; one more than that fails the group. From the group's counts by state, kept
 * as members change (`RunTally`): this runs after every change in the group (the engine's hot path).
 */
export function refreshGroup(ctx: EngineContext, group: GroupRunState, now: number): void {
  const members = ctx.tally.memberCounts(group);
  const failed = members.Failed;
  // Within tolerance (issue 5) a failed member counts as finished; one more fails the group.
  const children = { ...members };
  if (failed > 0 && !groupExceedsWith(group, failed)) {
    children.Completed += failed;
    children.Failed = 0;
  }
  // An empty group (no member belongs to it, or its label selector matched nobody: docs/rules.md §2,
  // §16) ends Skipped when it starts, as one whose members were all skipped; NotStarted until then,
  // as Fleet shows it.
  if (members.total === 0 && group.startTime !== undefined) {
    children.Skipped++;
    children.total++;
  }
  // An after-gate not reached yet is NotStarted, which changes nothing while members still work
  // (a gate is only ever NotStarted, Pending, Completed or Skipped: gates.ts).
  addGateStates(children, group.beforeGates);
  addGateStates(children, group.afterGates);
  const state = aggregateCounts(children, group.startTime !== undefined, haltPhase(ctx));
  const error = state === "Failed" ? summarize(group.members.filter((m) => m.state === "Failed").map((m) => ({ name: m.name, error: m.error })), "Member") : undefined;
  ctx.transitions.transition(group, state, now, "group", group.name, undefined, error, endsNow(group, state) ? endOf(group, state, groupEnds(group), now) : undefined);
}

/** A stage over its groups (as aggregated), wait and gates. */
export function refreshStage(ctx: EngineContext, stage: StageRunState, now: number): void {
  const groups = ctx.tally.groupCounts(stage);
  const children = { ...groups };
  const groupsDone = groups.Completed + groups.Skipped === groups.total && groups.Skipped !== groups.total;
  // The wait counts once it matters: it keeps a stage whose groups are done from completing (before
  // then a wait Stopped by an earlier halt would make a stage of Pending groups look Running).
  if (hasWait(stage) && groupsDone) {
    children[stage.wait.state]++;
    children.total++;
  }
  addGateStates(children, stage.afterGates);
  addGateStates(children, stage.beforeGates);
  // A stage's own tolerance (issue 5) can fail it even when each group is within its own.
  // A group past its tolerance is a Failed child already; the stage's own limit is summed only if set.
  if (stageOwnLimitExceededWith(stage, ctx.tally.stageFailures(stage))) {
    children.Failed++;
    children.total++;
  }
  // Issue 31: a failed pre-check or soak analysis is a Failed child of its stage, a running one a
  // Running child: a soak that outlasts the wait holds the stage (docs/rules.md §19).
  const analysisError = stageAnalysisError(ctx, stage);
  if (analysisError !== undefined) {
    children.Failed++;
    children.total++;
  } else if (stage.analysis?.some((a) => a.phase === "Running") === true) {
    children.Running++;
    children.total++;
  }
  const state = aggregateCounts(children, stage.startTime !== undefined, haltPhase(ctx));
  const error =
    state === "Failed" ? (summarize(stage.groups.filter((g) => g.state === "Failed").map((g) => ({ name: g.name, error: g.error })), "Group") ?? analysisError ?? toleranceError(stage)) : undefined;
  ctx.transitions.transition(stage, state, now, "stage", stage.name, undefined, error, endsNow(stage, state) ? endOf(stage, state, stageEnds(stage), now) : undefined);
}

/** The run over its stages (as aggregated). */
export function refreshRun(ctx: EngineContext, now: number): void {
  const run = ctx.run;
  // A run whose update could not be generated failed at its start, with no stage failed (§18). It is
  // Halted by then: nothing was in flight, and no item is aggregated between the halt and its end.
  const generationFailed = run.updateError !== undefined;
  const state = generationFailed ? "Failed" : aggregateRun(
    run.stages.map((s) => s.state),
    run.startTime !== undefined,
    haltPhase(ctx),
  );
  const error = generationFailed ? run.updateError : state === "Failed" ? summarize(run.stages.filter((s) => s.state === "Failed").map((s) => ({ name: s.name, error: s.error })), "Stage") : undefined;
  ctx.transitions.transition(run, state, now, "run", run.name, undefined, error, endsNow(run, state) ? endOf(run, state, runEnds(run), now) : undefined);
}

/** The item moves into an ended state: its end is checked against its parts' (docs/rules.md §20), once. */
function endsNow(item: Timed, state: UpdateState): boolean {
  return state !== item.state && ENDED_STATES.has(state);
}

/** A stage failed by its own `maxAllowedFailures` while each group stayed within its own. */
function toleranceError(stage: StageRunState): ErrorDetail {
  const failed = stageFailureCount(stage);
  return {
    code: "TooManyFailures",
    message: `${failed} member${failed === 1 ? "" : "s"} failed, more than the ${stage.maxAllowedFailures ?? 0} stage '${stage.name}' tolerates`,
  };
}

/** An error naming the failed child (and through it, the member): `Stage 'prod' failed: Group ...`. */
function summarize(failed: Array<{ name: string; error?: ErrorDetail }>, kind: string): ErrorDetail | undefined {
  const first = failed[0];
  if (first === undefined) return undefined;
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : "";
  const inner = first.error === undefined ? "" : `: ${first.error.message}`;
  return { code: first.error?.code ?? "UpdateFailed", message: `${kind} '${first.name}' failed${inner}${more}` };
}
