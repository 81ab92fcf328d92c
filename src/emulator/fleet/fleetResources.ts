/**
 * Fleet Manager's ARM bodies (api-versions 2025-03-01 and 2025-04-01-preview, which adds gates):
 * Fleet, FleetMember, FleetUpdateStrategy, UpdateRun. As for clusters, `eTag` is a digest of what the
 * resource shows, so it changes with every change (a run's status included) and only then.
 */
import crypto from "node:crypto";
import { defaultStrategy } from "../../engine/plan";
import type { GateStatus, UpdateRunStatus } from "../../model/status";
import { clusterId } from "../core/context";
import type { ArmScope } from "../ports";
import { gateArmId } from "./fleetGates";
import { FLEETS, fleetId, type FleetMemberRecord, type FleetRecord, type RunRecord, type StrategyRecord } from "./fleetState";

function eTag(value: unknown): string {
  return crypto.createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}

export function fleetBody(scope: ArmScope, fleet: FleetRecord): Record<string, unknown> {
  const properties = { provisioningState: "Succeeded" };
  return {
    id: fleetId(scope, fleet.name),
    name: fleet.name,
    type: FLEETS,
    location: fleet.location,
    tags: fleet.tags,
    eTag: eTag({ properties, tags: fleet.tags }),
    properties,
  };
}

/** The member's cluster id: declared, or the emulated cluster in the scope the fleet is addressed in. */
export function memberClusterId(scope: ArmScope, member: FleetMemberRecord): string {
  return member.clusterResourceId ?? clusterId(scope, member.cluster);
}

export function memberBody(scope: ArmScope, fleet: FleetRecord, member: FleetMemberRecord): Record<string, unknown> {
  const properties = {
    clusterResourceId: memberClusterId(scope, member),
    ...(member.group === undefined ? {} : { group: member.group }),
    provisioningState: "Succeeded",
  };
  return { id: `${fleetId(scope, fleet.name)}/members/${member.name}`, name: member.name, type: `${FLEETS}/members`, eTag: eTag(properties), properties };
}

export function strategyETag(strategy: StrategyRecord): string {
  return eTag(strategy.strategy);
}

export function strategyBody(scope: ArmScope, fleet: FleetRecord, strategy: StrategyRecord): Record<string, unknown> {
  return {
    id: `${fleetId(scope, fleet.name)}/updateStrategies/${strategy.name}`,
    name: strategy.name,
    type: `${FLEETS}/updateStrategies`,
    eTag: strategyETag(strategy),
    properties: { provisioningState: "Succeeded", strategy: strategy.strategy },
  };
}

/** The run as GET shows it now: its spec, and its live `status` (Fleet's `UpdateRunStatus`, docs/rules.md §5). */
export function runBody(scope: ArmScope, fleet: FleetRecord, run: RunRecord): Record<string, unknown> {
  const properties = {
    provisioningState: "Succeeded",
    ...(run.updateStrategyId === undefined ? {} : { updateStrategyId: run.updateStrategyId }),
    strategy: run.strategy ?? defaultStrategy(),
    managedClusterUpdate: run.managedClusterUpdate,
    status: withGateArmIds(run.engine.status(), (gateId) => gateArmId(scope, fleet, run.name, gateId)),
  };
  return { id: `${fleetId(scope, fleet.name)}/updateRuns/${run.name}`, name: run.name, type: `${FLEETS}/updateRuns`, eTag: eTag(properties), properties };
}

/** Fleet names a gate in a run's status by the gate resource's ARM id (our engine: by `canary/after/0`). */
function withGateArmIds(status: UpdateRunStatus, armId: (gateId: string) => string): UpdateRunStatus {
  const map = (gates: GateStatus[] | undefined) => gates?.map((g) => ({ ...g, gateId: armId(g.gateId) }));
  const item = <T extends { beforeGates?: GateStatus[]; afterGates?: GateStatus[] }>(x: T): T => {
    const out = { ...x };
    if (x.beforeGates !== undefined) out.beforeGates = map(x.beforeGates);
    if (x.afterGates !== undefined) out.afterGates = map(x.afterGates);
    return out;
  };
  return { ...status, stages: status.stages.map((stage) => ({ ...item(stage), groups: stage.groups.map(item) })) };
}

export function runETag(scope: ArmScope, fleet: FleetRecord, run: RunRecord): string {
  return runBody(scope, fleet, run).eTag as string;
}

export function list(values: unknown[]): { value: unknown[] } {
  return { value: values };
}
