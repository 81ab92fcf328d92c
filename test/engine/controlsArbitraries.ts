/**
 * fast-check builders for scenarios that exercise issue 5's controls (docs/behaviour.md "Approval
 * gates", "Failure tolerance", "Health checks"): a scenario from `arbitraries.ts` decorated with
 * before/after gates and `maxAllowedFailures` on its stages and groups, failing members (some only
 * for their first attempts), unhealthy clusters, member probes, stop/start pauses, and `approve`
 * actions for the places that have gates. Every result goes through `validateScenario` again, so it
 * is a file the CLI would accept; a decoration that produced an invalid scenario throws (a bug here,
 * not in the engine).
 */
import fc from "fast-check";
import { isoInstant } from "../../src/model/instants";
import { DEFAULT_HORIZON_DAYS, validateScenario, type Scenario } from "../../src/simulation/scenario";
import type { UpdateRunStrategy } from "../../src/model/strategy";
import { DAY, MINUTE, buildScenario, rawScenarioArb, withoutObstacles, type RawScenario } from "./arbitraries";

/** Upper bounds of `arbitraries.ts`: stages, groups per stage, members. Decorations are drawn per slot. */
const STAGE_SLOTS = 4;
const GROUP_SLOTS = 4;
const MEMBER_SLOTS = 30;

export const TOLERANCES = ["0", "1", "2", "25%", "50%", "100%"] as const;

/**
 * What the decorations lean towards. `gates`: every control, failures now and then, stop/start
 * pauses. `failures`: many failing and unhealthy members and tolerances on most items, no start
 * actions (see `decorateScenario`), so that groups and stages end within and past their tolerance.
 */
export type Focus = "gates" | "failures";

/** When a gated place gets approved: never, at the start, early (first 12 h), or anywhere before the horizon. */
const approvalTimeArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant({ minutes: 0 }) },
  { weight: 2, arbitrary: fc.record({ minutes: fc.integer({ min: 0, max: 12 * 60 }) }) },
  { weight: 1, arbitrary: fc.record({ permille: fc.integer({ min: 0, max: 1000 }) }) },
);
type ApprovalTime = { minutes: number } | { permille: number } | undefined;

/** 0–2 gates (mostly none); the second one has a display name. */
const gatesArb = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constant(2) });

/** Gates, tolerance and approval times of one stage or group. */
const controlsArb = (focus: Focus) =>
  fc.record({
    beforeGates: gatesArb,
    afterGates: gatesArb,
    maxAllowedFailures: fc.option(fc.constantFrom(...TOLERANCES), { nil: undefined, freq: focus === "failures" ? 5 : 3 }),
    approveBefore: approvalTimeArb,
    approveAfter: approvalTimeArb,
    /** A second approval of the same place (approving twice changes nothing, G3). */
    approveAgain: fc.option(fc.record({ permille: fc.integer({ min: 0, max: 1000 }) }), { nil: undefined, freq: 4 }),
  });
type RawControls = ReturnType<typeof controlsArb> extends fc.Arbitrary<infer T> ? T : never;

/** What a member's simulated cluster does wrong, and whether it has a probe. */
const memberControlsArb = (focus: Focus) =>
  fc.record({
    failure: fc.oneof(
      { weight: focus === "failures" ? 3 : 8, arbitrary: fc.constant({ kind: "none" as const }) },
      { weight: 1, arbitrary: fc.constant({ kind: "always" as const }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("transient" as const), attempts: fc.integer({ min: 1, max: 2 }) }) },
    ),
    unhealthy: fc.oneof({ weight: focus === "failures" ? 3 : 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    probe: fc.option(
      fc.record({ settleSeconds: fc.integer({ min: 0, max: 300 }), retries: fc.integer({ min: 0, max: 3 }), intervalSeconds: fc.integer({ min: 1, max: 120 }) }),
      { nil: undefined, freq: 5 },
    ),
  });
type RawMemberControls = ReturnType<typeof memberControlsArb> extends fc.Arbitrary<infer T> ? T : never;

/**
 * A stop and, some minutes later, a start, in the first 12 hours where the stages run (more often in
 * the first 3): a halt puts Pending gates back (G8), a start retries Failed members (docs/rules.md §3.8).
 */
const pausesArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant([]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record({ atMinutes: fc.oneof(fc.integer({ min: 0, max: 3 * 60 }), fc.integer({ min: 0, max: 12 * 60 })), forMinutes: fc.integer({ min: 0, max: 4 * 60 }) }),
      { minLength: 1, maxLength: 2 },
    ),
  },
);

