/**
 * Fleet Manager's ARM bodies: Fleet, FleetMember, FleetUpdateStrategy, UpdateRun, each as the
 * request's api-version defines it (`apiVersions.ts`): gates from 2025-04-01-preview, `maxConcurrency`
 * (the strategy's string, the resolved integer in the status) and members' `labels` from 2026-06-01,
 * `maxAllowedFailures`, `failureCount`, `memberSelector` and ScheduledStart gates at
 * 2026-06-02-preview; a field a version lacks is left out, whatever version wrote the resource. As for clusters, `eTag` is a digest of what the resource holds (every version's
 * fields), so it changes with every change (a run's status included) and only then, and is the same
 * at every api-version. Strategies and runs carry ARM's `systemData`.
 */
import crypto from "node:crypto";
import type { FleetApiFeatures } from "../../backends/azureFleet/wire/index";
import { defaultStrategy } from "../../engine/plan";
import type { GateStatus, MemberUpdateStatus, UpdateRunStatus } from "../../model/status";
import { isImplicitGroup, type Gate, type UpdateRunStrategy } from "../../model/strategy";
import { clusterId } from "../core/context";
import type { ArmScope } from "../ports";
import { gateArmId } from "./fleetGates";
import { FLEETS, fleetId, type FleetMemberRecord, type FleetRecord, type RunLimits, type RunRecord, type StrategyRecord } from "./fleetState";
import { FLEET_STATES, MEMBER_STATES, provisioningStateOf } from "./resourceOperations";
import { systemData } from "./systemData";

function eTag(value: unknown): string {
  return crypto.createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}

/**
 * A fleet as Fleet shows it: its last operation's `provisioningState` (Creating, Updating, Deleting
 * while it runs) and `status.lastOperationId`; `tags` and `identity` only when it has them.
 */
export function fleetBody(scope: ArmScope, fleet: FleetRecord, now: number): Record<string, unknown> {
  const properties = { provisioningState: provisioningStateOf(fleet.lastOperation, now, FLEET_STATES), status: { lastOperationId: fleet.lastOperation.operationId } };
  const tags = Object.keys(fleet.tags).length === 0 ? {} : { tags: fleet.tags };
  const identity = fleet.identity === undefined ? {} : { identity: fleet.identity };
  return {
    id: fleetId(scope, fleet.name),
    name: fleet.name,
    type: FLEETS,
    location: fleet.location,
    ...tags,
    ...identity,
    systemData: systemData(fleet.createdAt, fleet.modifiedAt),
    eTag: eTag({ properties, ...tags, ...identity }),
    properties,
  };
}

/** The member's cluster id: declared, or the emulated cluster in the scope the fleet is addressed in. */
export function memberClusterId(scope: ArmScope, member: FleetMemberRecord): string {
  return member.clusterResourceId ?? clusterId(scope, member.cluster);
}

/** The labels Fleet puts on every member, from its cluster (a member's own labels cannot change them). */
export const SYSTEM_LABEL_PREFIX = "fleet.azure.com/";

/** The member's labels as Fleet shows them: its own, and Fleet's five `fleet.azure.com/*` (what a `memberSelector` sees too). */
export function memberLabels(scope: ArmScope, member: FleetMemberRecord): Record<string, string> {
  const id = memberClusterId(scope, member);
  const [, subscription = "", resourceGroup = ""] = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\//i.exec(id) ?? [];
  return {
    ...member.labels,
    [`${SYSTEM_LABEL_PREFIX}cluster-name`]: id.split("/").at(-1) ?? member.cluster,
    [`${SYSTEM_LABEL_PREFIX}location`]: member.location,
    [`${SYSTEM_LABEL_PREFIX}member-name`]: member.name,
    [`${SYSTEM_LABEL_PREFIX}resource-group`]: resourceGroup,
    [`${SYSTEM_LABEL_PREFIX}subscription-id`]: subscription,
  };
}

/** A member's eTag: a digest of what it holds and where its last operation is, the same at every api-version (its labels included). */
function memberETag(member: FleetMemberRecord, state: string): string {
  return eTag({ cluster: member.cluster, clusterResourceId: member.clusterResourceId ?? null, group: member.group ?? null, labels: member.labels ?? null, state, operation: member.lastOperation.operationId });
}

/**
 * A fleet member at `api`: `labels` (its own and Fleet's five) at a version that has them (from
 * 2025-04-01-preview), `provisioningState` of its last operation (Joining, Updating, Leaving while it
 * runs), `status.lastOperationId`, `systemData`.
 */
