/**
 * Halting (docs/rules.md §3.7 failure, §3.8 stop): from now on no member starts; upgrades in flight are
 * followed to their end (the run shows Stopping), then the run is Stopped or Failed (`refresh.ts`).
 */
import type { EngineContext } from "./context";
import { resetPendingGates } from "./gates";

/** docs/rules.md §3.7/§3.8: no member starts from now on; Pending members go back to NotStarted. */
export function startHalt(ctx: EngineContext, reason: "stop" | "failure", now: number): void {
  const run = ctx.run;
  if (run.control === "Halting" || run.control === "Halted") {
    if (reason === "failure") run.haltReason = "failure";
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

