/**
 * docs/rules.md §7 scenario file: a simulated world (regions + clusters) plus one update run and user actions
 * at virtual instants. `parseScenario` is the single entry point: YAML or JSON text in, a validated
 * scenario or a `ValidationError` listing every problem by field path out.
 */
import { z } from "zod";
import { InstantSchema, instantInRange } from "../model/instants";
import { MAX_HORIZON_DAYS } from "../model/limits";
import { NameSchema, ownValue, orRequired } from "../model/values";
import { ValidationError, friendlyErrors, parsePath, toFieldIssues, type FieldIssue, unlessMalformed } from "../model/issues";
import { parseYamlMapping } from "../model/textInput";
import { FleetShape, checkFleet } from "../model/fleet";
import { crossValidateRun, unknownSkipTargets, type ExcludedMember } from "../model/run";
import { SkipTargetSchema } from "../model/skip";
import { GateApprovalSchema, UpdateRunStrategySchema, approvalProblem, type UpdateRunStrategy } from "../model/strategy";
import { ManagedClusterUpdateSchema } from "../model/update";
import { AutoUpgradeProfileSchema, updateChoiceIssues, type UpdateChoice } from "../model/autoUpgrade";
import { AnalysisSchema } from "../model/analysis";

export const DEFAULT_HORIZON_DAYS = 30;

export const ScenarioActionSchema = z
  .strictObject({
    at: InstantSchema,
    skip: z.array(SkipTargetSchema).min(1, "must name at least one item").optional(),
    stop: z.literal(true, { error: orRequired("must be true") }).optional(),
    start: z.literal(true, { error: orRequired("must be true") }).optional(),
    /** Issue 5: approve the gates of a stage or group at one timing. */
    approve: z.array(GateApprovalSchema).min(1, "must name at least one gate").optional(),
  })
  .refine((a) => [a.skip, a.stop, a.start, a.approve].filter((x) => x !== undefined).length === 1, {
    message: "an action does exactly one of skip, stop, start, approve",
  });
export type ScenarioAction = z.infer<typeof ScenarioActionSchema>;

/** Fields the scenario's cross-field checks read. */
const STRATEGY_NAMES: PropertyKey[][] = [["stages", "*", "name"], ["stages", "*", "groups", "*", "name"]];
const CROSS_CHECKED: PropertyKey[][] = [
  ["start"],
  ["until"],
  ["regions"],
  ["updateStrategyId"],
  ["analysis", "stages", "*", "name"],
  ["members", "*", "name"],
  ["members", "*", "group"],
  ["members", "*", "region"],
  ["members", "*", "nodePools", "*", "name"],
  ...STRATEGY_NAMES.map((p) => ["strategy", ...p]),
  ...STRATEGY_NAMES.map((p) => ["strategies", "*", ...p]),
  ...[["strategy"], ["strategies", "*"]].flatMap((at) => ["beforeGates", "afterGates"].flatMap((gates) => [[...at, "stages", "*", gates], [...at, "stages", "*", "groups", "*", gates]])),
  ["actions", "*", "at"],
  ["actions", "*", "skip", "*", "type"],
  ["actions", "*", "skip", "*", "name"],
  ["actions", "*", "approve", "*", "stage"],
  ["actions", "*", "approve", "*", "group"],
  ["actions", "*", "approve", "*", "timing"],
];

export const ScenarioSchema = z
  .strictObject({
    /** Virtual clock at run start; the run is started at this instant. */
    start: InstantSchema,
    /** Horizon; default start + 30 days. */
    until: InstantSchema.optional(),
    ...FleetShape,
    strategy: UpdateRunStrategySchema.optional(),
    /** Reusable strategies, referenced by `updateStrategyId`. */
    strategies: z.record(NameSchema, UpdateRunStrategySchema).optional(),
    updateStrategyId: NameSchema.optional(),
    managedClusterUpdate: ManagedClusterUpdateSchema.optional(),
    /** Instead of `managedClusterUpdate`: generate it when the run starts (docs/rules.md §18). */
    autoUpgradeProfile: AutoUpgradeProfileSchema.optional(),
    /** Issue 31: health analysis (docs/rules.md §19), measured on the simulated fleet's declared metrics. */
    analysis: AnalysisSchema.optional(),
    actions: z.array(ScenarioActionSchema).default([]),
  })
  .superRefine((scenario, ctx) => {
    checkFleet(scenario, ctx);
    const addAt = (path: PropertyKey[], message: string) => ctx.addIssue({ code: "custom", path, message });
    const add = (issue: FieldIssue) => addAt(parsePath(issue.path), issue.message);
    for (const issue of updateChoiceIssues(scenario)) add(issue);
    const strategy = resolveScenarioStrategy(scenario);
    // An inline strategy is the one resolved: only a reference can resolve to none.
    if (scenario.updateStrategyId !== undefined && strategy === undefined) {
      add({ path: "updateStrategyId", message: `no strategy named '${scenario.updateStrategyId}' under strategies` });
    }
    // "Inline and reference" is about what the file says: a resolved reference alone is not "both".
    const inlineAndReference = scenario.strategy !== undefined ? scenario.updateStrategyId : undefined;
    const { issues, excluded } = crossValidateRun({ members: scenario.members, strategy, updateStrategyId: inlineAndReference, ...(scenario.analysis === undefined ? {} : { analysis: scenario.analysis }) });
    // The strategy checked is the inline one, or else the referenced one (without either, no strategy
    // path is named).
    const strategyAt = scenario.strategy === undefined ? ["strategies", scenario.updateStrategyId as string] : ["strategy"];
    for (const issue of issues) addAt(strategyIssuePath(issue, strategyAt) ?? parsePath(issue.path), issue.message);
    const start = Date.parse(scenario.start);
    if (scenario.until !== undefined) for (const message of horizonProblems(start, scenario.until)) add({ path: "until", message });
    scenario.actions.forEach((action, i) => {
      if (Date.parse(action.at) < start) add({ path: `actions[${i}].at`, message: "must not be before start" });
      for (const issue of unknownSkipTargets(scenario.members, strategy, excluded, action.skip ?? [], `actions[${i}].skip`)) add(issue);
      action.approve?.forEach((approval, j) => {
        const message = approvalProblem(strategy, approval);
        if (message !== undefined) add({ path: `actions[${i}].approve[${j}]`, message });
      });
    });
  }, unlessMalformed(CROSS_CHECKED));
