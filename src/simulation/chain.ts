/**
 * Issue 5: a scenario of chained runs over one simulated fleet — a staging run, a retry of what
 * failed, a production run promoting what staging applied. A later run refers to an earlier run's
 * outputs with `{ fromRun: <run name>, output: failedMembers | appliedNodeImageVersions }`
 * (docs/behaviour.md "Chained runs"). Runs execute one after another on one virtual clock.
 */
import { z } from "zod";
import { InstantSchema } from "../model/instants";
import { NameSchema, ownValue, orRequired } from "../model/values";
import { ValidationError, friendlyErrors, parsePath, toFieldIssues, type FieldIssue } from "../model/issues";
import { FleetShape, checkFleet } from "../model/fleet";
import { HealthCheckSchema } from "../model/healthCheck";
import { crossValidateRun } from "../model/run";
import { ScenarioActionSchema, horizonProblems, parseScenarioDocument, strategyIssuePath, validateScenario, type Scenario } from "./scenario";
import { UpdateRunStrategySchema, approvalProblem, type UpdateRunStrategy } from "../model/strategy";
import { ManagedClusterUpdateSchema, type ManagedClusterUpdate } from "../model/update";

export const RUN_OUTPUTS = ["failedMembers", "appliedNodeImageVersions"] as const;
export type RunOutputName = (typeof RUN_OUTPUTS)[number];

/** `{ fromRun: staging, output: failedMembers }`: an earlier run's output, resolved when this run starts. */
export const RunOutputRefSchema = z.strictObject({
  fromRun: NameSchema,
  output: z.enum(RUN_OUTPUTS, { error: orRequired(`must be one of ${RUN_OUTPUTS.join(", ")}`) }),
});
export type RunOutputRef = z.infer<typeof RunOutputRefSchema>;

/** A member of one chained run: a fleet member by name, in this run's group. */
export const ChainedMemberSchema = z.strictObject({
  name: NameSchema,
  group: NameSchema.optional(),
  healthCheck: HealthCheckSchema.optional(),
});
export type ChainedMember = z.infer<typeof ChainedMemberSchema>;

export const ChainedRunSchema = z.strictObject({
  name: NameSchema,
  /** Not before this instant; default: the moment the previous run settles (or the scenario's start). */
  start: InstantSchema.optional(),
  /** Default: every fleet member, in the group the fleet gives it. */
  members: z.union([z.array(ChainedMemberSchema), RunOutputRefSchema], { error: "must be a list of members or { fromRun, output: failedMembers }" }).optional(),
  strategy: UpdateRunStrategySchema.optional(),
  updateStrategyId: NameSchema.optional(),
  /** As everywhere; `nodeImageSelection.customNodeImageVersions` may be `{ fromRun, output: appliedNodeImageVersions }`. */
  managedClusterUpdate: z.unknown(),
  actions: z.array(ScenarioActionSchema).default([]),
});
export type ChainedRun = z.infer<typeof ChainedRunSchema>;

export const ChainScenarioSchema = z
  .strictObject({
    start: InstantSchema,
    until: InstantSchema.optional(),
    ...FleetShape,
    strategies: z.record(NameSchema, UpdateRunStrategySchema).optional(),
    runs: z.array(ChainedRunSchema, { error: orRequired("must be a list of runs") }).min(1, "needs at least one run"),
  })
  .superRefine((chain, ctx) => {
    checkFleet(chain, ctx);
    // Once each: runs sharing a referenced strategy find its problems alike.
    const seen = new Set<string>();
    const add = (path: PropertyKey[], message: string) => {
      const key = JSON.stringify([path, message]);
      if (seen.has(key)) return;
      seen.add(key);
      ctx.addIssue({ code: "custom", path, message });
    };
    if (chain.until !== undefined) for (const message of horizonProblems(Date.parse(chain.start), chain.until)) add(["until"], message);
    const fleetNames = new Set(chain.members.map((m) => m.name));
    const earlier = new Set<string>();
    chain.runs.forEach((run, i) => {
      if (earlier.has(run.name)) add(["runs", i, "name"], `duplicate run name '${run.name}'`);
      if (run.strategy !== undefined && run.updateStrategyId !== undefined) add(["runs", i, "updateStrategyId"], "give either an inline strategy or a strategy reference, not both");
      if (run.updateStrategyId !== undefined && ownValue(chain.strategies, run.updateStrategyId) === undefined) {
        add(["runs", i, "updateStrategyId"], `no strategy named '${run.updateStrategyId}' under strategies`);
      }
      const checkRef = (ref: RunOutputRef, path: PropertyKey[], output: RunOutputName) => {
        if (!earlier.has(ref.fromRun)) add([...path, "fromRun"], `no earlier run named '${ref.fromRun}'`);
        if (ref.output !== output) add([...path, "output"], `must be ${output} here`);
      };
      const strategy = chainRunStrategy(chain, run);
      if (Array.isArray(run.members)) {
        run.members.forEach((m, j) => {
          if (!fleetNames.has(m.name)) add(["runs", i, "members", j, "name"], `no fleet member named '${m.name}'`);
        });
      } else if (run.members !== undefined) checkRef(run.members, ["runs", i, "members"], "failedMembers");
      // The run's members against its strategy: its own list, or every fleet member with its group and labels
      // (a retry's members are known, and checked, when it starts: simulateChain.ts).
      const listed = Array.isArray(run.members) ? run.members : run.members === undefined ? chain.members : undefined;
      if (listed !== undefined) {
        // A strategy path is named only for a strategy checked: without an inline one, the referenced one.
        const strategyAt = run.strategy === undefined ? ["strategies", run.updateStrategyId as string] : ["runs", i, "strategy"];
        for (const issue of crossValidateRun({ members: listed, strategy }).issues) {
          const at = strategyIssuePath(issue, strategyAt);
          if (at !== undefined) add(at, issue.message);
          // The fleet's own members are checked as the fleet (checkFleet).
          else if (listed !== chain.members) add(["runs", i, ...pathOf(issue)], issue.message);
        }
      }
      const { update, ref } = splitUpdate(run.managedClusterUpdate);
      if (ref !== undefined) {
        const refPath = ["runs", i, "managedClusterUpdate", "nodeImageSelection", "customNodeImageVersions"];
        const parsedRef = RunOutputRefSchema.safeParse(ref, { error: friendlyErrors });
        if (parsedRef.success) checkRef(parsedRef.data, refPath, "appliedNodeImageVersions");
        else for (const issue of toFieldIssues(parsedRef.error)) add([...refPath, ...pathOf(issue)], issue.message);
      }
      const parsedUpdate = ManagedClusterUpdateSchema.safeParse(update, { error: friendlyErrors });
      if (!parsedUpdate.success) {
        for (const issue of toFieldIssues(parsedUpdate.error)) add(["runs", i, "managedClusterUpdate", ...pathOf(issue)], issue.message);
      }
      const start = Date.parse(chain.start);
      run.actions.forEach((action, k) => {
        if (Date.parse(action.at) < start) add(["runs", i, "actions", k, "at"], "must not be before start");
        action.approve?.forEach((approval, j) => {
          const message = approvalProblem(strategy, approval);
          if (message !== undefined) add(["runs", i, "actions", k, "approve", j], message);
        });
      });
      earlier.add(run.name);
    });
  });
