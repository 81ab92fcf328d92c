/**
 * A run's one-line story for stack outputs and reports: how many members ended how, when the run
 * began and ended, and an outcome a pipeline can test without reading the tree.
 */
import type { UpdateRunStatus, UpdateState } from "../model/status";

/**
 * What a pipeline tests (issue 5): `Succeeded` only when every member is Completed or Skipped, so a
 * run that completed with tolerated failures — even every member failed — never passes for success.
 * `Pending` = not finished yet (not started, running, waiting for a gate, a window or a wait).
 */
export type RunOutcome = "Succeeded" | "CompletedWithFailures" | "Failed" | "Stopped" | "Pending";

export interface RunSummary {
  state: UpdateState;
  outcome: RunOutcome;
  /** Members Failed now. */
  failureCount: number;
  members: { total: number } & Record<UpdateState, number>;
  startTime?: string;
  completedTime?: string;
  durationSeconds?: number;
}

const OUTCOME: Record<UpdateState, RunOutcome> = {
  Completed: "Succeeded",
  Skipped: "Succeeded",
  Failed: "Failed",
  Stopped: "Stopped",
  Stopping: "Pending",
  Pending: "Pending",
  Running: "Pending",
  NotStarted: "Pending",
};

export function summarize(status: UpdateRunStatus): RunSummary {
  const members = { total: 0, NotStarted: 0, Running: 0, Pending: 0, Stopping: 0, Stopped: 0, Skipped: 0, Failed: 0, Completed: 0 };
  for (const stage of status.stages) {
    for (const group of stage.groups) {
      for (const member of group.members) {
        members.total += 1;
        members[member.status.state] += 1;
      }
    }
  }
  const { state, startTime, completedTime } = status.status;
  const outcome = OUTCOME[state] === "Succeeded" && members.Failed > 0 ? "CompletedWithFailures" : OUTCOME[state];
  return {
    state,
    outcome,
    failureCount: members.Failed,
    members,
    ...(startTime === undefined ? {} : { startTime }),
    ...(completedTime === undefined ? {} : { completedTime }),
    ...(startTime !== undefined && completedTime !== undefined ? { durationSeconds: (Date.parse(completedTime) - Date.parse(startTime)) / 1000 } : {}),
  };
}
