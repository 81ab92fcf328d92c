/**
 * The Fleet Manager api-versions this project knows, and what each one has (the update-run, update-
 * strategy and gate parts of `fleets.json`, Azure/azure-rest-api-specs
 * `specification/containerservice/resource-manager/Microsoft.ContainerService/fleet/{stable,preview}/<version>/`).
 * Each version's wire module (`v2025_03_01.ts`, ...) is generated from the official definitions
 * vendored under `test/fixtures/fleet-swagger/<version>/` (`scripts/gen-fleet-wire.js`), and
 * `test/backends/azureFleet/wireSwagger.test.ts` checks it against them field by field; the features here say
 * what the emulator shows at each version, and are checked against the modules by the same test.
 */

export const FLEET_API_VERSIONS = ["2025-03-01", "2025-04-01-preview", "2026-06-01", "2026-06-02-preview"] as const;
export type FleetApiVersion = (typeof FLEET_API_VERSIONS)[number];

export function isFleetApiVersion(value: string): value is FleetApiVersion {
  return (FLEET_API_VERSIONS as readonly string[]).includes(value);
}

export interface FleetApiFeatures {
  version: FleetApiVersion;
  /** `beforeGates` / `afterGates` on stages and groups, gates in the status, `fleets/{f}/gates`. */
  gates: boolean;
  /** `GateType` values. */
  gateTypes: readonly string[];
  /** `GateState` values. */
  gateStates: readonly string[];
  /** `maxConcurrency` on stages and groups (a string), and the resolved integer in their status. */
  maxConcurrency: boolean;
  /** `maxAllowedFailures` on stages and groups, the resolved integer and `failureCount` in the status (run, stage, group). */
  maxAllowedFailures: boolean;
  /** `memberSelector: {byLabel}` on stages and groups. */
  memberSelector: boolean;
  /** `ScheduledStart` gates: `scheduledStartConfiguration` on a gate configuration, `scheduledStartProperties` on the gate. */
  scheduledStartGates: boolean;
  /**
   * A fleet member's `labels` (`FleetMemberProperties`, `FleetMemberUpdateProperties`): what a
   * `memberSelector` selects by. From 2025-04-01-preview (its swagger as updated in place, and the
   * live service: the recorded `test_fleet_hubless`); 2025-03-01 has none. Every version's fixture
   * carries the member definitions, so `wireSwagger.test.ts` checks this against each.
   */
  memberLabels: boolean;
  /**
   * `UpdateState` values (an extensible enum: a response may carry others). Every version has `Pending`
   * (2025-03-01 since its swagger's update at ca2bc85; the first copy, 0042c60, lacked it).
   */
  updateStates: readonly string[];
  /**
   * `fleets/{f}/autoUpgradeProfiles` (every version here): `UpgradeChannel` values — `TargetKubernetesVersion`
   * (with `targetKubernetesVersion`, `longTermSupport`) from 2025-04-01-preview, `SecurityPatch` at 2026-06-02-preview.
   */
  autoUpgradeChannels: readonly string[];
  /** `autoUpgradeProfiles/{p}/generateUpdateRun` and the profile's `autoUpgradeProfileStatus` (every version here). */
  generateUpdateRun: boolean;
}

const THREE_CHANNELS = ["Stable", "Rapid", "NodeImage"] as const;
const FOUR_CHANNELS = ["Stable", "Rapid", "NodeImage", "TargetKubernetesVersion"] as const;
const FIVE_CHANNELS = ["Stable", "Rapid", "NodeImage", "TargetKubernetesVersion", "SecurityPatch"] as const;
const STATES_WITH_PENDING = ["NotStarted", "Running", "Stopping", "Stopped", "Skipped", "Failed", "Pending", "Completed"] as const;

export const FLEET_API_FEATURES: Readonly<Record<FleetApiVersion, FleetApiFeatures>> = {
  "2025-03-01": {
    version: "2025-03-01",
    gates: false,
    gateTypes: [],
    gateStates: [],
    maxConcurrency: false,
    maxAllowedFailures: false,
    memberSelector: false,
    scheduledStartGates: false,
    memberLabels: false,
    updateStates: STATES_WITH_PENDING,
    autoUpgradeChannels: THREE_CHANNELS,
    generateUpdateRun: true,
  },
  "2025-04-01-preview": {
    version: "2025-04-01-preview",
    gates: true,
    gateTypes: ["Approval"],
    gateStates: ["Pending", "Skipped", "Completed"],
    maxConcurrency: false,
    maxAllowedFailures: false,
    memberSelector: false,
    scheduledStartGates: false,
    memberLabels: true,
    updateStates: STATES_WITH_PENDING,
    autoUpgradeChannels: FOUR_CHANNELS,
    generateUpdateRun: true,
  },
  "2026-06-01": {
    version: "2026-06-01",
    gates: true,
    gateTypes: ["Approval"],
    gateStates: ["Pending", "Skipped", "Completed"],
    maxConcurrency: true,
    maxAllowedFailures: false,
    memberSelector: false,
    scheduledStartGates: false,
    memberLabels: true,
    updateStates: STATES_WITH_PENDING,
    autoUpgradeChannels: FOUR_CHANNELS,
    generateUpdateRun: true,
  },
  "2026-06-02-preview": {
    version: "2026-06-02-preview",
    gates: true,
    gateTypes: ["Approval", "ScheduledStart"],
    gateStates: ["Pending", "Skipped", "Completed"],
    maxConcurrency: true,
    maxAllowedFailures: true,
    memberSelector: true,
    scheduledStartGates: true,
    memberLabels: true,
    updateStates: STATES_WITH_PENDING,
    autoUpgradeChannels: FIVE_CHANNELS,
    generateUpdateRun: true,
  },
};

/**
 * The first of our api-versions with a request field (by its name in the body) or an enum value
 * (`Enum.value`): what a 400 for a field the version lacks points to.
 */
export const FIRST_VERSION_WITH: Readonly<Record<string, FleetApiVersion>> = {
  beforeGates: "2025-04-01-preview",
  afterGates: "2025-04-01-preview",
  maxConcurrency: "2026-06-01",
  maxAllowedFailures: "2026-06-02-preview",
  memberSelector: "2026-06-02-preview",
  scheduledStartConfiguration: "2026-06-02-preview",
  "GateType.ScheduledStart": "2026-06-02-preview",
  "GateState.Skipped": "2025-04-01-preview",
  labels: "2025-04-01-preview",
  targetKubernetesVersion: "2025-04-01-preview",
  longTermSupport: "2025-04-01-preview",
  "UpgradeChannel.TargetKubernetesVersion": "2025-04-01-preview",
  "UpgradeChannel.SecurityPatch": "2026-06-02-preview",
};

/** ARM's answer for an api-version a resource type does not have: the supported ones, newest last. */
export function supportedApiVersions(
  type: "fleets" | "fleets/members" | "fleets/updateStrategies" | "fleets/updateRuns" | "fleets/gates" | "fleets/autoUpgradeProfiles" | "fleets/autoUpgradeProfiles/generateUpdateRun",
): FleetApiVersion[] {
  if (type === "fleets/gates") return FLEET_API_VERSIONS.filter((v) => FLEET_API_FEATURES[v].gates);
  if (type === "fleets/autoUpgradeProfiles/generateUpdateRun") return FLEET_API_VERSIONS.filter((v) => FLEET_API_FEATURES[v].generateUpdateRun);
  return [...FLEET_API_VERSIONS];
}
