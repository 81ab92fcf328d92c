/**
 * fast-check builders for whole simulation scenarios (docs/rules.md §7): random regions, fleets, maintenance
 * windows, strategies, updates and user actions. `scenarioArb` yields scenario OBJECTS already passed
 * through `validateScenario`, so every generated case is one the CLI would accept; a generator that
 * produced an invalid scenario throws (a bug in this file, not in the engine).
 */
import fc from "fast-check";
import { scheduleArb } from "../support/scheduleArb";
import { isoInstant } from "../../src/model/instants";
import { DEFAULT_HORIZON_DAYS, validateScenario, type Scenario } from "../../src/simulation/scenario";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Scenario starts are spread over a week from here, so windows meet every weekday and hour. */
export const BASE = Date.parse("2026-12-05T00:00:00Z");

export const FROM_VERSION = "1.31.2";
export const TARGET_VERSION = "1.32.0";

export const FAMILIES = ["AKSUbuntu-2204gen2containerd", "AzureLinux-V2gen2"] as const;
/** Image dates, oldest first: clusters mostly run the first one. */
export const IMAGE_DATES = ["202610.01.0", "202611.24.0", "202612.10.0"] as const;
const REGION_NAMES = ["westeurope", "eastus", "northeurope", "westus2"] as const;
const UTC_OFFSETS = ["+00:00", "+01:00", "+05:30", "-08:00", "+14:00", "-12:00"] as const;

const image = (family: number, date: number): string => `${FAMILIES[family]}-${IMAGE_DATES[date]}`;
const localDate = (instant: number): string => isoInstant(instant).slice(0, 10);
const pick = <T>(items: readonly T[], index: number): T => items[index % items.length] as T;

/** `arb`'s value `present` times in `present + absent`, else undefined. */
function sometimes<T>(arb: fc.Arbitrary<T>, present: number, absent: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: present, arbitrary: arb });
}

// ---------------------------------------------------------------------------------------------
// Raw building blocks (plain data; `buildScenario` turns them into a scenario object)
// ---------------------------------------------------------------------------------------------

/** An instant after the scenario start, as minutes; `undefined` = available from the start. */
const laterMinutesArb = (maxDays: number) => fc.option(fc.integer({ min: 1, max: maxDays * 24 * 60 }), { nil: undefined, freq: 2 });

/** What a region offers: 1.31.2 always; 1.32.0 now, later, or never; each image (family × date) now, later, or never. */
const regionArb = fc.record({
  target: fc.oneof({ weight: 1, arbitrary: fc.constant<"absent">("absent") }, { weight: 6, arbitrary: laterMinutesArb(20) }),
  images: fc.array(fc.oneof({ weight: 1, arbitrary: fc.constant<"absent">("absent") }, { weight: 4, arbitrary: laterMinutesArb(20) }), {
    minLength: FAMILIES.length * IMAGE_DATES.length,
    maxLength: FAMILIES.length * IMAGE_DATES.length,
  }),
});
type RawRegion = typeof regionArb extends fc.Arbitrary<infer T> ? T : never;


/** A maintenance window; `startDate` and `notAllowedDates` are days relative to the scenario start. */
const windowArb = fc.record(
  {
    schedule: scheduleArb,
    durationHours: fc.integer({ min: 4, max: 24 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.constantFrom(0, 15, 30, 45, 59),
    utcOffset: fc.constantFrom(...UTC_OFFSETS),
    startDateDays: fc.integer({ min: -40, max: 20 }),
    notAllowed: fc.array(fc.record({ fromDays: fc.integer({ min: -3, max: 30 }), lengthDays: fc.integer({ min: 0, max: 6 }) }), { maxLength: 2 }),
  },
  { requiredKeys: ["schedule", "durationHours", "hour", "minute"] },
);
type RawWindow = typeof windowArb extends fc.Arbitrary<infer T> ? T : never;

const poolArb = fc.record({
  family: fc.integer({ min: 0, max: 1 }),
  date: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) }),
  atTargetVersion: fc.boolean(),
});

const memberArb = fc.record({
  regionPick: fc.nat(),
  groupPick: fc.nat(),
  controlPlaneAtTarget: sometimes(fc.constant(true), 1, 4).map((v) => v === true),
  /** Already fully up to date: control plane and pools at the target, every pool on the newest image. */
  upToDate: sometimes(fc.constant(true), 1, 9).map((v) => v === true),
  pools: fc.array(poolArb, { minLength: 1, maxLength: 3 }),
  upgradeMinutes: sometimes(fc.integer({ min: 1, max: 120 }), 4, 1),
  fail: sometimes(fc.constant(true), 1, 25).map((v) => v === true),
  busyUntilMinutes: sometimes(fc.integer({ min: 0, max: 3 * 24 * 60 }), 1, 6),
  autoUpgradeWindow: sometimes(windowArb, 2, 3),
  nodeOsWindow: sometimes(windowArb, 2, 3),
  withResourceId: fc.boolean(),
});
type RawMember = typeof memberArb extends fc.Arbitrary<infer T> ? T : never;

