/**
 * A run's one-line story for stack outputs and reports: how many members ended how, when the run
 * began and ended, and an outcome a pipeline can test without reading the tree.
 */
import type { UpdateRunStatus, UpdateState } from "../model/status";

export type RunOutcome = "Succeeded" | "Failed" | "Stopped" | "Skipped" | "Pending" | "Running" | "NotStarted";

export interface RunSummary {
  state: UpdateState;
  outcome: RunOutcome;
  members: { total: number } & Record<UpdateState, number>;
  startTime?: string;
  completedTime?: string;
  durationSeconds?: number;
}

const OUTCOME: Record<UpdateState, RunOutcome> = {
  Completed: "Succeeded",
  Failed: "Failed",
  Stopped: "Stopped",
  Stopping: "Running",
  Skipped: "Skipped",
  Pending: "Pending",
  Running: "Running",
  NotStarted: "NotStarted",
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
  return {
    state,
    outcome: OUTCOME[state],
    members,
    ...(startTime === undefined ? {} : { startTime }),
    ...(completedTime === undefined ? {} : { completedTime }),
    ...(startTime !== undefined && completedTime !== undefined ? { durationSeconds: (Date.parse(completedTime) - Date.parse(startTime)) / 1000 } : {}),
  };
}
