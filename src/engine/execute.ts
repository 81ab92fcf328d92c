/**
 * Execution (docs/rules.md §3): follow in-flight upgrades, then walk the stages in order, starting members in
 * each group of the current stage, and timing the after-stage waits. One call is one reconcile pass
 * at one instant; it returns when the engine next needs to look.
 */
import { BackendError, OPERATION_NOT_ALLOWED, isClusterGone, isPending, type Answer, type ClusterInfo, type RegionOffer, type StartedOperation, type UpgradeRequest } from "./backend";
import { decideStart, type StartDecision } from "./checks";
import type { EngineContext, MemberPlace } from "./context";
import { selectRunImages } from "./imageSelection";
import { generateRunUpdate } from "./autoUpgrade";
import { relevantWindow } from "./priority";
import { hasWait } from "./refresh";
import { settleGroup, settleRun, settleStage } from "./settle";
import { startHalt } from "./halt";
import { nextGateOpening, reachGates } from "./gates";
import { adoptInterruptedStarts } from "./interrupted";
import { markRunning } from "./running";
import { verifyStep } from "./healthCheck";
import { passStageAnalyses } from "./analysisSteps";
import { nextMeasurement } from "./analysis";
import { groupExceedsWith, stageExceedsWith } from "./tolerance";
import { groupStart, latestEnd, stageStart } from "./times";
import { isoInstant as iso } from "../model/instants";
import { isDone, isFinished, runUpdate, type GroupRunState, type MemberRunState, type StageRunState } from "./runState";
import type { GroupQueue, Rank } from "./readyQueue";
import type { UpgradeType } from "../model/update";

export interface ReconcileResult {
  /** When the engine next has something to do; undefined = nothing until a user action. */
  nextWakeAt?: number;
}

/** `observe`: follow in-flight upgrades and recompute states, but start nothing (`pulumi refresh`). */
export async function reconcile(ctx: EngineContext, now: number, mode: "act" | "observe" = "act"): Promise<ReconcileResult> {
  ctx.offers.clear();
  if (ctx.interrupted.size > 0) await adoptInterruptedStarts(ctx, now);
  await followUpgrades(ctx, now);
  // docs/rules.md §3.6: picks are made as of the run's start, even if it was stopped at that very instant.
  const startTime = ctx.run.startTime;
  // docs/rules.md §18: a run given a channel gets its update at its start (once it is running).
  if (ctx.run.managedClusterUpdate === undefined && ctx.run.control === "Running" && mode === "act") await generateRunUpdate(ctx, now);
  if (startTime !== undefined && ctx.run.managedClusterUpdate !== undefined && ctx.run.selectedNodeImageVersions === undefined) await selectRunImages(ctx, startTime);
  if (mode === "act") await advanceStages(ctx, now);
  const current = currentStage(ctx);
  settleRun(ctx, now, current === undefined ? [] : [current]);
  // The pass's changes are persisted before its events go out (docs/behaviour.md, "Crashes").
  ctx.options.checkpoint?.();
  ctx.transitions.flush();
  return { ...wakeAt(ctx, now) };
}

/** docs/rules.md §3.5, §3.7: a started upgrade is followed to its end; a failure halts the run. */
async function followUpgrades(ctx: EngineContext, now: number): Promise<void> {
  const due = ctx.inFlight.due(now);
  try {
    for (const place of due) await followUpgrade(ctx, place, now);
  } finally {
    // Queued again under their new `checkAgainAt` (or the old one, if a backend call threw).
    for (const place of due) ctx.inFlight.reschedule(place);
  }
}