/** `"1"`–`"3"` or `"P%"`. */
export const concurrencyArb = fc.oneof(fc.constantFrom("1", "2", "3"), fc.integer({ min: 1, max: 100 }).map((p) => `${p}%`));

const stageArb = fc.record(
  {
    groups: fc.array(fc.record({ maxConcurrency: sometimes(concurrencyArb, 2, 1) }), { minLength: 1, maxLength: 4 }),
    afterStageWaitInSeconds: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 7200 })),
    maxConcurrency: concurrencyArb,
  },
  { requiredKeys: ["groups"] },
);

/** How the scenario gives its strategy: inline, by reference (`strategies` + `updateStrategyId`), or none. */
export const STRATEGY_FORMS: ReadonlyArray<"inline" | "reference" | "default"> = ["inline", "inline", "inline", "reference", "default"];

const strategyArb = fc.record({
  form: fc.constantFrom(...STRATEGY_FORMS),
  stages: fc.array(stageArb, { minLength: 1, maxLength: 4 }),
});
type RawStrategy = typeof strategyArb extends fc.Arbitrary<infer T> ? T : never;

const updateArb = fc.record({
  type: fc.constantFrom("Full", "ControlPlaneOnly", "NodeImageOnly"),
  selection: fc.constantFrom<"none" | "Latest" | "Consistent" | "Custom">("none", "Latest", "Consistent", "Custom"),
  custom: fc.array(fc.record({ family: fc.integer({ min: 0, max: 1 }), date: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 2 }),
});
type RawUpdate = typeof updateArb extends fc.Arbitrary<infer T> ? T : never;

const skipTargetArb = fc.record({
  type: fc.oneof(
    { weight: 4, arbitrary: fc.constant("Member" as const) },
    { weight: 1, arbitrary: fc.constant("Group" as const) },
    { weight: 1, arbitrary: fc.constant("Stage" as const) },
    { weight: 2, arbitrary: fc.constant("AfterStageWait" as const) },
  ),
  pick: fc.nat(),
});

const actionArb = fc.record({
  /** When: at the start, in the first 12 hours (where the first stages and their waits are), or anywhere before the horizon. */
  at: fc.oneof(
    fc.constant({ minutes: 0 }),
    fc.record({ minutes: fc.integer({ min: 0, max: 12 * 60 }) }),
    fc.record({ permille: fc.integer({ min: 0, max: 1000 }) }),
  ),
  kind: fc.oneof({ weight: 2, arbitrary: fc.constant("stop" as const) }, { weight: 3, arbitrary: fc.constant("start" as const) }, { weight: 3, arbitrary: fc.constant("skip" as const) }),
  targets: fc.array(skipTargetArb, { minLength: 1, maxLength: 2 }),
});
type RawAction = typeof actionArb extends fc.Arbitrary<infer T> ? T : never;

export const rawScenarioArb = fc.record({
  startMinutes: fc.integer({ min: 0, max: 7 * 24 * 60 - 1 }),
  horizonDays: fc.integer({ min: 1, max: 40 }),
  regions: fc.array(regionArb, { minLength: 1, maxLength: 4 }),
  members: fc.array(memberArb, { minLength: 1, maxLength: 30 }),
  strategy: strategyArb,
  update: updateArb,
  actions: fc.oneof({ weight: 2, arbitrary: fc.constant([] as RawAction[]) }, { weight: 3, arbitrary: fc.array(actionArb, { minLength: 1, maxLength: 4 }) }),
});
export type RawScenario = typeof rawScenarioArb extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------------------------------------
// Assembly
// ---------------------------------------------------------------------------------------------

function buildRegion(raw: RawRegion, start: number): Record<string, unknown> {
  const at = (minutes: number | undefined) => (minutes === undefined ? {} : { availableAt: isoInstant(start + minutes * MINUTE) });
  const kubernetesVersions: Array<Record<string, unknown>> = [{ version: FROM_VERSION }];
  if (raw.target !== "absent") kubernetesVersions.push({ version: TARGET_VERSION, ...at(raw.target) });
  const nodeImages: Array<Record<string, unknown>> = [];
  raw.images.forEach((offer, i) => {
    if (offer !== "absent") nodeImages.push({ version: image(Math.floor(i / IMAGE_DATES.length), i % IMAGE_DATES.length), ...at(offer) });
  });
  return { kubernetesVersions, nodeImages };
}

function buildWindow(raw: RawWindow, start: number): Record<string, unknown> {
  const window: Record<string, unknown> = {
    schedule: raw.schedule,
    durationHours: raw.durationHours,
    startTime: `${String(raw.hour).padStart(2, "0")}:${String(raw.minute).padStart(2, "0")}`,
  };
  if (raw.utcOffset !== undefined) window.utcOffset = raw.utcOffset;
  if (raw.startDateDays !== undefined) window.startDate = localDate(start + raw.startDateDays * DAY);
  if (raw.notAllowed !== undefined && raw.notAllowed.length > 0) {
    window.notAllowedDates = raw.notAllowed.map((span) => ({
      start: localDate(start + span.fromDays * DAY),
      end: localDate(start + (span.fromDays + span.lengthDays) * DAY),
    }));
  }
  return { maintenanceWindow: window };
}

function buildMember(raw: RawMember, index: number, regionNames: readonly string[], group: string | undefined, start: number): Record<string, unknown> {
  const controlPlane = raw.controlPlaneAtTarget || raw.upToDate ? TARGET_VERSION : FROM_VERSION;
  const member: Record<string, unknown> = {
    name: `m${index}`,
    region: pick(regionNames, raw.regionPick),
    kubernetesVersion: controlPlane,
    // Pools never above the control plane: a pool is at the target only when the control plane is.
    nodePools: raw.pools.map((p, j) => ({
      name: `pool${j}`,
      orchestratorVersion: raw.upToDate || (raw.controlPlaneAtTarget && p.atTargetVersion) ? TARGET_VERSION : FROM_VERSION,
      nodeImageVersion: image(p.family, raw.upToDate ? IMAGE_DATES.length - 1 : p.date),
    })),
  };
  if (group !== undefined) member.group = group;
  if (raw.withResourceId) member.clusterResourceId = `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-fleet/providers/Microsoft.ContainerService/managedClusters/m${index}`;
  const simulation: Record<string, unknown> = {};
  if (raw.upgradeMinutes !== undefined) simulation.upgradeMinutes = raw.upgradeMinutes;
  if (raw.fail) simulation.fail = { code: "UpgradeFailed", message: `drain timed out on m${index}` };
  if (raw.busyUntilMinutes !== undefined) simulation.busyUntil = isoInstant(start + raw.busyUntilMinutes * MINUTE);
  if (Object.keys(simulation).length > 0) member.simulation = simulation;
  const configs: Record<string, unknown> = {};
  if (raw.autoUpgradeWindow !== undefined) configs.aksManagedAutoUpgradeSchedule = buildWindow(raw.autoUpgradeWindow, start);
  if (raw.nodeOsWindow !== undefined) configs.aksManagedNodeOSUpgradeSchedule = buildWindow(raw.nodeOsWindow, start);
  if (Object.keys(configs).length > 0) member.maintenanceConfigurations = configs;
  return member;
}

/**
 * Members pick a group among the strategy's groups, "no group" and a group in no stage (both left
 * out of the run); groups nobody picked, and stages left without groups, are dropped (docs/rules.md §2 rejects
 * a strategy group without members).
 */
function buildStrategy(raw: RawStrategy, members: readonly RawMember[]): { stages: Array<Record<string, unknown>>; groupOf: Array<string | undefined> } {
  const groupNames = raw.stages.flatMap((s, i) => s.groups.map((_, j) => `s${i}-g${j}`));
  const choices = [...groupNames, undefined, "orphans"];
  const groupOf = members.map((m, i) => (i === 0 ? groupNames[m.groupPick % groupNames.length] : pick(choices, m.groupPick)));
  const populated = new Set(groupOf);
  const stages: Array<Record<string, unknown>> = [];
  raw.stages.forEach((s, i) => {
    const groups = s.groups
      .map((g, j) => ({ name: `s${i}-g${j}`, ...(g.maxConcurrency === undefined ? {} : { maxConcurrency: g.maxConcurrency }) }))
      .filter((g) => populated.has(g.name));
    if (groups.length === 0) return;
    stages.push({
      name: `s${i}`,
      groups,
      ...(s.afterStageWaitInSeconds === undefined ? {} : { afterStageWaitInSeconds: s.afterStageWaitInSeconds }),
      ...(s.maxConcurrency === undefined ? {} : { maxConcurrency: s.maxConcurrency }),
    });
  });
  return { stages, groupOf };
}

function buildUpdate(raw: RawUpdate): Record<string, unknown> {
  const upgrade = raw.type === "NodeImageOnly" ? { type: raw.type } : { type: raw.type, kubernetesVersion: TARGET_VERSION };
  if (raw.selection === "none") return { upgrade };
  if (raw.selection !== "Custom") return { upgrade, nodeImageSelection: { type: raw.selection } };
  const perFamily = new Map<number, string>();
  for (const c of raw.custom) if (!perFamily.has(c.family)) perFamily.set(c.family, image(c.family, c.date));
  return { upgrade, nodeImageSelection: { type: "Custom", customNodeImageVersions: [...perFamily.values()].map((version) => ({ version })) } };
}

function buildAction(raw: RawAction, start: number, horizonMs: number, names: { members: string[]; groups: string[]; stages: string[] }): Record<string, unknown> {
  const minutes = "minutes" in raw.at ? Math.min(raw.at.minutes, horizonMs / MINUTE) : Math.round(((raw.at.permille / 1000) * horizonMs) / MINUTE);
  const at = isoInstant(start + minutes * MINUTE);
  if (raw.kind === "stop") return { at, stop: true };
  if (raw.kind === "start") return { at, start: true };
  const listFor = { Member: names.members, Group: names.groups, Stage: names.stages, AfterStageWait: names.stages };
  return { at, skip: raw.targets.map((t) => ({ type: t.type, name: pick(listFor[t.type], t.pick) })) };
}

/** The scenario object (not yet validated) a raw draw describes. */
export function buildScenario(raw: RawScenario): Record<string, unknown> {
  const start = BASE + raw.startMinutes * MINUTE;
  const horizonMs = raw.horizonDays * DAY;
  const regionNames = REGION_NAMES.slice(0, raw.regions.length);
  const regions = Object.fromEntries(raw.regions.map((r, i) => [regionNames[i], buildRegion(r, start)]));
  const useStrategy = raw.strategy.form !== "default";
  const { stages, groupOf } = buildStrategy(raw.strategy, raw.members);
  const members = raw.members.map((m, i) => buildMember(m, i, regionNames, groupOf[i], start));
  // Only members in the run can be skipped (validation rejects the others).
  const populatedGroups = new Set(stages.flatMap((s) => (s.groups as Array<{ name: string }>).map((g) => g.name)));
  const names = useStrategy
    ? { members: members.filter((m) => populatedGroups.has(m.group as string)).map((m) => m.name as string), groups: stages.flatMap((s) => (s.groups as Array<{ name: string }>).map((g) => g.name)), stages: stages.map((s) => s.name as string) }
    : { members: members.map((m) => m.name as string), groups: ["default"], stages: ["default"] };
  const scenario: Record<string, unknown> = {
    start: isoInstant(start),
    // 30 days is the default horizon: leave `until` out then.
    ...(raw.horizonDays === DEFAULT_HORIZON_DAYS ? {} : { until: isoInstant(start + horizonMs) }),
    regions,
    members,
    managedClusterUpdate: buildUpdate(raw.update),
    actions: raw.actions.map((a) => buildAction(a, start, horizonMs, names)),
  };
  if (raw.strategy.form === "inline") scenario.strategy = { stages };
  if (raw.strategy.form === "reference") {
    scenario.strategies = { rollout: { stages } };
    scenario.updateStrategyId = "rollout";
  }
  return scenario;
}

/** Valid scenarios (through `validateScenario`, which throws if this file built a bad one). */
export const scenarioArb: fc.Arbitrary<Scenario> = rawScenarioArb.map((raw) => validateScenario(buildScenario(raw)));

/**
 * The same fleet and strategy in a world with no obstacles: every region offers every version and
 * image from the start, no maintenance windows, no busy clusters, no failures, no user actions, and
 * the longest horizon. Every run there must finish.
 */
export function withoutObstacles(scenario: Scenario): Scenario {
  const allImages = FAMILIES.flatMap((_, f) => IMAGE_DATES.map((__, d) => ({ version: image(f, d) })));
  const open = structuredClone(scenario) as Record<string, unknown> & Scenario;
  open.until = isoInstant(Date.parse(scenario.start) + 40 * DAY);
  open.actions = [];
  open.regions = Object.fromEntries(
    Object.keys(scenario.regions).map((name) => [name, { kubernetesVersions: [{ version: FROM_VERSION }, { version: TARGET_VERSION }], nodeImages: allImages }]),
  );
  open.members = open.members.map(({ maintenanceConfigurations: _windows, simulation, ...member }) =>
    simulation === undefined ? member : { ...member, simulation: { upgradeMinutes: simulation.upgradeMinutes } },
  );
  return validateScenario(open);
}
