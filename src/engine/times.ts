/**
 * docs/rules.md §20: an item's times agree with its parts'. A member's start and end are its
 * operation's, as the backend recorded them (`running.ts`, `execute.ts`); a group, a stage and the run
 * start no later than the first of their parts and end when the last of them ended — not when a pass
 * happened to see it, which after a crash or a slow poll is later, nor before it, when the backend's
 * clock is a little ahead of the pass's — so no child starts before its parent nor ends after it. An
 * after-stage wait is measured from the end of the stage's last group (`execute.ts` `passWait`).
 */
import type { UpdateState } from "../model/status";
import type { Controlled, GroupRunState, RunState, StageRunState, Timed } from "./runState";

/** The latest `completedTime` among `parts` (those that ended); undefined when none has. */
export function latestEnd(parts: Iterable<Timed | undefined>): number | undefined {
  let latest: number | undefined;
  for (const part of parts) {
    const end = part?.completedTime;
    if (end !== undefined && (latest === undefined || end > latest)) latest = end;
  }
  return latest;
}

/**
 * When `item`, which moves to the ended state `to` in the pass at `now`, ended: when its last part
 * ended (an item with no part ended: now), never before its own start. A stop ends an item at the
 * instant of the stop, or when its last upgrade in flight then ended if that is later.
 */
export function endOf(item: Timed, to: UpdateState, parts: Iterable<Timed | undefined>, now: number): number {
  const latest = latestEnd(parts);
  const end = to === "Stopped" ? Math.max(now, latest ?? now) : (latest ?? now);
  return item.startTime === undefined ? end : Math.max(end, item.startTime);
}

function gatesOf(item: Controlled): Timed[] {
  return [...(item.beforeGates ?? []), ...(item.afterGates ?? [])];
}

/** The parts a group's end waits for: its members and its gates. */
export function groupParts(group: GroupRunState): Iterable<Timed> {
  return [...group.members, ...gatesOf(group)];
}

/** The parts a stage's end waits for: its groups (and their members: one may end after its group failed), its wait and its gates. */
export function* stageParts(stage: StageRunState): Iterable<Timed> {
  yield* stage.groups;
  for (const group of stage.groups) yield* group.members;
  yield stage.wait;
  yield* gatesOf(stage);
}

/** The parts the run's end waits for: its stages and every member (a halt ends with the last upgrade in flight). */
export function* runParts(run: RunState): Iterable<Timed> {
  for (const stage of run.stages) yield* stageParts(stage);
  yield* run.stages;
}

/** The earliest start among `members` (one already running, adopted after a crash); undefined when none started. */
function earliestStart(members: Iterable<Timed>): number | undefined {
  let earliest: number | undefined;
  for (const member of members) if (member.startTime !== undefined && (earliest === undefined || member.startTime < earliest)) earliest = member.startTime;
  return earliest;
}

/**
 * A stage the run reaches at `now` starts then, or when the stage before it ended if the end its
 * parts recorded is later (a backend's clock a little ahead of the pass's instant) — but no later than
 * a member already running in it (an upgrade adopted after a crash, from before this pass).
 */
export function stageStart(stage: StageRunState, previous: StageRunState | undefined, now: number): number {
  const at = Math.max(now, previous?.completedTime ?? now);
  return Math.min(at, earliestStart(stage.groups.flatMap((g) => g.members)) ?? at);
}

/** A group its stage lets start at `now` starts then (never before its stage), or when a member already running in it started. */
export function groupStart(group: GroupRunState, stage: StageRunState, now: number): number {
  const at = Math.max(now, stage.startTime ?? now);
  return Math.min(at, earliestStart(group.members) ?? at);
}
