/**
 * Failure tolerance (issue 5, docs/behaviour.md "Failure tolerance"): how many failed members a group
 * or a stage absorbs before it fails. A group without `maxAllowedFailures` tolerates none (docs/rules.md §3.7's
 * fail-fast); a stage without one adds no limit of its own beyond its groups'.
 */
import type { GroupRunState, StageRunState } from "./runState";

/** "N" or "P%" of `memberCount`, percent rounded up, resolved once when the run is planned. */
export function resolveTolerance(value: string | undefined, memberCount: number): number | undefined {
  if (value === undefined) return undefined;
  if (value.endsWith("%")) return Math.ceil((memberCount * Number(value.slice(0, -1))) / 100);
  return Number(value);
}

export function groupFailureCount(group: GroupRunState): number {
  let n = 0;
  for (const member of group.members) if (member.state === "Failed") n++;
  return n;
}

export function stageFailureCount(stage: StageRunState): number {
  let n = 0;
  for (const group of stage.groups) n += groupFailureCount(group);
  return n;
}

/** A group tolerates this many failed members or fewer (unset: none, docs/rules.md §3.7's fail-fast). */
export function groupExceedsWith(group: GroupRunState, failures: number): boolean {
  return failures > (group.maxAllowedFailures ?? 0);
}

/** The stage's own limit, when it sets one, is past with `failures` failed members (unset: no limit beyond its groups'). */
export function stageOwnLimitExceededWith(stage: StageRunState, failures: number): boolean {
  return failures > (stage.maxAllowedFailures ?? Number.POSITIVE_INFINITY);
}

/** A group of the stage exceeded its tolerance, or the stage its own; failures are counted already (the engine keeps the counts as states change). */
export function stageExceedsWith(stage: StageRunState, groupFailures: (group: GroupRunState) => number, stageFailures: number): boolean {
  return stage.groups.some((g) => groupExceedsWith(g, groupFailures(g))) || stageOwnLimitExceededWith(stage, stageFailures);
}
