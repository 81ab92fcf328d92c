/**
 * Fleet Manager's `UpdateRunStatus` (its JSON, `wire.ts`: every field optional) in our status shape
 * (docs/rules.md §5): ISO 8601 instants ending in `Z`, absent values omitted, `failureCount` as Fleet
 * shows it (2026-06-02-preview, when the strategy sets a tolerance) or else counted from the members,
 * gates named by our ids, and what a run leaves for the next (`failedMembers`,
 * `appliedNodeImageVersions`) derived from the status alone.
 *
 * ScheduledStart gates (2026-06-02-preview): Fleet's run status lists them as any gate (`displayName`,
 * `gateId`, `status`); their configuration is in the run's strategy and the instant they open,
 * `absoluteStartTime`, only on the gate resource (`scheduledStarts.ts` reads it). Both go into our
 * gate status's `scheduledStartProperties`, as the engine shows it, so a run waiting for one is not
 * taken for a run waiting for an approval (`drivers/waiting.ts`).
 */
import { isoInstant } from "../../model/instants";
import type { FailedMember } from "../../engine/results";
import { UPDATE_STATES, type GateStatus, type MemberUpdateStatus, type UpdateGroupStatus, type UpdateRunStatus, type UpdateStageStatus, type UpdateState, type UpdateStatus } from "../../model/status";
import { gateId } from "../../model/strategy";
import type { ManagedClusterUpdate } from "../../model/update";
import type { WireGateConfiguration, WireGatesStatus, WireMemberStatus as FleetMember, WireRunStatus as FleetStatus, WireStrategy, WireUpdateStatus as FleetUpdateStatus } from "../../backends/azureFleet/wire";

/** What the status needs besides itself for ScheduledStart gates: the run's strategy, and the instants read from gate resources (by our gate id). */
export interface ScheduledStartSources {
  strategy?: WireStrategy | null;
  absoluteStartTimes?: ReadonlyMap<string, string>;
}

/** Each ScheduledStart gate's configuration in the strategy, by our gate id. */
export function scheduledStartConfigurations(strategy: WireStrategy | null | undefined): Map<string, NonNullable<WireGateConfiguration["scheduledStartConfiguration"]>> {
  const out = new Map<string, NonNullable<WireGateConfiguration["scheduledStartConfiguration"]>>();
  const add = (gates: WireGateConfiguration[] | null | undefined, stage: string, group: string | undefined, timing: "before" | "after") =>
    gates?.forEach((g, i) => {
      if (g.type === "ScheduledStart" && g.scheduledStartConfiguration) out.set(gateId(stage, group, timing, i), g.scheduledStartConfiguration);
    });
  for (const stage of strategy?.stages ?? []) {
    add(stage.beforeGates, stage.name, undefined, "before");
    add(stage.afterGates, stage.name, undefined, "after");
    for (const group of stage.groups ?? []) {
      add(group.beforeGates, stage.name, group.name, "before");
      add(group.afterGates, stage.name, group.name, "after");
    }
  }
  return out;
}

const KNOWN: ReadonlySet<string> = new Set(UPDATE_STATES);

/**
 * Fleet's state names are ours (docs/rules.md's names follow Fleet's). A state a newer Fleet adds is shown as
 * Running, the one that promises nothing, rather than dropped.
 */
function stateOf(state: string | undefined): UpdateState {
  if (state === undefined) return "NotStarted";
  return KNOWN.has(state) ? (state as UpdateState) : "Running";
}

/** An instant as docs/rules.md §5 writes it, or nothing when absent or unreadable. */
function instant(value: string | undefined): { at: string } | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : { at: isoInstant(ms) };
}

function statusOf(s: FleetUpdateStatus | undefined): UpdateStatus {
  const startTime = instant(s?.startTime);
  const completedTime = instant(s?.completedTime);
  const error = s?.error;
  return {
    state: stateOf(s?.state),
    ...(startTime === undefined ? {} : { startTime: startTime.at }),
    ...(completedTime === undefined ? {} : { completedTime: completedTime.at }),
    ...(error === undefined || error === null ? {} : { error: { code: error.code ?? "UpdateFailed", message: error.message ?? "" } }),
  };
}

