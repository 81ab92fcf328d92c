/**
 * A valid scenario with every optional part filled in (maintenance windows of all four kinds, gates,
 * custom node images, simulation settings, actions), and what the invalid-input generator
 * (`test/support/invalidInput.ts`) needs to know about its fields.
 */
import type { BadValues, Doc, FieldRules, Pattern } from "../../support/invalidInput";
import { CLUSTER_ID_PREFIX, IMAGE_NEW, strategyRules } from "../../pulumi/support/invalidRunInputs";

const IMAGE_OLD = "AKSUbuntu-2204gen2containerd-202610.01.0";

function cluster(name: string, group: string, region = "westeurope"): Doc {
  return { name, group, region, kubernetesVersion: "1.31.2", nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OLD }] };
}

export function richScenario(): Doc {
  const offer = { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0", availableAt: "2026-12-05T06:00:00Z" }], nodeImages: [{ version: IMAGE_OLD }, { version: IMAGE_NEW, availableAt: "2026-12-05T01:00:00Z" }] };
  const members = [cluster("canary-1", "canary"), cluster("eu-1", "prod-eu"), cluster("eu-2", "prod-eu"), cluster("us-1", "prod-us", "eastus")];
  members[0].clusterResourceId = `${CLUSTER_ID_PREFIX}canary-1`;
  members[0].maintenanceConfigurations = {
    aksManagedAutoUpgradeSchedule: {
      maintenanceWindow: {
        schedule: { weekly: { intervalWeeks: 1, dayOfWeek: "Saturday" } },
        startTime: "02:00",
        durationHours: 6,
        utcOffset: "+01:00",
        startDate: "2026-11-01",
        notAllowedDates: [{ start: "2026-12-24", end: "2026-12-26" }],
      },
    },
    aksManagedNodeOSUpgradeSchedule: {
      maintenanceWindow: { schedule: { relativeMonthly: { intervalMonths: 1, weekIndex: "First", dayOfWeek: "Monday" } }, startTime: "22:30", durationHours: 4 },
    },
  };
  members[1].nodePools.push({ name: "user", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OLD });
  members[1].simulation = { upgradeMinutes: 20, busyUntil: "2026-12-05T01:00:00Z", fail: { code: "UpgradeFailed", message: "drain timed out" }, powerState: "Running" };
  members[2].maintenanceConfigurations = {
    aksManagedAutoUpgradeSchedule: { maintenanceWindow: { schedule: { absoluteMonthly: { intervalMonths: 2, dayOfMonth: 15 } }, startTime: "00:00", durationHours: 24 } },
  };
  members[3].maintenanceConfigurations = {
    aksManagedAutoUpgradeSchedule: { maintenanceWindow: { schedule: { daily: { intervalDays: 3 } }, startTime: "12:00", durationHours: 8, utcOffset: "-08:00" } },
  };
  return {
    start: "2026-12-05T00:00:00Z",
    until: "2026-12-20T00:00:00Z",
    regions: { westeurope: offer, eastus: structuredClone(offer) },
    members,
    strategy: {
      stages: [
        { name: "canary", groups: [{ name: "canary", maxAllowedFailures: "0" }], afterStageWaitInSeconds: 3600, afterGates: [{ type: "Approval", displayName: "QA" }] },
        { name: "production", groups: [{ name: "prod-eu", maxConcurrency: "2" }, { name: "prod-us" }], maxConcurrency: "50%", maxAllowedFailures: "10%" },
      ],
    },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Custom", customNodeImageVersions: [{ version: IMAGE_NEW }] } },
    actions: [
      { at: "2026-12-05T01:00:00Z", skip: [{ type: "Member", name: "eu-2" }, { type: "AfterStageWait", name: "canary" }] },
      { at: "2026-12-05T02:00:00Z", approve: [{ stage: "canary", timing: "After" }] },
      { at: "2026-12-05T03:00:00Z", stop: true },
      { at: "2026-12-05T04:00:00Z", start: true },
    ],
  };
}

const member = ["members", "*"];
const pool = [...member, "nodePools", "*"];
const region = ["regions", "*"];
const update = ["managedClusterUpdate"];
const custom = [...update, "nodeImageSelection", "customNodeImageVersions"];
const window = (schedule: string): Pattern => [...member, "maintenanceConfigurations", schedule, "maintenanceWindow"];
const WINDOWS = [window("aksManagedAutoUpgradeSchedule"), window("aksManagedNodeOSUpgradeSchedule")];
const inWindows = (...rest: Array<string | number>): Pattern[] => WINDOWS.map((w) => [...w, ...rest]);
const strategy = strategyRules(["strategy"]);

const BAD_NAMES = ["", "Canary", "-canary", "canary-", "can_ary", "a".repeat(51)];
const BAD_INSTANTS = ["", "2026-12-05", "2027-02-29T00:00:00Z", "2026-12-05T00:00:00", "2026-13-05T00:00:00Z", "2026-12-05 00:00:00Z", "yesterday", "2026-12-05T25:00:00Z", 1_796_000_000_000];
const BAD_VERSIONS = ["", "1.32", "v1.32.0", "1.32.0-rc.1", "latest", "1.32.0.1", 1.32];
const BAD_IMAGES = ["", "AKSUbuntu", "202611.24.0", "AKSUbuntu-2204gen2containerd-", "-202611.24.0", "AKS Ubuntu-2204-202611.24.0", `AKSUbuntu-${"2204gen2containerd".repeat(16)}-202611.24.0`];
const BAD_DATES = ["", "2026-02-30", "2026/11/01", "01-11-2026", "2026-11-1", "2026-11-01T00:00:00Z"];
const BAD_DAYS = ["", "Funday", "monday", "Sun"];

const badValues: BadValues[] = [
  ...strategy.badValues,
  { at: ["start"], kind: "bad instant", values: BAD_INSTANTS },
  { at: ["until"], kind: "bad instant", values: [...BAD_INSTANTS, "2026-12-04T00:00:00Z", "2026-12-05T00:00:00Z"] },
  { at: ["members"], kind: "no members", values: [[]] },
  { at: [...member, "name"], kind: "bad name", values: BAD_NAMES },
  { at: [...member, "group"], kind: "bad name", values: BAD_NAMES },
  { at: [...member, "region"], kind: "bad region", values: ["", "West Europe", "west-europe", "northpole"] },
  { at: [...member, "kubernetesVersion"], kind: "bad version", values: BAD_VERSIONS },
  { at: [...member, "clusterResourceId"], kind: "bad cluster id", values: ["", "aks-1", `${CLUSTER_ID_PREFIX}aks-1/`, "/subscriptions/x/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks-1"] },
  { at: [...member, "nodePools"], kind: "no node pools", values: [[]] },
  { at: [...pool, "name"], kind: "bad pool name", values: ["", "System", "1pool", "sys-tem", "a".repeat(13)] },
  { at: [...pool, "orchestratorVersion"], kind: "bad version", values: BAD_VERSIONS },
  { at: [...pool, "nodeImageVersion"], kind: "bad node image version", values: BAD_IMAGES },
  { at: [...member, "simulation", "upgradeMinutes"], kind: "out of range", values: [0, -1, 10_081, Number.NaN, Number.POSITIVE_INFINITY] },
  { at: [...member, "simulation", "busyUntil"], kind: "bad instant", values: BAD_INSTANTS },
  { at: [...member, "simulation", "powerState"], kind: "wrong enum value", values: ["", "Deallocated", "stopped"] },
  { at: [...member, "simulation", "fail", "code"], kind: "empty", values: [""] },
  ...inWindows("durationHours").map((at) => ({ at, kind: "bad window duration", values: [0, 3, 25, 4.5, -4] })),
  ...inWindows("startTime").map((at) => ({ at, kind: "bad window start", values: ["", "24:00", "7:00", "12:60", "noon", "12:00:00"] })),
  ...inWindows("utcOffset").map((at) => ({ at, kind: "bad window offset", values: ["", "+15:00", "0100", "+1:00", "UTC", "+05:60"] })),
  ...inWindows("startDate").map((at) => ({ at, kind: "bad window date", values: BAD_DATES })),
  ...inWindows("notAllowedDates", "*").map((at) => ({ at, kind: "bad date span", values: [{ start: "2026-12-26", end: "2026-12-24" }, { start: "2026-12-24" }, {}] })),
  ...inWindows("notAllowedDates", "*", "start").map((at) => ({ at, kind: "bad window date", values: BAD_DATES })),
  ...inWindows("schedule").map((at) => ({ at, kind: "not one schedule", values: [{}, { daily: { intervalDays: 1 }, weekly: { intervalWeeks: 1, dayOfWeek: "Monday" } }, { hourly: { intervalHours: 1 } }] })),
  ...inWindows("schedule", "daily", "intervalDays").map((at) => ({ at, kind: "bad interval", values: [0, 8, 1.5] })),
  ...inWindows("schedule", "weekly", "intervalWeeks").map((at) => ({ at, kind: "bad interval", values: [0, 5] })),
  ...inWindows("schedule", "weekly", "dayOfWeek").map((at) => ({ at, kind: "bad day", values: BAD_DAYS })),
  ...inWindows("schedule", "absoluteMonthly", "intervalMonths").map((at) => ({ at, kind: "bad interval", values: [0, 7] })),
  ...inWindows("schedule", "absoluteMonthly", "dayOfMonth").map((at) => ({ at, kind: "bad day of month", values: [0, 32, 1.5] })),
  ...inWindows("schedule", "relativeMonthly", "intervalMonths").map((at) => ({ at, kind: "bad interval", values: [0, 7] })),
  ...inWindows("schedule", "relativeMonthly", "weekIndex").map((at) => ({ at, kind: "bad week index", values: ["", "Fifth", "first"] })),
  ...inWindows("schedule", "relativeMonthly", "dayOfWeek").map((at) => ({ at, kind: "bad day", values: BAD_DAYS })),
  { at: [...region, "kubernetesVersions", "*", "version"], kind: "bad version", values: BAD_VERSIONS },
  { at: [...region, "kubernetesVersions", "*", "availableAt"], kind: "bad instant", values: BAD_INSTANTS },
  { at: [...region, "nodeImages", "*", "version"], kind: "bad node image version", values: BAD_IMAGES },
  { at: [...region, "nodeImages", "*", "availableAt"], kind: "bad instant", values: BAD_INSTANTS },
  { at: [...update, "upgrade", "type"], kind: "wrong enum value", values: ["", "Partial", "full"] },
  { at: [...update, "upgrade", "kubernetesVersion"], kind: "bad version", values: BAD_VERSIONS },
  { at: [...update, "nodeImageSelection", "type"], kind: "wrong enum value", values: ["", "Newest", "latest"] },
  { at: custom, kind: "no versions", values: [[]] },
  { at: [...custom, "*", "version"], kind: "bad node image version", values: BAD_IMAGES },
  { at: ["actions", "*", "at"], kind: "bad instant", values: [...BAD_INSTANTS, "2026-12-04T23:59:00Z"] },
  { at: ["actions", "*", "skip"], kind: "no skip targets", values: [[]] },
  { at: ["actions", "*", "skip", "*", "type"], kind: "wrong enum value", values: ["", "Cluster", "member"] },
  { at: ["actions", "*", "skip", "*", "name"], kind: "bad or unknown name", values: [...BAD_NAMES, "no-such-member"] },
  { at: ["actions", "*", "stop"], kind: "not true", values: [false, "yes"] },
  { at: ["actions", "*", "start"], kind: "not true", values: [false, 1] },
  { at: ["actions", "*", "approve", "*", "timing"], kind: "wrong enum value", values: ["", "after", "During"] },
  { at: ["actions", "*", "approve", "*", "stage"], kind: "bad name", values: ["", "Canary"] },
  { at: ["actions", "*", "approve", "*"], kind: "no such gate", values: [{ stage: "production", timing: "After" }, { stage: "canary", group: "canary", timing: "Before" }, { stage: "nowhere", timing: "After" }] },
];

export const SCENARIO_RULES: FieldRules = {
  required: [
    ...strategy.required,
    ["start"],
    ["regions"],
    ["members"],
    ["managedClusterUpdate"],
    [...member, "name"],
    [...member, "region"],
    [...member, "kubernetesVersion"],
    [...member, "nodePools"],
    [...pool, "name"],
    [...pool, "orchestratorVersion"],
    [...pool, "nodeImageVersion"],
    [...region, "kubernetesVersions", "*", "version"],
    [...region, "nodeImages", "*", "version"],
    ...WINDOWS.flatMap((w) => [[...w.slice(0, -1), "maintenanceWindow"], [...w, "schedule"], [...w, "durationHours"], [...w, "startTime"]]),
    ...inWindows("notAllowedDates", "*", "start"),
    ...inWindows("notAllowedDates", "*", "end"),
    ...inWindows("schedule", "daily", "intervalDays"),
    ...inWindows("schedule", "weekly", "intervalWeeks"),
    ...inWindows("schedule", "weekly", "dayOfWeek"),
    ...inWindows("schedule", "absoluteMonthly", "intervalMonths"),
    ...inWindows("schedule", "absoluteMonthly", "dayOfMonth"),
    ...inWindows("schedule", "relativeMonthly", "intervalMonths"),
    ...inWindows("schedule", "relativeMonthly", "weekIndex"),
    ...inWindows("schedule", "relativeMonthly", "dayOfWeek"),
    [...update, "upgrade"],
    [...update, "upgrade", "type"],
    [...update, "upgrade", "kubernetesVersion"],
    custom,
    [...custom, "*", "version"],
    ["actions", "*", "at"],
    ["actions", "*", "skip", "*", "type"],
    ["actions", "*", "skip", "*", "name"],
    ["actions", "*", "approve", "*", "stage"],
    ["actions", "*", "approve", "*", "timing"],
  ],
  uniqueLists: [...strategy.uniqueLists, ["members"], [...member, "nodePools"], custom],
  badValues,
  numbersAllowed: strategy.numbersAllowed,
  // Free text: the simulated failure's code and message
  unbounded: [
    [...member, "simulation", "fail", "code"],
    [...member, "simulation", "fail", "message"],
  ],
  // Keyed by region name: an extra key is another region
  records: [["regions"]],
  replaceRoot: true,
};