const decorationsArb = (focus: Focus) =>
  fc.record({
    stages: fc.array(controlsArb(focus), { minLength: STAGE_SLOTS, maxLength: STAGE_SLOTS }),
    groups: fc.array(controlsArb(focus), { minLength: STAGE_SLOTS * GROUP_SLOTS, maxLength: STAGE_SLOTS * GROUP_SLOTS }),
    members: fc.array(memberControlsArb(focus), { minLength: MEMBER_SLOTS, maxLength: MEMBER_SLOTS }),
    pauses: focus === "failures" ? fc.constant([]) : pausesArb,
    /** Where each approval goes among the scenario's other actions (order matters at one instant). */
    positions: fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
  });
export type Decorations = ReturnType<typeof decorationsArb> extends fc.Arbitrary<infer T> ? T : never;

type Item = Record<string, unknown> & { name: string };
type Stage = Item & { groups: Item[] };
type Action = Record<string, unknown> & { at: string };

/** The strategy object inside a built scenario (inline or referenced), or undefined for the default one. */
function strategyIn(scenario: Record<string, unknown>): { stages: Stage[] } | undefined {
  if (scenario.strategy !== undefined) return scenario.strategy as { stages: Stage[] };
  return (scenario.strategies as Record<string, { stages: Stage[] }> | undefined)?.rollout;
}

const gateList = (count: number, label: string) =>
  Array.from({ length: count }, (_, i) => (i === 0 ? { type: "Approval" } : { displayName: `${label} ${i}`, type: "Approval" }));

/** One place with gates at one timing, and when (if ever) it is approved. */
interface GatedPlace {
  stage: string;
  group?: string;
  timing: "Before" | "After";
  times: ApprovalTime[];
}

function decorateItem(item: Item, raw: RawControls, stage: string, group: string | undefined, places: GatedPlace[]): void {
  if (raw.beforeGates > 0) item.beforeGates = gateList(raw.beforeGates, `${item.name} before`);
  if (raw.afterGates > 0) item.afterGates = gateList(raw.afterGates, `${item.name} after`);
  if (raw.maxAllowedFailures !== undefined) item.maxAllowedFailures = raw.maxAllowedFailures;
  const place = group === undefined ? { stage } : { stage, group };
  if (raw.beforeGates > 0) places.push({ ...place, timing: "Before", times: [raw.approveBefore, raw.approveAgain] });
  if (raw.afterGates > 0) places.push({ ...place, timing: "After", times: [raw.approveAfter, raw.approveAgain] });
}

function decorateMember(member: Record<string, unknown>, raw: RawMemberControls): void {
  const name = String(member.name);
  const simulation = { ...((member.simulation as Record<string, unknown> | undefined) ?? {}) };
  // A draw of "none" keeps the base generator's own (rare) `fail`.
  if (raw.failure.kind === "always") simulation.fail = { code: "UpgradeFailed", message: `drain timed out on ${name}` };
  if (raw.failure.kind === "transient") simulation.fail = { code: "UpgradeFailed", message: `transient fault on ${name}`, attempts: raw.failure.attempts };
  if (raw.unhealthy) simulation.healthy = false;
  if (Object.keys(simulation).length > 0) member.simulation = simulation;
  // A token in the query, as H3 allows (never shown).
  if (raw.probe !== undefined) member.healthCheck = { url: `https://${name}.example.test/healthz?token=secret`, ...raw.probe };
}

/** `buildScenario(raw)` with gates, tolerances, failing/unhealthy members, pauses and approvals added (not yet validated). */
export function decorateScenario(raw: RawScenario, decorations: Decorations): Record<string, unknown> {
  const scenario = buildScenario(raw);
  const start = Date.parse(scenario.start as string);
  const horizonMinutes = (scenario.until === undefined ? DEFAULT_HORIZON_DAYS * DAY : Date.parse(scenario.until as string) - start) / MINUTE;
  const instant = (minutes: number) => isoInstant(start + Math.min(minutes, horizonMinutes) * MINUTE);

  const places: GatedPlace[] = [];
  const strategy = strategyIn(scenario);
  for (const stage of strategy?.stages ?? []) {
    // Names are `s<i>` and `s<i>-g<j>` (arbitraries.ts): decorations are drawn per (i, j) slot.
    const i = Number(stage.name.slice(1));
    decorateItem(stage, decorations.stages[i] as RawControls, stage.name, undefined, places);
    for (const group of stage.groups) {
      const j = Number(group.name.split("-g")[1]);
      decorateItem(group, decorations.groups[i * GROUP_SLOTS + j] as RawControls, stage.name, group.name, places);
    }
  }
  (scenario.members as Array<Record<string, unknown>>).forEach((m, i) => decorateMember(m, decorations.members[i] as RawMemberControls));

  let actions = [...(scenario.actions as Action[])];
  let k = 0;
  for (const { times, ...target } of places) {
    for (const time of times) {
      if (time === undefined) continue;
      const minutes = "minutes" in time ? time.minutes : Math.round((time.permille / 1000) * horizonMinutes);
      const position = (decorations.positions[k++ % decorations.positions.length] as number) % (actions.length + 1);
      actions.splice(position, 0, { at: instant(minutes), approve: [target] });
    }
  }
  for (const pause of decorations.pauses) {
    actions.push({ at: instant(pause.atMinutes), stop: true });
    actions.push({ at: instant(pause.atMinutes + pause.forMinutes), start: true });
  }

  scenario.actions = actions;
  return scenario;
}

