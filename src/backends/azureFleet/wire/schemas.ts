/**
 * The update-run, update-strategy and gate definitions of Fleet Manager's `fleets.json`, as zod
 * schemas, for one api-version's features (`versions.ts`). Each object is strict: a field the version
 * does not define is an issue naming the field and its definition (ARM: "Could not find member 'x' on
 * object of type 'UpdateStage'"), and each enum holds exactly the version's values. Read-only fields
 * (status, provisioningState, eTag, systemData, ...) are optional: a body read from the service can be
 * sent back, and the service ignores them.
 *
 * The same schemas serve both ends: the emulator checks request bodies with them (`src/emulator/fleet/
 * fleetValidation.ts`), and tests check the emulator's answers with them. `definitions` maps each
 * swagger definition name to its schema, `enums` each enum's values, so that a test compares them with
 * the official definitions (`test/azureFleet/wireSwagger.test.ts`).
 */
import { z } from "zod";
import { FIRST_VERSION_WITH, type FleetApiFeatures } from "./versions";

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const CONCURRENCY = /^(?:([1-9]\d*)|([1-9]\d?|100)%)$/;
const FAILURES = /^(?:0|[1-9]\d*|(?:0|[1-9]\d?|100)%)$/;
const HH_MM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const UTC_OFFSET = /^[+-]((0[0-9]|1[0-3]):[0-5][0-9]|14:00)$/;
export const DAYS_OF_WEEK = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

/** The marker an unknown-field issue carries: the definition's name (see `wireIssues`). */
const UNKNOWN_MEMBER = "unknown-member:";

/** What ARM's resource envelope adds (`ProxyResource`; `TrackedResource` adds `location` and `tags`). */
const SystemDataSchema = z.strictObject({
  createdBy: z.string().optional(),
  createdByType: z.string().optional(),
  createdAt: z.string().optional(),
  lastModifiedBy: z.string().optional(),
  lastModifiedByType: z.string().optional(),
  lastModifiedAt: z.string().optional(),
});
const ErrorDetailSchema = z.looseObject({ code: z.string().optional(), message: z.string().optional() });

function proxyResource(tracked: boolean) {
  return {
    id: z.string().optional(),
    name: z.string().optional(),
    type: z.string().optional(),
    systemData: SystemDataSchema.optional(),
    ...(tracked ? { location: z.string().optional(), tags: z.record(z.string(), z.string()).optional() } : {}),
  };
}

