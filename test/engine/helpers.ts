/**
 * Small builders for inline YAML scenarios (docs/rules.md §7) and readers for what a simulated run gives back.
 * Every scenario goes through the real `parseScenario`, so the tests exercise the same path as
 * `fleet-update simulate`.
 */
import { expect } from "vitest";
import { SimulatedFleet, type ClusterSnapshot, type OperationLogEntry } from "../../src/backends/simulator";
import { VirtualClock } from "../../src/engine/clock";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { parseScenario, resolveScenarioStrategy, scenarioHorizon, type Scenario } from "../../src/simulation/scenario";
import type { MemberUpdateStatus, RunEvent, UpdateGroupStatus, UpdateStageStatus, UpdateStatus } from "../../src/model/status";
import { simulateScenario, type SimulationReport } from "../../src/simulation/simulateScenario";
import { updateChoiceOf } from "../../src/model/autoUpgrade";

export const START = "2026-12-05T00:00:00Z"; // a Saturday

export const IMAGE = {
  /** Ubuntu images, oldest first. */
  OCT: "AKSUbuntu-2204gen2containerd-202610.01.0",
  NOV: "AKSUbuntu-2204gen2containerd-202611.24.0",
  DEC: "AKSUbuntu-2204gen2containerd-202612.10.0",
  /** Another family. */
  AZL_OCT: "AzureLinux-V2gen2-202610.05.0",
  AZL_NOV: "AzureLinux-V2gen2-202611.20.0",
} as const;

// ---------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------

/** What a region offers: versions as `"1.32.0"`, or `"1.32.0@2026-12-06T00:00:00Z"` for "from that instant". */
export interface RegionSpec {
  kubernetesVersions?: string[];
  nodeImages?: string[];
}

/** Every test region offers this unless told otherwise. */
export const DEFAULT_REGION: RegionSpec = {
  kubernetesVersions: ["1.30.5", "1.31.2", "1.32.0"],
  nodeImages: [IMAGE.OCT, IMAGE.NOV, IMAGE.AZL_OCT, IMAGE.AZL_NOV],
};

export interface PoolSpec {
  name: string;
  /** Defaults to the member's control plane version. */
  version?: string;
  image: string;
}

export interface MemberSpec {
  group?: string;
  region?: string;
  /** Control plane version (default 1.31.2). */
  version?: string;
  /** Image of the single `system` pool when `pools` is not given (default IMAGE.OCT). */
  image?: string;
  pools?: PoolSpec[];
  /** `aksManagedAutoUpgradeSchedule.maintenanceWindow`, as a YAML flow mapping (see `daily`). */
  window?: string;
  /** `aksManagedNodeOSUpgradeSchedule.maintenanceWindow`. */
  nodeOsWindow?: string;
  /** simulation.upgradeMinutes (default 10). */
  minutes?: number;
  /** simulation.fail with code UpgradeFailed and this message. */
  fail?: string;
  /** simulation.busyUntil. */
  busyUntil?: string;
  /** simulation.healthy. */
  healthy?: boolean;
  /** `healthCheck`, as a YAML flow mapping. */
  healthCheck?: string;
  /** Issue 22: `labels`. */
  labels?: Record<string, string>;
}

/** One member, as a YAML list item. */
export function member(name: string, spec: MemberSpec = {}): string {
  const version = spec.version ?? "1.31.2";
  const pools = spec.pools ?? [{ name: "system", image: spec.image ?? IMAGE.OCT }];
  const fields = [`name: ${name}`];
  if (spec.group !== undefined) fields.push(`group: ${spec.group}`);
  if (spec.labels !== undefined) fields.push(`labels: {${Object.entries(spec.labels).map(([k, v]) => `"${k}": "${v}"`).join(", ")}}`);
  fields.push(`region: ${spec.region ?? "westeurope"}`, `kubernetesVersion: ${version}`);
  fields.push(`nodePools: [${pools.map((p) => `{name: ${p.name}, orchestratorVersion: ${p.version ?? version}, nodeImageVersion: ${p.image}}`).join(", ")}]`);
  const configs: string[] = [];
  if (spec.window !== undefined) configs.push(`aksManagedAutoUpgradeSchedule: {maintenanceWindow: ${spec.window}}`);
  if (spec.nodeOsWindow !== undefined) configs.push(`aksManagedNodeOSUpgradeSchedule: {maintenanceWindow: ${spec.nodeOsWindow}}`);
  if (configs.length > 0) fields.push(`maintenanceConfigurations: {${configs.join(", ")}}`);
  const simulation: string[] = [];
  if (spec.minutes !== undefined) simulation.push(`upgradeMinutes: ${spec.minutes}`);
  if (spec.fail !== undefined) simulation.push(`fail: {code: UpgradeFailed, message: "${spec.fail}"}`);
  if (spec.busyUntil !== undefined) simulation.push(`busyUntil: ${spec.busyUntil}`);
  if (spec.healthy !== undefined) simulation.push(`healthy: ${spec.healthy}`);
  if (simulation.length > 0) fields.push(`simulation: {${simulation.join(", ")}}`);
  if (spec.healthCheck !== undefined) fields.push(`healthCheck: ${spec.healthCheck}`);
  return `  - {${fields.join(", ")}}`;
}