const decoratedArb = (focus: Focus): fc.Arbitrary<Scenario> =>
  fc.tuple(rawScenarioArb, decorationsArb(focus)).map(([raw, decorations]) => validateScenario(decorateScenario(raw, decorations)));

/** Valid decorated scenarios with every control (through `validateScenario`, which throws if this file built a bad one). */
export const controlledScenarioArb: fc.Arbitrary<Scenario> = decoratedArb("gates");

/** Valid decorated scenarios leaning towards failures and tolerances, with no start actions. */
export const failingScenarioArb: fc.Arbitrary<Scenario> = decoratedArb("failures");

/** The strategy a scenario's run uses (inline or referenced), or undefined for the default one. */
function scenarioStrategy(scenario: Scenario): UpdateRunStrategy | undefined {
  return scenario.strategy ?? (scenario.updateStrategyId === undefined ? undefined : scenario.strategies?.[scenario.updateStrategyId]);
}

/** Every place of a scenario's strategy that has gates at a timing, as an approval names it. */
export function gatedPlaces(scenario: Scenario): Array<{ stage: string; group?: string; timing: "Before" | "After" }> {
  const places: Array<{ stage: string; group?: string; timing: "Before" | "After" }> = [];
  for (const stage of scenarioStrategy(scenario)?.stages ?? []) {
    if ((stage.beforeGates ?? []).length > 0) places.push({ stage: stage.name, timing: "Before" });
    if ((stage.afterGates ?? []).length > 0) places.push({ stage: stage.name, timing: "After" });
    for (const group of stage.groups) {
      if ((group.beforeGates ?? []).length > 0) places.push({ stage: stage.name, group: group.name, timing: "Before" });
      if ((group.afterGates ?? []).length > 0) places.push({ stage: stage.name, group: group.name, timing: "After" });
    }
  }
  return places;
}

/** `scenario` with every gate approved at its start, the approvals split over `split` actions, and no other action. */
function approveEverythingAtStart(scenario: Scenario, split: number): Scenario {
  const places = gatedPlaces(scenario);
  const actions = Array.from({ length: split }, (_, part) => places.filter((_, i) => i % split === part))
    .filter((batch) => batch.length > 0)
    .map((batch) => ({ at: scenario.start, approve: batch }));
  return validateScenario({ ...scenario, actions });
}

/**
 * The decorated fleet and strategy in a world with no obstacles (`withoutObstacles`: every version
 * offered from the start, no windows, busy clusters, failures, unhealthy clusters or user actions),
 * with every gate approved at the start, split over one to three approve actions. Probes stay: on
 * healthy clusters they pass.
 */
export const approvedWithoutObstaclesArb: fc.Arbitrary<Scenario> = fc
  .tuple(controlledScenarioArb, fc.integer({ min: 1, max: 3 }))
  .map(([scenario, split]) => approveEverythingAtStart(withoutObstacles(scenario), split));

/**
 * As `approvedWithoutObstaclesArb`, but the members keep their failures and unhealthy clusters, and
 * every group tolerates all of its members failing ("100%") while no stage sets a limit of its own
 * (F2: a stage without one adds none). Scenarios without a strategy (whose default group tolerates
 * nothing) keep no failures.
 */
export const toleratedFailuresArb: fc.Arbitrary<Scenario> = fc
  .tuple(failingScenarioArb, fc.integer({ min: 1, max: 3 }))
  .map(([scenario, split]) => {
    const open = structuredClone(withoutObstacles(scenario));
    const strategy = scenarioStrategy(open);
    if (strategy !== undefined) {
      for (const stage of strategy.stages) {
        delete stage.maxAllowedFailures;
        for (const group of stage.groups) group.maxAllowedFailures = "100%";
      }
      open.members.forEach((m, i) => {
        const { fail, healthy } = scenario.members[i]?.simulation ?? {};
        if (fail === undefined && healthy === undefined) return;
        m.simulation = { ...m.simulation, ...(fail === undefined ? {} : { fail }), ...(healthy === undefined ? {} : { healthy }) } as NonNullable<typeof m.simulation>;
      });
    }
    return approveEverythingAtStart(open, split);
  });