/**
 * An item's gates, named by our ids (`<stage>[/<group>]/<timing>/<i>`, by position, as the engine
 * names them), so approvals and reports read the same on every backend; Fleet's own gate id (an ARM
 * id) is what `gateResources.ts` maps them to.
 */
function gatesOf(item: WireGatesStatus, stage: string, group: string | undefined, scheduled: Scheduled): Pick<UpdateStageStatus, "beforeGates" | "afterGates"> {
  const render = (gates: WireGatesStatus["beforeGates"], timing: "before" | "after"): GateStatus[] | undefined =>
    gates === undefined || gates === null || gates.length === 0
      ? undefined
      : gates.map((g, i) => {
          const id = gateId(stage, group, timing, i);
          const config = scheduled.configurations.get(id);
          const at = instant(scheduled.absoluteStartTimes?.get(id));
          return {
            displayName: g.displayName ?? "Approval",
            gateId: id,
            status: statusOf(g.status),
            ...(config === undefined ? {} : { scheduledStartProperties: { startDay: config.startDay, startTime: config.startTime, utcOffset: config.utcOffset, ...(at === undefined ? {} : { absoluteStartTime: at.at }) } }),
          };
        });
  const before = render(item.beforeGates, "before");
  const after = render(item.afterGates, "after");
  return { ...(before === undefined ? {} : { beforeGates: before }), ...(after === undefined ? {} : { afterGates: after }) };
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

/** Fleet's own count when it shows one, else `counted`. */
function countOf(shown: number | null | undefined, counted: number): number {
  return typeof shown === "number" ? shown : counted;
}

interface Scheduled {
  configurations: ReadonlyMap<string, NonNullable<WireGateConfiguration["scheduledStartConfiguration"]>>;
  absoluteStartTimes: ReadonlyMap<string, string> | undefined;
}

export function fromFleetStatus(status: FleetStatus | undefined, sources: ScheduledStartSources = {}): UpdateRunStatus {
  const scheduled: Scheduled = { configurations: scheduledStartConfigurations(sources.strategy), absoluteStartTimes: sources.absoluteStartTimes };
  const stages: UpdateStageStatus[] = (status?.stages ?? []).map((stage) => {
    const groups: UpdateGroupStatus[] = (stage.groups ?? []).map((group) => {
      const members = (group.members ?? []).map(memberOf);
      return { name: group.name ?? "", status: statusOf(group.status), failureCount: countOf(group.failureCount, failures(members)), ...gatesOf(group, stage.name ?? "", group.name ?? "", scheduled), members };
    });
    const wait = stage.afterStageWaitStatus;
    return {
      name: stage.name ?? "",
      status: statusOf(stage.status),
      failureCount: countOf(stage.failureCount, groups.reduce((n, g) => n + g.failureCount, 0)),
      ...gatesOf(stage, stage.name ?? "", undefined, scheduled),
      ...(wait === undefined || wait === null ? {} : { afterStageWaitStatus: { status: statusOf(wait.status), waitDurationInSeconds: wait.waitDurationInSeconds ?? 0 } }),
      groups,
    };
  });
  const selected = (status?.nodeImageSelection?.selectedNodeImageVersions ?? []).flatMap((v) => (v.version ? [{ version: v.version }] : []));
  return {
    status: statusOf(status?.status),
    failureCount: countOf(status?.failureCount, stages.reduce((n, s) => n + s.failureCount, 0)),
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
export function appliedImagesOf(status: UpdateRunStatus, update: ManagedClusterUpdate | undefined): Array<{ version: string }> {
  if (update === undefined) return [];
  const type = update.nodeImageSelection?.type ?? "Latest";
  if (type === "Latest" || update.upgrade.type === "ControlPlaneOnly") return [];
  const anyCompleted = status.stages.some((s) => s.groups.some((g) => g.members.some((m) => m.status.state === "Completed")));
  return anyCompleted ? [...status.nodeImageSelection.selectedNodeImageVersions].sort((a, b) => a.version.localeCompare(b.version)) : [];
}