export type ChainScenario = z.infer<typeof ChainScenarioSchema>;

export function chainRunStrategy(chain: { strategies?: Record<string, UpdateRunStrategy> }, run: ChainedRun): UpdateRunStrategy | undefined {
  if (run.strategy !== undefined) return run.strategy;
  return run.updateStrategyId === undefined ? undefined : ownValue(chain.strategies, run.updateStrategyId);
}

/** A scenario file of either form: one run (docs/rules.md §7) or chained runs (`runs:`). */
export type AnyScenario = { kind: "single"; scenario: Scenario } | { kind: "chain"; chain: ChainScenario };

export function parseAnyScenario(text: string): AnyScenario {
  const raw = parseScenarioDocument(text);
  return "runs" in raw ? { kind: "chain", chain: validateChainScenario(raw) } : { kind: "single", scenario: validateScenario(raw) };
}

export function validateChainScenario(input: unknown): ChainScenario {
  const result = ChainScenarioSchema.safeParse(input, { error: friendlyErrors });
  if (!result.success) throw new ValidationError(toFieldIssues(result.error));
  return result.data;
}

/**
 * The run's `managedClusterUpdate` with its `customNodeImageVersions` reference (if any) resolved to
 * `versions`, validated as any other; errors name the run's path.
 */
export function resolveChainUpdate(runIndex: number, raw: unknown, versions: () => Array<{ version: string }>): ManagedClusterUpdate {
  const { update, ref } = splitUpdate(raw);
  const whole = ref === undefined ? update : withCustomVersions(update, versions());
  const parsed = ManagedClusterUpdateSchema.safeParse(whole, { error: friendlyErrors });
  if (parsed.success) return parsed.data;
  throw new ValidationError(toFieldIssues(parsed.error).map((issue) => ({ ...issue, path: `runs[${runIndex}].managedClusterUpdate.${issue.path}` })));
}

/** Take a `{ fromRun, ... }` out of `nodeImageSelection.customNodeImageVersions`; validate the rest without it. */
function splitUpdate(raw: unknown): { update: unknown; ref?: unknown } {
  const selection = (raw as { nodeImageSelection?: { customNodeImageVersions?: unknown } } | undefined)?.nodeImageSelection;
  const custom = selection?.customNodeImageVersions;
  if (custom === null || typeof custom !== "object" || Array.isArray(custom)) return { update: raw };
  // Stand-in for the versions the referenced run will have applied: valid, so the rest is checked.
  return { update: withCustomVersions(raw, [{ version: "Placeholder-000000.00.0" }]), ref: custom };
}

function withCustomVersions(raw: unknown, versions: Array<{ version: string }>): unknown {
  const update = raw as { nodeImageSelection: Record<string, unknown> };
  return { ...update, nodeImageSelection: { ...update.nodeImageSelection, customNodeImageVersions: versions } };
}

function pathOf(issue: FieldIssue): PropertyKey[] {
  return issue.path === "(root)" ? [] : parsePath(issue.path);
}
