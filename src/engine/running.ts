/**
 * A member whose upgrade is under way: Running under its operation's id, holding its group's and
 * stage's concurrency slots (`inFlight`), followed from `checkAgainAt`. One place for both ways a
 * member gets there: the backend accepted the start (`execute.ts`), or an interrupted start is
 * found to have reached the cluster (`interrupted.ts`). `startTime`: the operation's own start, as the
 * backend recorded it, else the instant it was asked for (docs/rules.md §20).
 */
import type { UpgradeRequest } from "./backend";
import type { EngineContext } from "./context";
import type { MemberPlace } from "./runState";

export function markRunning(ctx: EngineContext, place: MemberPlace, request: UpgradeRequest, operationId: string, startTime: number, checkAgainAt: number, now: number): void {
  const { member } = place;
  ctx.memberChanged(member);
  member.startRequestedAt = undefined;
  member.operationId = operationId;
  member.startTime = startTime;
  member.checkAgainAt = checkAgainAt;
  member.message = ctx.describe.describe(request);
  ctx.inFlight.add(place);
  ctx.clusters.delete(member.name);
  ctx.transitions.transition(member, "Running", now, "member", member.name, member.message, undefined, startTime);
}