/** A maintenance window open every day from `startTime` (local to `utcOffset`) for `durationHours`. */
export function daily(startTime: string, durationHours = 4, utcOffset = "+00:00"): string {
  return `{schedule: {daily: {intervalDays: 1}}, startTime: "${startTime}", durationHours: ${durationHours}, utcOffset: "${utcOffset}"}`;
}

export const stopAt = (at: string): string => `{at: ${at}, stop: true}`;
export const startAt = (at: string): string => `{at: ${at}, start: true}`;
/** Approve the gates of a stage (or one of its groups) at one timing. */
export const approveAt = (at: string, ...targets: Array<{ stage: string; group?: string; timing: "Before" | "After" }>): string =>
  `{at: ${at}, approve: [${targets.map((t) => `{stage: ${t.stage}${t.group === undefined ? "" : `, group: ${t.group}`}, timing: ${t.timing}}`).join(", ")}]}`;
export type SkipType = "Member" | "Group" | "Stage" | "AfterStageWait";
export const skipAt = (at: string, ...targets: Array<[SkipType, string]>): string =>
  `{at: ${at}, skip: [${targets.map(([type, name]) => `{type: ${type}, name: ${name}}`).join(", ")}]}`;

export const CONTROL_PLANE_TO_1_32 = "{upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}";
export const FULL_TO_1_32 = (selection: "Latest" | "Consistent" = "Latest") => `{upgrade: {type: Full, kubernetesVersion: 1.32.0}, nodeImageSelection: {type: ${selection}}}`;

export interface ScenarioSpec {
  start?: string;
  until?: string;
  /** Region name → offer; default: westeurope with DEFAULT_REGION. */
  regions?: Record<string, RegionSpec>;
  members: string[];
  /** `strategy`, as a YAML flow mapping; absent = the default strategy. */
  strategy?: string;
  /** `managedClusterUpdate`, as a YAML flow mapping; default ControlPlaneOnly to 1.32.0. */
  update?: string;
  /** `autoUpgradeProfile`, as a YAML flow mapping, instead of `update` (docs/rules.md §18). */
  autoUpgradeProfile?: string;
  actions?: string[];
}

function offered(entry: string): string {
  const [version, availableAt] = entry.split("@");
  return availableAt === undefined ? `{version: ${version}}` : `{version: ${version}, availableAt: ${availableAt}}`;
}