export function memberBody(scope: ArmScope, fleet: FleetRecord, member: FleetMemberRecord, api: FleetApiFeatures, now: number): Record<string, unknown> {
  const provisioningState = provisioningStateOf(member.lastOperation, now, MEMBER_STATES);
  const properties = {
    clusterResourceId: memberClusterId(scope, member),
    ...(member.group === undefined ? {} : { group: member.group }),
    ...(api.memberLabels ? { labels: memberLabels(scope, member) } : {}),
    provisioningState,
    status: { lastOperationId: member.lastOperation.operationId },
  };
  return {
    id: `${fleetId(scope, fleet.name)}/members/${member.name}`,
    name: member.name,
    type: `${FLEETS}/members`,
    systemData: systemData(member.createdAt, member.modifiedAt),
    eTag: memberETag(member, provisioningState),
    properties,
  };
}

/** The member's eTag now (what `If-Match` is checked against). */
export function currentMemberETag(scope: ArmScope, fleet: FleetRecord, member: FleetMemberRecord, api: FleetApiFeatures, now: number): string {
  return memberBody(scope, fleet, member, api, now).eTag as string;
}

export function strategyETag(strategy: StrategyRecord): string {
  return eTag(strategy.strategy);
}

export function strategyBody(scope: ArmScope, fleet: FleetRecord, strategy: StrategyRecord, api: FleetApiFeatures): Record<string, unknown> {
  return {
    id: `${fleetId(scope, fleet.name)}/updateStrategies/${strategy.name}`,
    name: strategy.name,
    type: `${FLEETS}/updateStrategies`,
    systemData: systemData(strategy.createdAt, strategy.modifiedAt),
    eTag: strategyETag(strategy),
    properties: { provisioningState: "Succeeded", strategy: strategyAt(strategy.strategy, api) },
  };
}

/**
 * A strategy with only the fields `api` has (a strategy written at a newer version, read at an older
 * one). Before 2026-06-02-preview that drops `memberSelector` and ScheduledStart gates (their type is
 * no `GateType` value there): an older reader sees the approval gates, whose positions then shift.
 */
export function strategyAt(strategy: UpdateRunStrategy, api: FleetApiFeatures): { stages: Array<Omit<UpdateRunStrategy["stages"][number], "groups"> & { groups?: UpdateRunStrategy["stages"][number]["groups"] }> } {
  const gatesAt = (gates: Gate[] | undefined): Gate[] | undefined => (gates === undefined || api.scheduledStartGates ? gates : gates.filter((g) => g.type !== "ScheduledStart"));
  const controls = <T extends { maxConcurrency?: string; maxAllowedFailures?: string; memberSelector?: unknown; beforeGates?: Gate[]; afterGates?: Gate[] }>(item: T): T => {
    const out = { ...item };
    if (!api.maxConcurrency) delete out.maxConcurrency;
    if (!api.maxAllowedFailures) delete out.maxAllowedFailures;
    if (!api.memberSelector) delete out.memberSelector;
    if (!api.gates) {
      delete out.beforeGates;
      delete out.afterGates;
    } else if (!api.scheduledStartGates) {
      const before = gatesAt(out.beforeGates);
      if (before === undefined || before.length === 0) delete out.beforeGates;
      else out.beforeGates = before;
    }
    return out;
  };
  // Shown as written: a stage chosen by label with no groups is echoed without the implicit group our
  // model wrote out for it, as Fleet's UpdateStrategies_CreateOrUpdate example echoes such a stage.
  const shown = (stage: UpdateRunStrategy["stages"][number]) => {
    const { groups, ...rest } = controls(stage);
    if (api.memberSelector && groups.length === 1 && isImplicitGroup(stage, groups[0] as (typeof groups)[number])) return rest;
    return { ...rest, groups: groups.map(controls) };
  };
  return { stages: strategy.stages.map(shown) };
}

/** The run's properties with every field any version has (the eTag is taken over these). */
function fullRunProperties(run: RunRecord): { strategy: UpdateRunStrategy; status: UpdateRunStatus } & Record<string, unknown> {
  return {
    provisioningState: "Succeeded",
    ...(run.updateStrategyId === undefined ? {} : { updateStrategyId: run.updateStrategyId }),
    strategy: run.strategy ?? defaultStrategy(),
    managedClusterUpdate: run.managedClusterUpdate,
    status: run.engine.status(),
    ...(run.autoUpgradeProfileId === undefined ? {} : { autoUpgradeProfileId: run.autoUpgradeProfileId }),
  };
}

/** The run as GET shows it now, at `api`: its spec, and its live `status` (Fleet's `UpdateRunStatus`, docs/rules.md §5). */
export function runBody(scope: ArmScope, fleet: FleetRecord, run: RunRecord, api: FleetApiFeatures): Record<string, unknown> {
  const full = fullRunProperties(run);
  const properties = {
    ...full,
    strategy: strategyAt(full.strategy, api),
    status: statusAt(full.status, run, api, (gateId) => gateArmId(scope, fleet, run.name, gateId)),
  };
  return {
    id: `${fleetId(scope, fleet.name)}/updateRuns/${run.name}`,
    name: run.name,
    type: `${FLEETS}/updateRuns`,
    systemData: systemData(run.createdAt, run.modifiedAt),
    eTag: eTag({ ...full, gates: [...run.gatesReached.keys()] }),
    properties,
  };
}

