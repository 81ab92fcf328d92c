/**
 * Fleet Manager's `UpdateRunStatus` (as `@azure/arm-containerservicefleet` deserializes it: instants
 * as `Date`, every field optional) in our status shape (SPEC §5): ISO 8601 instants ending in `Z`,
 * absent values omitted, `failureCount` counted from the members, and what a run leaves for the next
 * (`failedMembers`, `appliedNodeImageVersions`) derived from the status alone.
 */
import type { MemberUpdateStatus as FleetMember, UpdateRunStatus as FleetStatus, UpdateStatus as FleetUpdateStatus } from "@azure/arm-containerservicefleet";
import { isoInstant } from "../../model/common";
import type { FailedMember } from "../../engine/results";
import { UPDATE_STATES, type MemberUpdateStatus, type UpdateGroupStatus, type UpdateRunStatus, type UpdateStageStatus, type UpdateState, type UpdateStatus } from "../../model/status";
import type { ManagedClusterUpdate } from "../../model/update";

const KNOWN: ReadonlySet<string> = new Set(UPDATE_STATES);

/**
 * Fleet's state names are ours (SPEC names follow Fleet's). A state a newer Fleet adds is shown as
 * Running, the one that promises nothing, rather than dropped.
 */
function stateOf(state: string | undefined): UpdateState {
  if (state === undefined) return "NotStarted";
  return KNOWN.has(state) ? (state as UpdateState) : "Running";
}

function statusOf(s: FleetUpdateStatus | undefined): UpdateStatus {
  const startTime = s?.startTime;
  const completedTime = s?.completedTime;
  const error = s?.error;
  return {
    state: stateOf(s?.state),
    ...(startTime instanceof Date && !Number.isNaN(startTime.getTime()) ? { startTime: isoInstant(startTime.getTime()) } : {}),
    ...(completedTime instanceof Date && !Number.isNaN(completedTime.getTime()) ? { completedTime: isoInstant(completedTime.getTime()) } : {}),
    ...(error === undefined || error === null ? {} : { error: { code: error.code ?? "UpdateFailed", message: error.message ?? "" } }),
  };
}

function memberOf(m: FleetMember): MemberUpdateStatus {
  return {
    name: m.name ?? "",
    ...(m.clusterResourceId ? { clusterResourceId: m.clusterResourceId } : {}),
    ...(m.operationId ? { operationId: m.operationId } : {}),
    ...(m.message ? { message: m.message } : {}),
    status: statusOf(m.status),
  };
}

function failures(members: readonly MemberUpdateStatus[]): number {
  return members.filter((m) => m.status.state === "Failed").length;
}

export function fromFleetStatus(status: FleetStatus | undefined): UpdateRunStatus {
  const stages: UpdateStageStatus[] = (status?.stages ?? []).map((stage) => {
    const groups: UpdateGroupStatus[] = (stage.groups ?? []).map((group) => {
      const members = (group.members ?? []).map(memberOf);
      return { name: group.name ?? "", status: statusOf(group.status), failureCount: failures(members), members };
    });
    const wait = stage.afterStageWaitStatus;
    return {
      name: stage.name ?? "",
      status: statusOf(stage.status),
      failureCount: groups.reduce((n, g) => n + g.failureCount, 0),
      ...(wait === undefined || wait === null ? {} : { afterStageWaitStatus: { status: statusOf(wait.status), waitDurationInSeconds: wait.waitDurationInSeconds ?? 0 } }),
      groups,
    };
  });
  const selected = (status?.nodeImageSelection?.selectedNodeImageVersions ?? []).flatMap((v) => (v.version ? [{ version: v.version }] : []));
  return {
    status: statusOf(status?.status),
    failureCount: stages.reduce((n, s) => n + s.failureCount, 0),
    nodeImageSelection: { selectedNodeImageVersions: selected },
    stages,
  };
}

/** Members Failed now, in status order: a retry's input (on the azure backend; Fleet runs whole fleets). */
export function failedMembersOf(status: UpdateRunStatus): FailedMember[] {
  return status.stages.flatMap((stage) =>
    stage.groups.flatMap((group) =>
      group.members.filter((m) => m.status.state === "Failed").map((m) => ({ name: m.name, group: group.name, ...(m.clusterResourceId === undefined ? {} : { clusterResourceId: m.clusterResourceId }) })),
    ),
  );
}

/**
 * The images the run applied, as far as Fleet's status tells: with Consistent or Custom selection,
 * the selected versions once a member Completed; with Latest (each member got its region's newest at
 * its start, which the status does not record) nothing.
 */
export function appliedImagesOf(status: UpdateRunStatus, update: ManagedClusterUpdate): Array<{ version: string }> {
  const type = update.nodeImageSelection?.type ?? "Latest";
  if (type === "Latest" || update.upgrade.type === "ControlPlaneOnly") return [];
  const anyCompleted = status.stages.some((s) => s.groups.some((g) => g.members.some((m) => m.status.state === "Completed")));
  return anyCompleted ? [...status.nodeImageSelection.selectedNodeImageVersions].sort((a, b) => a.version.localeCompare(b.version)) : [];
}