/** The scenario as YAML text. */
export function scenario(spec: ScenarioSpec): string {
  const regions = spec.regions ?? { westeurope: DEFAULT_REGION };
  const lines = [`start: ${spec.start ?? START}`];
  if (spec.until !== undefined) lines.push(`until: ${spec.until}`);
  lines.push("regions:");
  for (const [name, offer] of Object.entries(regions)) {
    lines.push(`  ${name}:`);
    lines.push(`    kubernetesVersions: [${(offer.kubernetesVersions ?? []).map(offered).join(", ")}]`);
    lines.push(`    nodeImages: [${(offer.nodeImages ?? []).map(offered).join(", ")}]`);
  }
  lines.push("members:", ...spec.members);
  if (spec.strategy !== undefined) lines.push(`strategy: ${spec.strategy}`);
  if (spec.autoUpgradeProfile !== undefined) lines.push(`autoUpgradeProfile: ${spec.autoUpgradeProfile}`);
  else lines.push(`managedClusterUpdate: ${spec.update ?? CONTROL_PLANE_TO_1_32}`);
  if (spec.actions !== undefined && spec.actions.length > 0) lines.push("actions:", ...spec.actions.map((a) => `  - ${a}`));
  return lines.join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// Running and reading
// ---------------------------------------------------------------------------------------------

/** A finished simulation with lookups by name. */
export class Outcome {
  constructor(readonly report: SimulationReport) {}

  get result() {
    return this.report.result;
  }
  get run(): UpdateStatus {
    return this.report.result.status.status;
  }
  get events(): RunEvent[] {
    return this.report.result.events;
  }
  get refusedActions() {
    return this.report.refusedActions;
  }
  get selectedImages(): string[] {
    return this.report.result.status.nodeImageSelection.selectedNodeImageVersions.map((v) => v.version);
  }

  stage(name: string): UpdateStageStatus {
    const stage = this.report.result.status.stages.find((s) => s.name === name);
    if (stage === undefined) throw new Error(`no stage ${name}`);
    return stage;
  }
  group(name: string): UpdateGroupStatus {
    for (const stage of this.report.result.status.stages) {
      const group = stage.groups.find((g) => g.name === name);
      if (group !== undefined) return group;
    }
    throw new Error(`no group ${name}`);
  }
  member(name: string): MemberUpdateStatus {
    for (const stage of this.report.result.status.stages) {
      for (const group of stage.groups) {
        const member = group.members.find((m) => m.name === name);
        if (member !== undefined) return member;
      }
    }
    throw new Error(`no member ${name}`);
  }
  /** Member names in the order they appear in the status tree. */
  memberNames(): string[] {
    return this.report.result.status.stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((m) => m.name)));
  }
  cluster(name: string): ClusterSnapshot {
    const cluster = this.report.result.clusters.find((c) => c.name === name);
    if (cluster === undefined) throw new Error(`no cluster ${name}`);
    return cluster;
  }
  ops(name: string): OperationLogEntry[] {
    return this.cluster(name).operations;
  }
  /** When each named cluster's upgrades began, in order. */
  opStarts(name: string): string[] {
    return this.ops(name).map((o) => o.startTime);
  }
  /** Events of one item (scope + name), or of a whole scope. */
  eventsOf(scope: RunEvent["scope"], name?: string): RunEvent[] {
    return this.events.filter((e) => e.scope === scope && (name === undefined || e.name === name));
  }
  /** `time from→to` lines of one item's events: compact and readable in assertions. */
  transitions(scope: RunEvent["scope"], name: string): string[] {
    return this.eventsOf(scope, name).map((e) => `${e.time} ${e.from}->${e.to}`);
  }
  /** Member events at an instant, in the order the engine made them, as `name from->to`. */
  memberDecisionsAt(time: string): string[] {
    return this.events.filter((e) => e.scope === "member" && e.time === time).map((e) => `${e.name} ${e.from}->${e.to}`);
  }
}

/**
 * Run a scenario. Every outcome is also checked against the invariants that hold for any run: the
 * event stream agrees with the status, the output is well formed, and no cluster ever had two
 * operations at once.
 */
export async function simulate(yaml: string): Promise<Outcome> {
  const outcome = new Outcome(await simulateScenario(parseScenario(yaml)));
  expectEventsMatchStatus(outcome);
  expectWellFormedOutput(outcome);
  expectNoOverlappingOperations(outcome);
  return outcome;
}

/** Largest number of the named clusters' operations in progress at one instant. */
export function maxRunningAtOnce(outcome: Outcome, names: readonly string[]): number {
  const intervals = names.flatMap((n) => outcome.ops(n).map((o) => [Date.parse(o.startTime), o.endTime === undefined ? Infinity : Date.parse(o.endTime)] as const));
  let max = 0;
  for (const [t] of intervals) {
    const running = intervals.filter(([s, e]) => s <= t && t < e).length;
    max = Math.max(max, running);
  }
  return max;
}

/** No cluster ever had two operations running at once. */
export function expectNoOverlappingOperations(outcome: Outcome): void {
  for (const cluster of outcome.result.clusters) {
    const ops = cluster.operations;
    for (let i = 1; i < ops.length; i++) {
      const previous = ops[i - 1] as OperationLogEntry;
      expect(previous.endTime, `${cluster.name}: operation ${i - 1} still running when ${i} started`).toBeDefined();
      expect(Date.parse((ops[i] as OperationLogEntry).startTime)).toBeGreaterThanOrEqual(Date.parse(previous.endTime as string));
    }
  }
}

