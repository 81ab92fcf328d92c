/**
 * SPEC §4 state aggregation: a group over its members, a stage over its groups and its wait, the run
 * over its stages. Pure functions of the children's states; `execute.ts` calls them after every
 * change and records what changed.
 */
import type { UpdateState } from "../model/status";
import { isDone } from "./runState";

/** Where the run's halt is: none, draining in-flight upgrades (Stopping), or done (Stopped). */
export type HaltPhase = "none" | "halting" | "halted";

/**
 * State of a group or a stage from its children (SPEC §4), in order:
 * Failed if any child failed; Skipped if every child was skipped; Completed if every child is
 * Completed or Skipped; NotStarted before it started; Stopping / Stopped while the run halts;
 * Running if a child runs; Pending if every unfinished child is Pending or NotStarted; else Running.
 */
export function aggregateChildren(children: readonly UpdateState[], started: boolean, halt: HaltPhase): UpdateState {
  let failed = false;
  let allSkipped = children.length > 0;
  let allDone = true;
  let running = false;
  let allWaiting = true; // every unfinished child is Pending or NotStarted
  for (const child of children) {
    if (child === "Failed") failed = true;
    if (child !== "Skipped") allSkipped = false;
    if (!isDone(child)) allDone = false;
    if (child === "Running" || child === "Stopping") running = true;
    if (!isDone(child) && child !== "Pending" && child !== "NotStarted") allWaiting = false;
  }
  if (failed) return "Failed";
  if (allSkipped) return "Skipped";
  if (allDone && (started || children.length > 0)) return "Completed";
  if (!started) return "NotStarted";
  if (halt === "halting") return "Stopping";
  if (halt === "halted") return "Stopped";
  if (running) return "Running";
  if (allWaiting) return "Pending";
  return "Running";
}

/**
 * The run over its stages. While halting, the run shows Stopping even when a stage already failed
 * (SPEC §3.7: "the run shows Stopping meanwhile, then the run is Failed").
 */
export function aggregateRun(stages: readonly UpdateState[], started: boolean, halt: HaltPhase): UpdateState {
  if (halt === "halting") return "Stopping";
  return aggregateChildren(stages, started, halt);
}
