/**
 * Adopting an interrupted start (docs/behaviour.md, "Adopting an interrupted start"). Before the
 * engine asks a backend to start an upgrade it records the intent (`startRequestedAt`, `request`) and
 * persists the state (`EngineOptions.checkpoint`). A process that dies before it records the answer
 * leaves that intent behind, and the upgrade may be running on the cluster. The next pass (of a
 * resumed engine, or of this one after the backend call threw) asks the backend whether the request
 * reached the cluster, before anything else happens in the pass:
 *
 * - it did: the member is Running under that operation's id, from the operation's start as the backend
 *   recorded it (else the instant it was asked for). It holds its concurrency slot and is followed to
 *   its end like any other upgrade, in this same pass;
 * - it did not: the intent is dropped and the member is a candidate as before.
 *
 * So an upgrade running on a cluster always counts against its group's and stage's limits, a cluster
 * is never asked for the same upgrade twice, and a Completed member always carries its operation id.
 */
import { isPending, type StartedOperation, type UpgradeRequest } from "./backend";
import { markRunning } from "./running";
import type { EngineContext, MemberPlace } from "./context";

export async function adoptInterruptedStarts(ctx: EngineContext, now: number): Promise<void> {
  for (const place of [...ctx.interrupted]) {
    const { member } = place;
    const since = member.startRequestedAt;
    const request = member.request;
    if (since === undefined || request === undefined) {
      // A journal from before the request was recorded with the intent: nothing to ask about.
      release(ctx, place);
      continue;
    }
    const answer = ctx.backend.findStartedUpgrade(ctx.ref(member), request, since);
    const found = isPending(answer) ? await answer : answer;
    if (found === undefined) release(ctx, place);
    else adopt(ctx, place, request, found, since, now);
  }
}

function release(ctx: EngineContext, place: MemberPlace): void {
  ctx.interrupted.delete(place);
  ctx.memberChanged(place.member);
  place.member.startRequestedAt = undefined;
  place.member.request = undefined;
  ctx.touch(place.group);
}

function adopt(ctx: EngineContext, place: MemberPlace, request: UpgradeRequest, op: StartedOperation, since: number, now: number): void {
  ctx.interrupted.delete(place);
  ctx.memberChanged(place.member);
  ctx.touch(place.group);
  // Followed in this pass (`followUpgrades` comes next): an upgrade that ended meanwhile ends now.
  // Its start: the backend's record of it, else the intent's instant (docs/rules.md §20).
  markRunning(ctx, place, request, op.operationId, op.startedAt ?? since, now, now);
}
