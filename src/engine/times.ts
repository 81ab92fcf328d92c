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
export function latestEnd(parts: Iterable<Timed>): number | undefined {
  return latest(ends(parts));
}

function latest(instants: Iterable<number | undefined>): number | undefined {
  let found: number | undefined;
  for (const at of instants) if (at !== undefined && (found === undefined || at > found)) found = at;
  return found;
}

function* ends(parts: Iterable<Timed>): Iterable<number | undefined> {
  for (const part of parts) yield part.completedTime;
}

/**
 * When `item`, which moves to the ended state `to` in the pass at `now`, ended: when its last part
 * ended (an item with no part ended: now), never before its own start. A stop ends an item at the
 * instant of the stop, or when its last upgrade in flight then ended if that is later.
 */
export function endOf(item: Timed, to: UpdateState, partEnds: Iterable<number | undefined>, now: number): number {
  const last = latest(partEnds);
  const end = to === "Stopped" ? Math.max(now, last ?? now) : (last ?? now);
  return item.startTime === undefined ? end : Math.max(end, item.startTime);
}

function gatesOf(item: Controlled): Timed[] {
  return [...(item.beforeGates ?? []), ...(item.afterGates ?? [])];
}

/** When the parts a group's end waits for ended: its members and its gates. */
export function* groupEnds(group: GroupRunState): Iterable<number | undefined> {
  yield* ends(group.members);
  yield* ends(gatesOf(group));
}

/**
 * When the parts a stage's end waits for ended: its groups (and their members: one may end after its
 * group failed), its wait, its gates, and its analyses (a soak outlasting the wait holds the stage).
 */
export function* stageEnds(stage: StageRunState): Iterable<number | undefined> {
  yield* ends(stage.groups);
  for (const group of stage.groups) yield* ends(group.members);
  yield stage.wait.completedTime;
  yield* ends(gatesOf(stage));
  for (const analysis of stage.analysis ?? []) yield analysis.finishedAt;
}

/** When the parts the run's end waits for ended: its stages and everything in them (a halt ends with the last upgrade in flight). */
export function* runEnds(run: RunState): Iterable<number | undefined> {
  for (const stage of run.stages) yield* stageEnds(stage);
  yield* ends(run.stages);
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