/** One in-flight member whose `checkAgainAt` has come. */
async function followUpgrade(ctx: EngineContext, place: MemberPlace, now: number): Promise<void> {
  const { member } = place;
  ctx.memberChanged(member);
  // When the operation ended, as the backend recorded it (set when this call saw it end).
  let endedAt: number | undefined;
  if (member.analysis === undefined) {
    let op;
    try {
      const answer = ctx.backend.getOperation(ctx.ref(member), member.operationId as string, member.request);
      op = isPending(answer) ? await answer : answer;
    } catch (e) {
      if (!isClusterGone(e)) throw e;
      // Deleted while it was being upgraded: nothing left to follow.
      endFollowing(ctx, place);
      failMember(ctx, place, { code: e.code, message: e.message }, now);
      return;
    }
    if (op.status === "InProgress") {
      member.checkAgainAt = op.checkAgainAt !== undefined && op.checkAgainAt > now ? op.checkAgainAt : now + ctx.pollInterval();
      return;
    }
    // docs/rules.md §20: the member's times are its operation's, where the backend keeps a record of it.
    if (op.startedAt !== undefined) member.startTime = op.startedAt;
    endedAt = op.endedAt;
    if (op.status === "Failed") {
      endFollowing(ctx, place);
      failMember(ctx, place, op.error ?? { code: "UpgradeFailed", message: "the upgrade failed" }, now, undefined, endedAt);
      return;
    }
  }
  // Issue 5: the upgrade succeeded; verify the member's health before it counts as Completed.
  const verdict = await verifyStep(ctx, place, now);
  if (verdict.kind === "later") {
    member.checkAgainAt = verdict.at;
    member.message = verdict.message;
    return;
  }
  endFollowing(ctx, place);
  if (verdict.kind === "unhealthy") {
    failMember(ctx, place, { code: verdict.code, message: verdict.message }, now, verdict.message);
  } else {
    member.message = undefined;
    // Healthy at once (no probe): Completed when its operation ended; after probes, when they passed.
    ctx.transitions.transition(member, "Completed", now, "member", member.name, undefined, undefined, endedAt);
  }
}

/** The member's upgrade (and its verification) is over: stop following it. */
function endFollowing(ctx: EngineContext, place: MemberPlace): void {
  const { member, group } = place;
  ctx.inFlight.delete(place);
  member.checkAgainAt = undefined;
  ctx.clusters.delete(member.name);
  ctx.touch(group);
}

/**
 * docs/rules.md §3.7 with issue 5's tolerance: the member fails; the run halts only when its group or stage now
 * has more failures than it tolerates (by default none).
 */
function failMember(ctx: EngineContext, place: MemberPlace, error: { code: string; message: string }, now: number, message?: string, endedAt?: number): void {
  const { member, group, stage } = place;
  member.message = message ?? `Upgrade failed: ${error.message} (${error.code})`;
  ctx.transitions.transition(member, "Failed", now, "member", member.name, member.message, { ...error }, endedAt);
  ctx.touch(group);
  const failures = (g: GroupRunState) => ctx.tally.memberCounts(g).Failed;
  if (groupExceedsWith(group, failures(group)) || stageExceedsWith(stage, failures, ctx.tally.stageFailures(stage))) startHalt(ctx, "failure", now);
}

/** The stage being worked on: the first one not Completed or Skipped (none once every stage is). */
export function currentStage(ctx: EngineContext): StageRunState | undefined {
  return ctx.run.stages.find((s) => !isDone(s.state));
}

