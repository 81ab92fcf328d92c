/**
 * docs/rules.md §4 state aggregation: a group over its members, a stage over its groups and its wait, the run
 * over its stages. Pure functions of the children's states; `execute.ts` calls them after every
 * change and records what changed.
 */
import type { UpdateState } from "../model/status";
import { countStates, type StateCounts } from "./tally";

/** Where the run's halt is: none, draining in-flight upgrades (Stopping), or done (Stopped). */
export type HaltPhase = "none" | "halting" | "halted";

/**
 * State of a group or a stage from its children (docs/rules.md §4), in order:
 * Failed if any child failed; Skipped if every child was skipped; Completed if every child is
 * Completed or Skipped; NotStarted before it started; Stopping / Stopped while the run halts;
 * Running if a child runs; Pending if every unfinished child is Pending or NotStarted; else Running.
 */
export function aggregateChildren(children: readonly UpdateState[], started: boolean, halt: HaltPhase): UpdateState {
  return aggregateCounts(countStates(children), started, halt);
}

/** `aggregateChildren` from how many children are in each state (what `RunTally` keeps). */
export function aggregateCounts(c: StateCounts, started: boolean, halt: HaltPhase): UpdateState {
  const done = c.Completed + c.Skipped;
  if (c.Failed > 0) return "Failed";
  if (c.total > 0 && c.Skipped === c.total) return "Skipped";
  if (done === c.total && (started || c.total > 0)) return "Completed";
  if (!started) return "NotStarted";
  if (halt === "halting") return "Stopping";
  if (halt === "halted") return "Stopped";
  // Pending when every unfinished child is Pending or NotStarted; a Running (or Stopping, Stopped) child makes it Running.
  if (c.total - done - c.Pending - c.NotStarted === 0) return "Pending";
  return "Running";
}

/**
 * The run over its stages. While halting, the run shows Stopping even when a stage already failed
 * (docs/rules.md §3.7: "the run shows Stopping meanwhile, then the run is Failed").
 */
export function aggregateRun(stages: readonly UpdateState[], started: boolean, halt: HaltPhase): UpdateState {
  if (halt === "halting") return "Stopping";
  return aggregateChildren(stages, started, halt);
}
