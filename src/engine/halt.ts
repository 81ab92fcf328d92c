/**
 * Halting (docs/rules.md §3.7 failure, §3.8 stop): from now on no member starts; upgrades in flight are
 * followed to their end (the run shows Stopping), then the halt ends (`endHalt`) and the run is
 * Stopped or Failed.
 */
import type { EngineContext } from "./context";
import { resetPendingGates } from "./gates";

/** docs/rules.md §3.7/§3.8: no member starts from now on; Pending members go back to NotStarted. */
export function startHalt(ctx: EngineContext, reason: "stop" | "failure", now: number): void {
  const run = ctx.run;
  if (run.control === "Halting") {
    // A stop needs a running run (`stopRun`): what reaches a halt under way is a failure, and the run
    // ends Failed, not Stopped (docs/rules.md §3.7).
    run.haltReason = "failure";
    return;
  }
  run.control = "Halting";
  run.haltReason = reason;
  ctx.tally.markAllDirty(run);
  for (const stage of run.stages) {
    for (const group of stage.groups) {
      for (const member of group.members) {
        if (member.state !== "Pending") continue;
        member.message = undefined;
        member.checkAgainAt = undefined;
        ctx.transitions.transition(member, "NotStarted", now, "member", member.name);
      }
    }
  }
  resetPendingGates(ctx, now);
}


/**
 * A halt whose last in-flight upgrade has ended is over: the run is Halted (it aggregates to Stopped
 * or Failed), and an after-stage wait under way stops (docs/rules.md D1: it starts again only on the
 * next start). Returns whether it ended now; then every item must be aggregated again (`settle.ts`).
 */
export function endHalt(ctx: EngineContext, now: number): boolean {
  const run = ctx.run;
  if (run.control !== "Halting" || ctx.inFlight.size > 0) return false;
  run.control = "Halted";
  ctx.tally.markAllDirty(run);
  for (const stage of run.stages) {
    if (stage.wait.state === "Running") ctx.transitions.transition(stage.wait, "Stopped", now, "wait", stage.name);
  }
  return true;
}