/** docs/rules.md §3.1: stages one after another, each waiting its after-stage wait before the next starts. */
async function advanceStages(ctx: EngineContext, now: number): Promise<void> {
  for (;;) {
    if (ctx.run.control !== "Running") return;
    const stage = currentStage(ctx);
    if (stage === undefined) return;
    // A start after a failure that could not reopen the stage (its failures are in groups that
    // completed within their tolerance, F4, but past the stage's own limit): it fails again at once,
    // before any of its gates is reached.
    if (stage.state === "Failed") {
      startHalt(ctx, "failure", now);
      settleStage(ctx, stage, now);
      return;
    }
    if (stage.startTime === undefined) startStage(ctx, stage, now);
    // Issue 5: a stage's before-gates hold every one of its groups, which start once they pass.
    if (!reachGates(ctx, stage.beforeGates, now)) {
      settleStage(ctx, stage, now);
      return;
    }
    // Issue 31: the stage's pre-checks, over the members about to be upgraded, before any starts.
    const checked = passStageAnalyses(ctx, stage, "preCheck", now);
    if (!(isPending(checked) ? await checked : checked)) {
      settleStage(ctx, stage, now);
      return;
    }
    startGroups(ctx, stage, now);
    await fillStage(ctx, stage, now);
    if (ctx.run.control !== "Running") return;
    for (const group of stage.groups) passGroupEnd(ctx, group, now);
    if (!stage.groups.every((g) => isDone(g.state))) return;
    // The stage's after-gates, its wait and its soak run side by side; the stage is done when all are
    // (`refreshStage` counts each). A stage whose groups were all skipped has its gates skipped by
    // `settleStage` (G7), never reached.
    if (!stage.groups.every((g) => g.state === "Skipped")) reachGates(ctx, stage.afterGates, now);
    passWait(ctx, stage, now);
    // Issue 31: the soak analyses run through the wait (from its start), over the members upgraded
    // (none in a stage whose groups were all skipped: then nothing starts).
    const soaked = passStageAnalyses(ctx, stage, "soak", now, stage.wait.endsAt ?? now);
    if (isPending(soaked)) await soaked;
    settleStage(ctx, stage, now);
    if (!isDone(stage.state)) return;
  }
}

/** A group whose members have all finished reaches its after-gates; it is done once they pass. */
function passGroupEnd(ctx: EngineContext, group: GroupRunState, now: number): void {
  if (isFinished(group.state) || group.afterGates === undefined) return;
  const members = ctx.tally.memberCounts(group);
  if (members.Completed + members.Skipped + members.Failed !== members.total || groupExceedsWith(group, members.Failed)) return;
  // A group whose members were all skipped has its gates skipped by `settleGroup` (G7).
  if (members.Skipped !== members.total) reachGates(ctx, group.afterGates, now);
  settleGroup(ctx, group, now);
}

/**
 * The run reaches the stage. Its groups start once its before-gates pass (`startGroups`): until then
 * they are NotStarted, as Fleet shows them. A stage whose groups are all empty (no member belongs to
 * any, docs/rules.md §2) has nothing to hold: its groups start now, end Skipped, and so does the
 * stage, its gates skipped (G7) and with no wait (§3.1). docs/rules.md §20: the stage starts now,
 * never before the stage before it ended, nor after a member already running in it (adopted).
 */
function startStage(ctx: EngineContext, stage: StageRunState, now: number): void {
  stage.startTime = stageStart(stage, ctx.run.stages[ctx.run.stages.indexOf(stage) - 1], now);
  if (stage.groups.every((g) => g.members.length === 0)) startGroups(ctx, stage, now);
  settleStage(ctx, stage, now);
}

/** The stage's groups start (an empty one ends Skipped then, docs/rules.md §4); §20: not after a member already running in it. */
function startGroups(ctx: EngineContext, stage: StageRunState, now: number): void {
  for (const group of stage.groups) {
    if (isFinished(group.state) || group.startTime !== undefined) continue;
    group.startTime = groupStart(group, stage, now);
    ctx.touch(group);
  }
}

/**
 * The wait starts when the stage's last group ends (docs/rules.md §3.1), as its parts recorded it (§20:
 * the end of its last upgrade, not the instant this pass saw it), and ends its length later. A stage
 * whose groups were all skipped has no wait.
 */
function passWait(ctx: EngineContext, stage: StageRunState, now: number): void {
  const wait = stage.wait;
  if (!hasWait(stage)) return;
  if (stage.groups.every((g) => g.state === "Skipped")) {
    ctx.transitions.transition(wait, "Skipped", now, "wait", stage.name, "Stage skipped: no wait.");
    return;
  }
  if (isDone(wait.state)) return;
  if (wait.endsAt === undefined) {
    wait.startTime = latestEnd(stage.groups) ?? now;
    wait.endsAt = wait.startTime + stage.afterStageWaitInSeconds * 1000;
  }
  if (now >= wait.endsAt) ctx.transitions.transition(wait, "Completed", now, "wait", stage.name);
  else ctx.transitions.transition(wait, "Running", now, "wait", stage.name, `Waiting until ${iso(wait.endsAt)}.`);
}