/** A scenario: what the file says, with its update as the tagged `UpdateChoice` (exactly one is set). */
export type Scenario = Omit<z.infer<typeof ScenarioSchema>, "managedClusterUpdate" | "autoUpgradeProfile"> & UpdateChoice;

/**
 * Where an issue of a run's checks about its strategy points in the file: `crossValidateRun` names the
 * run's strategy `strategy`, the file has it at `strategyAt` (inline, or a reference's
 * `strategies.<name>`). `undefined` for an issue not about the strategy. Scenarios and chains both.
 */
export function strategyIssuePath(issue: FieldIssue, strategyAt: ReadonlyArray<PropertyKey>): PropertyKey[] | undefined {
  const [head, ...rest] = parsePath(issue.path);
  return head === "strategy" ? [...strategyAt, ...rest] : undefined;
}

/** What is wrong with a scenario's `until` (issue 19: at most `MAX_HORIZON_DAYS` after `start`). */
export function horizonProblems(start: number, until: string): string[] {
  const end = Date.parse(until);
  // An instant out of range (or malformed) has its own message already.
  if (!instantInRange(start) || !instantInRange(end)) return [];
  if (end <= start) return ["must be after start"];
  if (end - start > MAX_HORIZON_DAYS * 86_400_000) return [`must be at most ${MAX_HORIZON_DAYS} days after start`];
  return [];
}

/** The strategy the scenario's run uses: inline, referenced, or undefined (the default strategy). */
export function resolveScenarioStrategy(scenario: {
  strategy?: UpdateRunStrategy;
  strategies?: Record<string, UpdateRunStrategy>;
  updateStrategyId?: string;
}): UpdateRunStrategy | undefined {
  if (scenario.strategy !== undefined) return scenario.strategy;
  if (scenario.updateStrategyId === undefined) return undefined;
  return ownValue(scenario.strategies, scenario.updateStrategyId);
}

/** Drop repeats: the fleet and the run both check member names. */
function dedupe(issues: FieldIssue[]): FieldIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\n${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Validate an already-parsed scenario object. */
export function validateScenario(input: unknown): Scenario {
  const result = ScenarioSchema.safeParse(input, { error: friendlyErrors });
  // The shape's own refinement says "exactly one update" only when the rest is well formed: say it anyway.
  const update = input !== null && typeof input === "object" && !Array.isArray(input) ? updateChoiceIssues(input as Record<string, unknown>) : [];
  if (!result.success) throw new ValidationError(dedupe([...toFieldIssues(result.error), ...update]));
  return result.data as Scenario;
}

/** Parse YAML or JSON text (JSON is YAML) into a validated scenario. */
export function parseScenario(text: string): Scenario {
  return validateScenario(parseScenarioDocument(text));
}

/** YAML or JSON text to a mapping, or a `ValidationError` saying where the text is broken. */
export function parseScenarioDocument(text: string): Record<string, unknown> {
  return parseYamlMapping(text, "a scenario is a mapping with start, regions, members and managedClusterUpdate (or runs)");
}

/** Horizon of a scenario: `until`, or start + 30 days. */
export function scenarioHorizon(scenario: Scenario): number {
  return scenario.until !== undefined ? Date.parse(scenario.until) : Date.parse(scenario.start) + DEFAULT_HORIZON_DAYS * 86_400_000;
}

export type { ExcludedMember };
