/**
 * After a change, the tree catches up. What follows from a change is decided here, in this order
 * (the events come out in it):
 * 1. a group whose members were all skipped (or that has none, once it has started) needs no approval: its gates are skipped (G7);
 * 2. the group is aggregated (`refresh.ts`);
 * 3. a stage whose groups were all skipped, whoever skipped them, needs none either (G7); the stage is
 *    aggregated;
 * 4. a halt whose last upgrade has ended is over (`halt.ts` `endHalt`), and every stage is aggregated
 *    again as Stopped;
 * 5. the run is aggregated.
 * `refresh.ts` only aggregates (docs/rules.md §4); gates change in `gates.ts`, the halt in `halt.ts`.
 */
import type { EngineContext } from "./context";
import { skipGates } from "./gates";
import { endHalt } from "./halt";
import { refreshGroup, refreshRun, refreshStage } from "./refresh";
import type { GroupRunState, StageRunState } from "./runState";

export function settleGroup(ctx: EngineContext, group: GroupRunState, now: number): void {
  const members = ctx.tally.memberCounts(group);
  // An empty group (docs/rules.md §2, §16) counts as all skipped once it has started.
  if (members.total > 0 ? members.Skipped === members.total : group.startTime !== undefined) {
    skipGates(ctx, group.beforeGates, now, "Group skipped: no approval needed.");
    skipGates(ctx, group.afterGates, now, "Group skipped: no approval needed.");
  }
  refreshGroup(ctx, group, now);
}

/** Only the groups something touched are settled again (`RunTally.takeDirty`). */
export function settleStage(ctx: EngineContext, stage: StageRunState, now: number): void {
  for (const group of ctx.tally.takeDirty(stage)) settleGroup(ctx, group, now);
  const groups = ctx.tally.groupCounts(stage);
  if (groups.Skipped === groups.total) {
    skipGates(ctx, stage.beforeGates, now, "Stage skipped: no approval needed.");
    skipGates(ctx, stage.afterGates, now, "Stage skipped: no approval needed.");
  }
  refreshStage(ctx, stage, now);
}

export function settleRun(ctx: EngineContext, now: number, stages: Iterable<StageRunState> = ctx.run.stages): void {
  for (const stage of stages) settleStage(ctx, stage, now);
  if (endHalt(ctx, now)) for (const stage of ctx.run.stages) settleStage(ctx, stage, now);
  refreshRun(ctx, now);
}