/**
 * docs/rules.md §3.2, §3.3, §6: groups in parallel, each up to its `maxConcurrency`, the stage's cap shared
 * among them. Slots are handed out one at a time to the group with the fewest running members, so a
 * capped stage is shared fairly; a group that has nothing to start now drops out of this pass.
 */
async function fillStage(ctx: EngineContext, stage: StageRunState, now: number): Promise<void> {
  // Kept by the in-flight set as members start and end, not counted on every pass.
  const running = (group: GroupRunState) => ctx.inFlight.runningIn(group);
  const cap = stage.maxConcurrency ?? Number.POSITIVE_INFINITY;
  // Issue 5: a group's before-gates hold only that group. A group at its own limit can take no slot:
  // it is left out at once (the slot goes to the group with the fewest running among those that can
  // take it, as when full groups were passed over one by one), so a pass costs each group once.
  const open = stage.groups.filter(
    (g) => !isFinished(g.state) && (ctx.groupDueAt.get(g) ?? 0) <= now && reachGates(ctx, g.beforeGates, now) && running(g) < g.maxConcurrency,
  );
  const decidedThisPass = new Set<MemberRunState>();
  const exhausted = new Set<GroupRunState>();

  // Running members per open group, side by side with `open`: only a start in this loop changes them.
  const counts = open.map(running);
  while (ctx.inFlight.runningInStage(stage) < cap && open.length > 0 && ctx.run.control === "Running") {
    let best = 0;
    for (let i = 1; i < counts.length; i++) if ((counts[i] as number) < (counts[best] as number)) best = i;
    const group = open[best] as GroupRunState;
    const started = await startNextMember(ctx, stage, group, now, decidedThisPass);
    if (!started) exhausted.add(group);
    else counts[best] = running(group);
    if (!started || (counts[best] as number) >= group.maxConcurrency) {
      open.splice(best, 1);
      counts.splice(best, 1);
    }
    settleGroup(ctx, group, now);
  }
  // Groups that ran out of startable members sleep until their earliest Pending member may start.
  for (const group of exhausted) ctx.groupDueAt.set(group, ctx.queue(group).pendingDueAt());
}

/**
 * Pick the group's next member (docs/rules.md §3.3 order) and run the docs/rules.md §3.4 checks on candidates until
 * one starts. Skipped and Pending candidates do not block the group. Returns whether one started.
 * One candidate goes through the steps below in order: rank, read, decide, then checkpoint and start.
 * Each step answers as the backend does (`Answer`): a value at once, or a promise only when the
 * backend's was one (issue 13: no promise per member on the simulated fleet).
 */
async function startNextMember(
  ctx: EngineContext,
  stage: StageRunState,
  group: GroupRunState,
  now: number,
  decidedThisPass: Set<MemberRunState>,
): Promise<boolean> {
  const queue = ctx.queue(group);
  await rankCandidates(ctx, queue, now, decidedThisPass);
  for (let member = queue.next(); member !== undefined; member = queue.next()) {
    decidedThisPass.add(member);
    const read = readForStart(ctx, stage, group, member, now);
    const cluster = isPending(read) ? await read : read;
    if (cluster === undefined) {
      // Gone, and failed: within tolerance the group goes on to its next candidate, as after any other failure.
      if (ctx.run.haltReason !== undefined) return false;
      continue;
    }
    const decided = decide(ctx, member, cluster, now);
    const decision = isPending(decided) ? await decided : decided;
    if (decision.kind === "skip") {
      member.message = decision.message;
      ctx.transitions.transition(member, "Skipped", now, "member", member.name, decision.message);
      continue;
    }
    if (decision.kind === "pending") {
      const checkAgainAt = decision.checkAgainAt ?? recheckUnknown(ctx, now);
      markPending(ctx, member, decision.message, checkAgainAt, now);
      // Its window's opening is known: nothing is decided about it again before then (docs/behaviour.md).
      if (decision.windowClosed === true && checkAgainAt !== undefined) queue.park(member, checkAgainAt);
      continue;
    }
    const answer = checkpointAndStart(ctx, { stage, group, member }, decision.request, now);
    if (isPending(answer) ? await answer : answer) return true;
    // Busy (the member waits, Pending), or refused and failed: within tolerance the group goes on to
    // its next candidate, as after a cluster that is gone.
    if (ctx.run.haltReason !== undefined) return false;
  }
  return false;
}

