/**
 * docs/rules.md §5: the run's state as Azure's `UpdateRunStatus`. Times are ISO 8601 UTC; absent values are
 * omitted. A member that has not started carries a message saying why (what it is waiting for).
 */
import type { ErrorDetail, GateStatus, MemberUpdateStatus, UpdateRunStatus, UpdateStatus } from "../model/status";
import { hasWait } from "./refresh";
import { isDone, type Controlled, type GateRunState, type GroupRunState, type MemberRunState, type RunState, type StageRunState, type Timed } from "./runState";
import { groupFailureCount, stageFailureCount } from "./tolerance";
import { isoInstant as iso } from "../model/instants";
import { renderAnalysis } from "./analysis";

export function renderStatus(run: RunState): UpdateRunStatus {
  const current = run.stages.find((s) => !isDone(s.state));
  return {
    status: timed(run),
    failureCount: run.stages.reduce((n, stage) => n + stageFailureCount(stage), 0),
    nodeImageSelection: { selectedNodeImageVersions: (run.selectedNodeImageVersions ?? []).map((version) => ({ version })) },
    stages: run.stages.map((stage) => ({
      name: stage.name,
      status: timed(stage),
      failureCount: stageFailureCount(stage),
      ...gates(stage),
      ...(hasWait(stage) ? { afterStageWaitStatus: { status: timed(stage.wait), waitDurationInSeconds: stage.afterStageWaitInSeconds } } : {}),
      ...(stage.analysis === undefined || stage.analysis.length === 0 ? {} : { analysisRuns: stage.analysis.map(renderAnalysis) }),
      groups: stage.groups.map((group) => ({
        name: group.name,
        status: timed(group),
        failureCount: groupFailureCount(group),
        ...gates(group),
        members: group.members.map((member) => renderMember(member, notStartedReason(run, current, stage, group))),
      })),
    })),
  };
}

function gates(item: Controlled): { beforeGates?: GateStatus[]; afterGates?: GateStatus[] } {
  const render = (list: GateRunState[]): GateStatus[] =>
    list.map((g) => ({
      displayName: g.displayName,
      gateId: g.gateId,
      status: timed(g),
      ...(g.scheduledStart === undefined
        ? {}
        : { scheduledStartProperties: { ...g.scheduledStart, ...(g.absoluteStartTime === undefined ? {} : { absoluteStartTime: iso(g.absoluteStartTime) }) } }),
    }));
  return {
    ...(item.beforeGates === undefined ? {} : { beforeGates: render(item.beforeGates) }),
    ...(item.afterGates === undefined ? {} : { afterGates: render(item.afterGates) }),
  };
}

function timed(node: Timed): UpdateStatus {
  return {
    state: node.state,
    ...(node.startTime === undefined ? {} : { startTime: iso(node.startTime) }),
    ...(node.completedTime === undefined ? {} : { completedTime: iso(node.completedTime) }),
    ...(node.error === undefined ? {} : { error: { ...node.error } satisfies ErrorDetail }),
  };
}

function renderMember(member: MemberRunState, reason: string): MemberUpdateStatus {
  const message = member.message ?? (member.state === "NotStarted" ? reason : undefined);
  // A member's startTime is when its upgrade began (docs/rules.md §4): none while NotStarted or Pending.
  // Only its start sets it (`running.ts`), and a retry clears it (`control.ts`), so `timed` shows it so.
  const status = timed(member);
  return {
    name: member.name,
    ...(member.clusterResourceId === undefined ? {} : { clusterResourceId: member.clusterResourceId }),
    ...(member.operationId === undefined ? {} : { operationId: member.operationId }),
    ...(message === undefined ? {} : { message }),
    status,
    // Set only with the analyses it started, one at least (`healthCheck.ts`); a retry clears it.
    ...(member.analysis === undefined ? {} : { analysisRuns: member.analysis.map(renderAnalysis) }),
  };
}

/** Why a NotStarted member has not started, from where the run is. */
function notStartedReason(run: RunState, current: StageRunState | undefined, stage: StageRunState, group: GroupRunState): string {
  if (run.control === "NotStarted") return "The run has not been started.";
  if (run.control === "Halting") return "Not started: the run is stopping.";
  if (run.control === "Halted") {
    return run.haltReason === "failure"
      ? "Not started: the run failed before this member was reached."
      : "Not started: the run was stopped before this member was reached.";
  }
  if (stage.startTime === undefined && current !== undefined && current !== stage) {
    if (current.wait.state === "Running" && current.wait.endsAt !== undefined) {
      return `Waiting for the after-stage wait of stage '${current.name}' to end at ${iso(current.wait.endsAt)}.`;
    }
    return `Waiting for stage '${current.name}' to finish.`;
  }
  return `Waiting for its turn in group '${group.name}' (${group.maxConcurrency} member${group.maxConcurrency === 1 ? "" : "s"} at a time).`;
}