/**
 * The engine's status as `api` shows it: gates (from 2025-04-01-preview; a gate names its resource by
 * ARM id once the run has reached it, as Fleet makes the resource then, and has no `gateId` before),
 * the resolved `maxConcurrency` of each stage (when its strategy set one) and group (from 2026-06-01),
 * `maxAllowedFailures` (when set) and `failureCount` (run, stage, group; 2026-06-02-preview).
 */
function statusAt(status: UpdateRunStatus, run: RunRecord, api: FleetApiFeatures, armId: (gateId: string) => string): Record<string, unknown> {
  const stageLimits: RunLimits["stages"] = run.limits.stages;
  // As in Fleet's examples, `failureCount` shows (run, stages, groups) when the run's strategy uses
  // failure tolerance (a `maxAllowedFailures` anywhere), and each `maxAllowedFailures` where it is set.
  const counted = api.maxAllowedFailures && stageLimits.some((s) => s.maxAllowedFailures !== undefined || s.groups.some((g) => g.maxAllowedFailures !== undefined));
  // Fleet's run status lists a ScheduledStart gate as any other (its instant is on the gate resource);
  // a version without them shows none, as its strategy does (`strategyAt`).
  const gates = (list: GateStatus[] | undefined) => {
    const shown = list?.filter((g) => api.scheduledStartGates || g.scheduledStartProperties === undefined);
    return shown === undefined || shown.length === 0 ? undefined : shown.map((g) => ({ displayName: g.displayName, ...(run.gatesReached.has(g.gateId) ? { gateId: armId(g.gateId) } : {}), status: g.status }));
  };
  const gateFields = (x: { beforeGates?: GateStatus[]; afterGates?: GateStatus[] }) => {
    if (!api.gates) return {};
    const before = gates(x.beforeGates);
    const after = gates(x.afterGates);
    return { ...(before === undefined ? {} : { beforeGates: before }), ...(after === undefined ? {} : { afterGates: after }) };
  };
  const limits = (failureCount: number, limit: { maxConcurrency?: number; maxAllowedFailures?: number } | undefined) => ({
    ...(counted ? { failureCount } : {}),
    ...(api.maxAllowedFailures && limit?.maxAllowedFailures !== undefined ? { maxAllowedFailures: limit.maxAllowedFailures } : {}),
    ...(api.maxConcurrency && limit?.maxConcurrency !== undefined ? { maxConcurrency: limit.maxConcurrency } : {}),
  });
  // Fleet's swagger sets `nodeImageSelection` "only when NodeImageSelection.type is Consistent"; the
  // live service shows `{}` for Latest (test_fleet_hubless). The emulator also shows Custom's versions,
  // which our client reads for the images a run applied (docs: emulator README).
  const selection = run.managedClusterUpdate.nodeImageSelection?.type ?? "Latest";
  return {
    status: status.status,
    stages: status.stages.map((stage, s) => ({
      status: stageStatus(stage),
      name: stage.name,
      ...limits(stage.failureCount, stageLimits[s]),
      groups: stage.groups.map((group, g) => ({
        status: group.status,
        name: group.name,
        ...limits(group.failureCount, stageLimits[s]?.groups[g]),
        // As Fleet: a group with no members has no `members`, and a member not started carries no
        // message (our engine's reason why is ours, not Fleet's).
        ...(group.members.length === 0 ? {} : { members: group.members.map(fleetMember) }),
        ...gateFields(group),
      })),
      ...gateFields(stage),
      ...(stage.afterStageWaitStatus === undefined ? {} : { afterStageWaitStatus: stage.afterStageWaitStatus }),
    })),
    nodeImageSelection: selection === "Latest" ? {} : status.nodeImageSelection,
    ...(counted ? { failureCount: status.failureCount } : {}),
  };
}

/**
 * A stage's status as Fleet shows it: no `startTime` while none of its groups has started (the stage
 * waits at its before-gates; our engine's `startTime` is when the run reached it).
 */
function stageStatus(stage: UpdateRunStatus["stages"][number]): UpdateRunStatus["stages"][number]["status"] {
  if (stage.status.startTime === undefined || stage.groups.some((g) => g.status.state !== "NotStarted")) return stage.status;
  const { startTime: _reached, ...rest } = stage.status;
  return rest;
}

/** A member's status as Fleet shows it: no `message` while NotStarted (Fleet gives none). */
function fleetMember(member: MemberUpdateStatus): MemberUpdateStatus {
  if (member.status.state !== "NotStarted" || member.message === undefined) return member;
  const { message: _reason, ...rest } = member;
  return rest;
}

/** The run's eTag: the same at every api-version. */
export function runETag(run: RunRecord): string {
  return eTag({ ...fullRunProperties(run), gates: [...run.gatesReached.keys()] });
}

export function list(values: unknown[]): { value: unknown[] } {
  return { value: values };
}