/** Rank: the group's candidates not decided yet in this pass, in docs/rules.md §3.3 order (`readyQueue.ts`). */
async function rankCandidates(ctx: EngineContext, queue: GroupQueue, now: number, decidedThisPass: Set<MemberRunState>): Promise<void> {
  const type = runUpdate(ctx.run).upgrade.type;
  for (const member of queue.toRank(now, decidedThisPass)) {
    const rank = rankOf(ctx, member, type, now);
    queue.ranked(member, isPending(rank) ? await rank : rank);
  }
}

/** Read: the member's cluster, fresh. A cluster that is gone fails its member: undefined. */
function readForStart(ctx: EngineContext, stage: StageRunState, group: GroupRunState, member: MemberRunState, now: number): Answer<ClusterInfo | undefined> {
  // No closure and no object unless the backend answers later or the cluster is gone: this runs
  // for every candidate (issue 13).
  let answer;
  try {
    answer = ctx.cluster(member, true);
  } catch (e) {
    return failGone(ctx, { stage, group, member }, e, now);
  }
  return isPending(answer) ? answer.catch((e: unknown) => failGone(ctx, { stage, group, member }, e, now)) : answer;
}

function failGone(ctx: EngineContext, place: MemberPlace, e: unknown, now: number): undefined {
  if (!isClusterGone(e)) throw e;
  failMember(ctx, place, { code: e.code, message: e.message }, now);
  return undefined;
}

/** Decide: the docs/rules.md §3.4 checks (`checks.ts`) on the cluster as read and its region's offer. */
function decide(ctx: EngineContext, member: MemberRunState, cluster: ClusterInfo, now: number): Answer<StartDecision> {
  const offer = ctx.offer(cluster.region);
  return isPending(offer) ? offer.then((o) => decideWith(ctx, member, cluster, o, now)) : decideWith(ctx, member, cluster, offer, now);
}

function decideWith(ctx: EngineContext, member: MemberRunState, cluster: ClusterInfo, offer: RegionOffer, now: number): StartDecision {
  return decideStart({
    member: member.name,
    update: runUpdate(ctx.run),
    selectedNodeImageVersions: ctx.run.selectedNodeImageVersions,
    cluster,
    offer,
    windows: ctx.windows,
    now,
  });
}

/**
 * Checkpoint and start: the write-ahead intent (what is asked, and when: `interrupted.ts` reads it
 * after a crash) is persisted, then the backend is asked. Whether it started: if not, the cluster has
 * another operation and the member waits, Pending, or the backend refused it and the member failed.
 */
function checkpointAndStart(ctx: EngineContext, place: MemberPlace, request: UpgradeRequest, now: number): Answer<boolean> {
  const { member } = place;
  member.startRequestedAt = now;
  member.request = request;
  ctx.memberChanged(member);
  ctx.options.checkpoint?.(place);
  let answer;
  try {
    answer = ctx.backend.startUpgrade(ctx.ref(member), request);
  } catch (e) {
    return refused(ctx, place, e, now);
  }
  return isPending(answer)
    ? answer.then(
        (op) => started(ctx, place, request, op, now),
        (e: unknown) => refused(ctx, place, e, now),
      )
    : started(ctx, place, request, answer, now);
}

