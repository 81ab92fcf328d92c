/** What an idle run waits for, read from its status: for the messages of a run that returned early. */
import type { GateStatus, UpdateRunStatus } from "../model/status";

/**
 * How the display names of the gates a Fleet Manager client adds for analysis start (issue 31,
 * `fleet/analysisGates.ts`): the mark that tells them from a user's, in any status.
 */
export const ANALYSIS_GATE_PREFIX = "fleet-update analysis";

/** Whether a gate (by its display name) is one the client added for analysis. */
export function isAnalysisGate(displayName: string | null | undefined): boolean {
  return typeof displayName === "string" && displayName.startsWith(ANALYSIS_GATE_PREFIX);
}

/** Every gate of a status, in the order a run reaches them: stage before, its groups' before and after, stage after. */
export function statusGates(status: UpdateRunStatus): GateStatus[] {
  return status.stages.flatMap((stage) => [
    ...(stage.beforeGates ?? []),
    ...stage.groups.flatMap((group) => [...(group.beforeGates ?? []), ...(group.afterGates ?? [])]),
    ...(stage.afterGates ?? []),
  ]);
}

/**
 * Ids of the gates waiting for a person's approval (a ScheduledStart gate waits for its instant
 * instead; a gate the client added for analysis on Fleet Manager, for its analysis: issue 31).
 */
export function pendingGates(status: UpdateRunStatus): string[] {
  return statusGates(status)
    .filter((g) => g.status.state === "Pending" && g.scheduledStartProperties === undefined && !isAnalysisGate(g.displayName))
    .map((g) => g.gateId);
}

/**
 * A gate waits for an approval, and no member is being upgraded: only a person can move the run (read
 * from a status alone, for runs the engine does not drive here: Fleet Manager's).
 */
export function waitsForApproval(status: UpdateRunStatus): boolean {
  if (pendingGates(status).length === 0) return false;
  return !status.stages.some((stage) => stage.groups.some((group) => group.members.some((m) => m.status.state === "Running")));
}

/** Gates first, then a running after-stage wait, then the first Pending member's reason. */
export function waitingLine(status: UpdateRunStatus): string {
  const gates = pendingGates(status);
  if (gates.length > 0) return `Waiting for approval of ${gates.map((id) => `'${id}'`).join(", ")} (add to \`approvals\`).`;
  const measuring = statusGates(status).find((g) => g.status.state === "Pending" && isAnalysisGate(g.displayName));
  if (measuring !== undefined) return `Waiting: gate '${measuring.gateId}' holds the run for its health analysis (fleet-update approves it when the analysis passes; run again to go on measuring).`;
  const scheduled = statusGates(status).find((g) => g.status.state === "Pending" && g.scheduledStartProperties?.absoluteStartTime !== undefined);
  if (scheduled !== undefined) return `Waiting: gate '${scheduled.gateId}' opens at ${scheduled.scheduledStartProperties?.absoluteStartTime} (scheduled start; approving it opens it now).`;
  for (const stage of status.stages) {
    if (stage.afterStageWaitStatus?.status.state === "Running") return `Waiting: stage '${stage.name}' after-stage wait is running.`;
    for (const member of stage.groups.flatMap((g) => g.members)) {
      if (member.status.state === "Pending" && member.message !== undefined) return `Waiting: ${member.name}: ${member.message}`;
    }
  }
  return `The run is ${status.status.state}.`;
}