/**
 * The event stream is complete and the status is what it says: for every item, each event starts
 * where the previous one ended (the first from NotStarted), and the last one ends in the state the
 * status shows. Items that never changed are NotStarted.
 */
export function expectEventsMatchStatus(outcome: Outcome): void {
  const final = new Map<string, string>();
  const status = outcome.result.status;
  final.set("run/scenario", status.status.state);
  for (const stage of status.stages) {
    final.set(`stage/${stage.name}`, stage.status.state);
    if (stage.afterStageWaitStatus !== undefined) final.set(`wait/${stage.name}`, stage.afterStageWaitStatus.status.state);
    for (const gate of [...(stage.beforeGates ?? []), ...(stage.afterGates ?? [])]) final.set(`gate/${gate.gateId}`, gate.status.state);
    for (const group of stage.groups) {
      final.set(`group/${group.name}`, group.status.state);
      for (const gate of [...(group.beforeGates ?? []), ...(group.afterGates ?? [])]) final.set(`gate/${gate.gateId}`, gate.status.state);
      for (const m of group.members) {
        final.set(`member/${m.name}`, m.status.state);
        for (const a of m.analysisRuns ?? []) final.set(`analysis/${m.name}/${a.kind}/${a.template}`, analysisState(a.phase));
      }
    }
    for (const a of stage.analysisRuns ?? []) final.set(`analysis/${stage.name}/${a.kind}/${a.template}`, analysisState(a.phase));
  }
  const current = new Map<string, string>();
  for (const event of outcome.events) {
    const key = `${event.scope}/${event.name}`;
    expect(final.has(key), `event for unknown ${key}`).toBe(true);
    expect(event.from, `${key} at ${event.time}`).toBe(current.get(key) ?? "NotStarted");
    // Issue 31: a measurement is an event by itself, its analysis's state unchanged while it runs.
    if (event.measurement === undefined) expect(event.to, `${key} at ${event.time}`).not.toBe(event.from);
    current.set(key, event.to);
  }
  for (const [key, state] of final) expect(current.get(key) ?? "NotStarted", key).toBe(state);
}

/** An analysis's phase as its events show it (Successful is Completed; the failures are Failed). */
function analysisState(phase: string): string {
  return phase === "Running" ? "Running" : phase === "Successful" ? "Completed" : "Failed";
}

/** docs/rules.md §5: timestamps are ISO 8601 UTC ending in Z, and absent values are omitted (no null). */
export function expectWellFormedOutput(outcome: Outcome): void {
  const json = JSON.stringify(outcome.result);
  expect(json).not.toContain("null");
  // A ScheduledStart gate's `startTime` is a time of day (`HH:mm`, Fleet's name); its instant is `absoluteStartTime`.
  const instants = JSON.stringify(outcome.result, (key, value: unknown) =>
    key === "scheduledStartProperties" ? { absoluteStartTime: (value as { absoluteStartTime?: string }).absoluteStartTime } : value,
  );
  const times = [...instants.matchAll(/"(startTime|completedTime|endTime|time|absoluteStartTime)":"([^"]*)"/g)].map((m) => m[2]);
  expect(times.length).toBeGreaterThan(0);
  for (const t of times) expect(t).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
}

/**
 * The same run as `simulateScenario`, but with the engine, the fleet and the clock in hand, so a test
 * can look at backend calls, take snapshots or drive in steps. `until` overrides the horizon.
 */
export async function driveScenario(yaml: string, options: { until?: string } = {}) {
  const parsed: Scenario = parseScenario(yaml);
  const start = Date.parse(parsed.start);
  const clock = new VirtualClock(start);
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const events: RunEvent[] = [];
  const engine = UpdateRunEngine.create(
    { name: "scenario", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed) },
    fleet,
    { onEvent: (e) => events.push(e) },
  );
  engine.start(start);
  const until = options.until === undefined ? scenarioHorizon(parsed) : Date.parse(options.until);
  await drive(engine, clock, { until });
  return { scenario: parsed, clock, fleet, engine, events, horizon: scenarioHorizon(parsed) };
}