function started(ctx: EngineContext, place: MemberPlace, request: UpgradeRequest, op: StartedOperation, now: number): true {
  const checkAgainAt = op.checkAgainAt !== undefined && op.checkAgainAt > now ? op.checkAgainAt : now + ctx.pollInterval();
  markRunning(ctx, place, request, op.operationId, op.startedAt ?? now, checkAgainAt, now);
  return true;
}

function refused(ctx: EngineContext, place: MemberPlace, e: unknown, now: number): false {
  const { member } = place;
  if (!(e instanceof BackendError)) {
    // No answer (the connection dropped, a bug): the request may have reached the cluster. The
    // intent stays, and the next pass asks before anything else (`interrupted.ts`).
    ctx.interrupted.add(place);
    throw e;
  }
  member.startRequestedAt = undefined;
  member.request = undefined;
  ctx.memberChanged(member);
  if (e.code === OPERATION_NOT_ALLOWED) markPending(ctx, member, `Another operation is in progress on the cluster; waiting for it to end (${e.message}).`, now + ctx.pollInterval(), now);
  else failMember(ctx, place, { code: e.code, message: e.message }, now);
  return false;
}

/** docs/rules.md §3.3: the member's priority class, from its cluster's window as last read. */
function rankOf(ctx: EngineContext, member: MemberRunState, type: UpgradeType, now: number): Answer<Rank> {
  const rank = (cluster: ClusterInfo | undefined): Rank =>
    ctx.windows.rank(member.name, cluster === undefined ? undefined : relevantWindow(cluster.maintenanceConfigurations, type), now);
  // A cluster that is gone ranks as if it had no window: it is picked, and fails when read to start.
  const gone = (e: unknown): Rank => {
    if (!isClusterGone(e)) throw e;
    return rank(undefined);
  };
  let answer;
  try {
    answer = ctx.cluster(member, false);
  } catch (e) {
    return gone(e);
  }
  return isPending(answer) ? answer.then(rank, gone) : rank(answer);
}

function markPending(ctx: EngineContext, member: MemberRunState, message: string, checkAgainAt: number | undefined, now: number): void {
  ctx.memberChanged(member);
  member.message = message;
  member.checkAgainAt = checkAgainAt;
  ctx.transitions.transition(member, "Pending", now, "member", member.name, message);
}

function recheckUnknown(ctx: EngineContext, now: number): number | undefined {
  const after = ctx.options.recheckUnknownAfterMs;
  return after === undefined ? undefined : now + after;
}

/**
 * The earliest instant anything can change without a user action. Every member in flight has its
 * `checkAgainAt` by now: one resumed without it (a journal from before it was kept) is due at once,
 * and `followUpgrades` gave it one at the start of this pass.
 */
function wakeAt(ctx: EngineContext, now: number): ReconcileResult {
  let next = ctx.inFlight.earliest();
  if (ctx.run.control === "Running") {
    const stage = currentStage(ctx);
    if (stage !== undefined) {
      // A wait whose end has passed while its stage is busy again (a retry) wakes nothing by itself.
      if (stage.wait.state === "Running" && stage.wait.endsAt !== undefined && stage.wait.endsAt > now) next = Math.min(next, stage.wait.endsAt);
      for (const group of stage.groups) {
        const due = ctx.groupDueAt.get(group) ?? 0;
        if (!isFinished(group.state) && due > now) next = Math.min(next, due);
        // Issue 22: a ScheduledStart gate opens at its instant (docs/rules.md §17).
        next = Math.min(next, nextGateOpening(group.beforeGates, now) ?? Number.POSITIVE_INFINITY);
      }
      next = Math.min(next, nextGateOpening(stage.beforeGates, now) ?? Number.POSITIVE_INFINITY);
      // Issue 31: the stage's next pre-check or soak measurement.
      next = Math.min(next, nextMeasurement(stage.analysis) ?? Number.POSITIVE_INFINITY);
    }
  }
  return next === Number.POSITIVE_INFINITY ? {} : { nextWakeAt: next };
}