export function fleetWireSchemas(f: FleetApiFeatures) {
  const version = f.version;
  const object = <S extends z.ZodRawShape>(definition: string, shape: S) =>
    z.strictObject(shape, { error: (issue) => (issue.code === "unrecognized_keys" ? `${UNKNOWN_MEMBER}${definition}` : undefined) });
  const oneOf = <const T extends readonly [string, ...string[]]>(definition: string, values: T) =>
    z.enum(values, {
      error: (issue) => {
        if (issue.input === undefined) return undefined;
        const since = typeof issue.input === "string" ? FIRST_VERSION_WITH[`${definition}.${issue.input}`] : undefined;
        const where = since === undefined ? "" : ` (it is in api-version ${since})`;
        return `the value ${JSON.stringify(issue.input)} is not valid for ${definition} at api-version ${version}${where}; allowed: ${values.join(", ")}`;
      },
    });
  const name = z.string().min(1).max(50).regex(NAME, "must be a DNS label: lowercase letters, digits and '-', at most 50");
  const nonEmpty = <T extends readonly string[]>(values: T) => values as unknown as readonly [string, ...string[]];

  // Enums (requests take exactly these; `UpdateState` is extensible, so a response may carry more).
  const enums = {
    ManagedClusterUpgradeType: ["Full", "NodeImageOnly", "ControlPlaneOnly"],
    NodeImageSelectionType: ["Latest", "Consistent", "Custom"],
    TargetType: ["Member", "Group", "Stage", "AfterStageWait"],
    UpdateState: [...f.updateStates],
    UpdateRunProvisioningState: ["Succeeded", "Failed", "Canceled"],
    FleetUpdateStrategyProvisioningState: ["Succeeded", "Failed", "Canceled"],
    ...(f.gates
      ? {
          GateType: [...f.gateTypes],
          GateState: [...f.gateStates],
          Timing: ["Before", "After"],
          GateProvisioningState: ["Succeeded", "Failed", "Canceled"],
        }
      : {}),
    ...(f.gateTarget === "typedProperties" && f.gates ? { GateTargetType: ["UpdateRun"] } : {}),
    ...(f.scheduledStartGates ? { DayOfWeek: [...DAYS_OF_WEEK] } : {}),
  } as Record<string, string[]>;

  const UpdateStatus = object("UpdateStatus", {
    startTime: z.string().optional(),
    completedTime: z.string().optional(),
    state: z.string().optional(),
    error: ErrorDetailSchema.nullable().optional(),
  });
  const NodeImageVersion = object("NodeImageVersion", { version: z.string().optional() });
  const MemberSelector = object("MemberSelector", { byLabel: z.string().max(512) });
  const ScheduledStartConfiguration = object("ScheduledStartConfiguration", {
    startDay: oneOf("DayOfWeek", DAYS_OF_WEEK),
    startTime: z.string().regex(HH_MM, "must be HH:mm (24-hour)"),
    utcOffset: z.string().regex(UTC_OFFSET, "must be an offset from -14:00 to +14:00"),
  });
  const ScheduledStartProperties = object("ScheduledStartProperties", {
    startDay: oneOf("DayOfWeek", DAYS_OF_WEEK),
    startTime: z.string(),
    utcOffset: z.string(),
    absoluteStartTime: z.string().optional(),
  });
  const displayName = f.gateDisplayNamePattern ? z.string().min(1).max(100).regex(/^[A-Za-z0-9].*$/, "must start with a letter or a digit") : z.string().min(1).max(100);
  const GateConfiguration = object("GateConfiguration", {
    displayName: displayName.optional(),
    type: oneOf("GateType", nonEmpty(f.gateTypes.length > 0 ? f.gateTypes : ["Approval"])),
    ...(f.scheduledStartGates ? { scheduledStartConfiguration: ScheduledStartConfiguration.optional() } : {}),
  });
  const gates: z.ZodRawShape = f.gates ? { beforeGates: z.array(GateConfiguration).optional(), afterGates: z.array(GateConfiguration).optional() } : {};
  const concurrency: z.ZodRawShape = f.maxConcurrency ? { maxConcurrency: z.string().regex(CONCURRENCY, "must be a count from 1 (\"3\") or a percentage from 1% to 100% (\"25%\")").optional() } : {};
  const failures: z.ZodRawShape = f.maxAllowedFailures ? { maxAllowedFailures: z.string().regex(FAILURES, "must be a count from 0 (\"2\") or a percentage from 0% to 100% (\"10%\")").optional() } : {};
  const selector: z.ZodRawShape = f.memberSelector ? { memberSelector: MemberSelector.optional() } : {};

  const UpdateGroup = object("UpdateGroup", { name, ...failures, ...concurrency, ...selector, ...gates });
  const UpdateStage = object("UpdateStage", {
    name,
    groups: z.array(UpdateGroup).optional(),
    ...selector,
    afterStageWaitInSeconds: z.number().int().optional(),
    ...failures,
    ...concurrency,
    ...gates,
  });
  const UpdateRunStrategy = object("UpdateRunStrategy", { stages: z.array(UpdateStage) });
  const ManagedClusterUpgradeSpec = object("ManagedClusterUpgradeSpec", {
    type: oneOf("ManagedClusterUpgradeType", ["Full", "NodeImageOnly", "ControlPlaneOnly"]),
    kubernetesVersion: z.string().optional(),
  });
  const NodeImageSelection = object("NodeImageSelection", {
    type: oneOf("NodeImageSelectionType", ["Latest", "Consistent", "Custom"]),
    customNodeImageVersions: z.array(NodeImageVersion).optional(),
  });
  const ManagedClusterUpdate = object("ManagedClusterUpdate", { upgrade: ManagedClusterUpgradeSpec, nodeImageSelection: NodeImageSelection.optional() });

  const UpdateRunGateStatus = object("UpdateRunGateStatus", { displayName: z.string().optional(), gateId: z.string().optional(), status: UpdateStatus.optional() });
  const gateStatus: z.ZodRawShape = f.gates ? { beforeGates: z.array(UpdateRunGateStatus).optional(), afterGates: z.array(UpdateRunGateStatus).optional() } : {};
  const counts: z.ZodRawShape = f.maxAllowedFailures ? { failureCount: z.number().int().optional(), maxAllowedFailures: z.number().int().optional() } : {};
  const resolvedConcurrency: z.ZodRawShape = f.maxConcurrency ? { maxConcurrency: z.number().int().optional() } : {};
  const MemberUpdateStatus = object("MemberUpdateStatus", {
    status: UpdateStatus.optional(),
    name: z.string().optional(),
    clusterResourceId: z.string().optional(),
    operationId: z.string().optional(),
    message: z.string().optional(),
  });
  const UpdateGroupStatus = object("UpdateGroupStatus", {
    status: UpdateStatus.optional(),
    name: z.string().optional(),
    ...counts,
    ...resolvedConcurrency,
    members: z.array(MemberUpdateStatus).optional(),
    ...gateStatus,
  });
  const WaitStatus = object("WaitStatus", { status: UpdateStatus.optional(), waitDurationInSeconds: z.number().int().optional() });
  const UpdateStageStatus = object("UpdateStageStatus", {
    status: UpdateStatus.optional(),
    name: z.string().optional(),
    ...counts,
    ...resolvedConcurrency,
    groups: z.array(UpdateGroupStatus).optional(),
    ...gateStatus,
    afterStageWaitStatus: WaitStatus.nullable().optional(),
  });
  const NodeImageSelectionStatus = object("NodeImageSelectionStatus", { selectedNodeImageVersions: z.array(NodeImageVersion).optional() });
  const UpdateRunStatus = object("UpdateRunStatus", {
    status: UpdateStatus.optional(),
    stages: z.array(UpdateStageStatus).optional(),
    nodeImageSelection: NodeImageSelectionStatus.optional(),
    ...(f.maxAllowedFailures ? { failureCount: z.number().int().optional() } : {}),
  });
  const UpdateRunProperties = object("UpdateRunProperties", {
    provisioningState: z.string().optional(),
    updateStrategyId: z.string().optional(),
    strategy: UpdateRunStrategy.optional(),
    managedClusterUpdate: ManagedClusterUpdate,
    status: UpdateRunStatus.optional(),
    autoUpgradeProfileId: z.string().optional(),
  });
  const UpdateRun = object("UpdateRun", { ...proxyResource(false), properties: UpdateRunProperties, eTag: z.string().optional() });
  const FleetUpdateStrategyProperties = object("FleetUpdateStrategyProperties", { provisioningState: z.string().optional(), strategy: UpdateRunStrategy });
  const FleetUpdateStrategy = object("FleetUpdateStrategy", { ...proxyResource(false), properties: FleetUpdateStrategyProperties, eTag: z.string().optional() });
  const SkipTarget = object("SkipTarget", { type: oneOf("TargetType", ["Member", "Group", "Stage", "AfterStageWait"]), name: z.string() });
  const SkipProperties = object("SkipProperties", { targets: z.array(SkipTarget) });

  // Gates (from 2025-04-01-preview). The target's shape changed at 2026-06-01 (`versions.ts`).
  const gateState = oneOf("GateState", nonEmpty(f.gateStates.length > 0 ? f.gateStates : ["Pending"]));
  const targetName = z.string().optional();
  const UpdateRunGateTarget = object("UpdateRunGateTarget", { name: targetName, stage: targetName, group: targetName, timing: oneOf("Timing", ["Before", "After"]) });
  const typedTarget = f.gateTarget === "typedProperties";
  const UpdateRunGateTargetProperties = typedTarget
    ? object("UpdateRunGateTargetProperties", { updateRun: UpdateRunGateTarget })
    : object("UpdateRunGateTargetProperties", { name: targetName, stage: targetName, group: targetName, timing: oneOf("Timing", ["Before", "After"]) });
  const GateTarget = typedTarget
    ? object("GateTarget", { id: z.string(), type: oneOf("GateTargetType", ["UpdateRun"]), properties: UpdateRunGateTargetProperties })
    : object("GateTarget", { id: z.string(), updateRunProperties: UpdateRunGateTargetProperties.optional() });
  const GateProperties = object("GateProperties", {
    provisioningState: z.string().optional(),
    displayName: z.string().optional(),
    gateType: oneOf("GateType", nonEmpty(f.gateTypes.length > 0 ? f.gateTypes : ["Approval"])),
    ...(f.scheduledStartGates ? { scheduledStartProperties: ScheduledStartProperties.optional() } : {}),
    target: GateTarget,
    state: gateState,
  });
  const Gate = object("Gate", { ...proxyResource(typedTarget), properties: GateProperties, eTag: z.string().optional() });
  // The PATCH body: 2025-04-01-preview `GateUpdate {properties: GatePropertiesUpdate}` (a tracked
  // resource: its envelope is accepted), later `GatePatch {properties?: GatePatchProperties}`.
  const GatePatchProperties = object(typedTarget ? "GatePropertiesUpdate" : "GatePatchProperties", { state: gateState.optional() });
  const GatePatch = object(typedTarget ? "GateUpdate" : "GatePatch", {
    ...(typedTarget ? proxyResource(true) : {}),
    properties: typedTarget ? GatePatchProperties : GatePatchProperties.optional(),
  });

  const definitions: Record<string, z.ZodObject> = {
    UpdateRun,
    UpdateRunProperties,
    UpdateRunStrategy,
    UpdateStage,
    UpdateGroup,
    ManagedClusterUpdate,
    ManagedClusterUpgradeSpec,
    NodeImageSelection,
    NodeImageVersion,
    UpdateRunStatus,
    UpdateStageStatus,
    UpdateGroupStatus,
    MemberUpdateStatus,
    UpdateStatus,
    WaitStatus,
    NodeImageSelectionStatus,
    FleetUpdateStrategy,
    FleetUpdateStrategyProperties,
    SkipProperties,
    SkipTarget,
    ...(f.gates
      ? {
          GateConfiguration,
          UpdateRunGateStatus,
          Gate,
          GateProperties,
          GateTarget,
          UpdateRunGateTargetProperties,
          [typedTarget ? "GateUpdate" : "GatePatch"]: GatePatch,
          [typedTarget ? "GatePropertiesUpdate" : "GatePatchProperties"]: GatePatchProperties,
        }
      : {}),
    ...(f.gates && typedTarget ? { UpdateRunGateTarget } : {}),
    ...(f.memberSelector ? { MemberSelector } : {}),
    ...(f.scheduledStartGates ? { ScheduledStartConfiguration, ScheduledStartProperties } : {}),
  };

  return {
    version,
    features: f,
    UpdateRun,
    UpdateRunStatus,
    FleetUpdateStrategy,
    SkipProperties,
    Gate,
    GatePatch,
    definitions,
    enums,
    /** Each enum a request field takes, by definition name (for the swagger check). */
  };
}

export type FleetWireSchemas = ReturnType<typeof fleetWireSchemas>;

/** A field problem of a request body, by its path in the request. */
export interface WireIssue {
  path: string;
  message: string;
}

/**
 * A zod error of these schemas as field issues: an unknown field becomes ARM's "Could not find member
 * 'x' on object of type 'T'", with the api-version that has it when one of ours does.
 */
export function wireIssues(error: z.ZodError, version: string, formatPath: (path: ReadonlyArray<PropertyKey>) => string): WireIssue[] {
  return error.issues.flatMap((issue): WireIssue[] => {
    if (issue.code === "unrecognized_keys") {
      const definition = issue.message.startsWith(UNKNOWN_MEMBER) ? issue.message.slice(UNKNOWN_MEMBER.length) : "object";
      return issue.keys.map((key) => {
        const since = FIRST_VERSION_WITH[key];
        const where = since === undefined ? "" : `; it is in api-version ${since}`;
        return { path: formatPath([...issue.path, key]), message: `Could not find member '${key}' on object of type '${definition}' at api-version ${version}${where}` };
      });
    }
    return [{ path: formatPath(issue.path), message: issue.message }];
  });
}
