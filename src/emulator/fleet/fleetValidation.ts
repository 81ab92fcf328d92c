/**
 * Request bodies of the Fleet routes, checked with the project's own schemas (docs/rules.md §2). A bad body is
 * a 400 whose message names every offending field by its path in the request (`properties.strategy.
 * stages[1].groups[0].name: ...`), with ARM's `target` (the first field) and one `details` entry per
 * problem. Nothing is changed when a body is refused.
 */
import { z } from "zod";
import { NameSchema, parseOrThrow, ValidationError, type FieldIssue } from "../../model/common";
import { SkipTargetSchema, type SkipTarget } from "../../model/skip";
import { UpdateRunStrategySchema, type UpdateRunStrategy } from "../../model/strategy";
import { ManagedClusterUpdateSchema, type ManagedClusterUpdate } from "../../model/update";
import { ArmError, type ArmErrorBody } from "../core/armErrors";

/** ARM's validation answer: 400 with `target` and `details`. */
export class FieldValidationError extends ArmError {
  constructor(readonly issues: FieldIssue[]) {
    super(400, "InvalidRequestContent", issues.map((i) => `${i.path}: ${i.message}`).join("; "));
  }

  override get body(): ArmErrorBody & { error: { target?: string; details: Array<{ code: string; target: string; message: string }> } } {
    const [first] = this.issues;
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(first === undefined ? {} : { target: first.path }),
        details: this.issues.map((i) => ({ code: this.code, target: i.path, message: i.message })),
      },
    };
  }
}

/** Run `parse`, turning the project's `ValidationError` into the 400 answer, every path under `prefix`. */
export function validated<T>(parse: () => T, prefix = ""): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new FieldValidationError(error.issues.map((i) => ({ path: prefix === "" ? i.path : i.path === "(root)" ? prefix : `${prefix}.${i.path}`, message: i.message })));
    }
    throw error;
  }
}

const Properties = <S extends z.ZodType>(shape: S) => z.object({ properties: shape }, { error: "must be a mapping with properties" });

const StrategyBody = Properties(z.object({ strategy: UpdateRunStrategySchema }));

/** FleetUpdateStrategy PUT: `properties.strategy`. */
export function parseStrategyBody(body: unknown): UpdateRunStrategy {
  return validated(() => parseOrThrow(StrategyBody, body)).properties.strategy;
}

const RunBody = Properties(
  z.object({
    updateStrategyId: z.string({ error: "must be a string (the ARM id of an update strategy of this fleet)" }).min(1, "must not be empty").optional(),
    strategy: UpdateRunStrategySchema.optional(),
    managedClusterUpdate: ManagedClusterUpdateSchema,
  }),
);

export interface RunSpec {
  updateStrategyId?: string;
  strategy?: UpdateRunStrategy;
  managedClusterUpdate: ManagedClusterUpdate;
}

/** UpdateRun PUT: `properties.{updateStrategyId | strategy, managedClusterUpdate}`. */
export function parseRunBody(body: unknown): RunSpec {
  const { properties } = validated(() => parseOrThrow(RunBody, body));
  if (properties.updateStrategyId !== undefined && properties.strategy !== undefined) {
    throw new FieldValidationError([{ path: "properties.updateStrategyId", message: "give either an inline strategy or a strategy reference (updateStrategyId), not both" }]);
  }
  return {
    ...(properties.updateStrategyId === undefined ? {} : { updateStrategyId: properties.updateStrategyId }),
    ...(properties.strategy === undefined ? {} : { strategy: properties.strategy }),
    managedClusterUpdate: properties.managedClusterUpdate,
  };
}

const SkipBody = z.object({ targets: z.array(SkipTargetSchema, { error: "must be a list of skip targets" }).min(1, "name at least one target") });

/** UpdateRuns_Skip: `{targets: [{type, name}]}`. */
export function parseSkipBody(body: unknown): SkipTarget[] {
  return validated(() => parseOrThrow(SkipBody, body)).targets;
}

const MemberBody = Properties(
  z.object({
    clusterResourceId: z.string({ error: "is required (the ARM id of a managed cluster)" }).min(1, "must not be empty"),
    group: NameSchema.optional(),
  }),
);

/** FleetMember PUT: `properties.{clusterResourceId, group}`. */
export function parseMemberBody(body: unknown): { clusterResourceId: string; group?: string } {
  return validated(() => parseOrThrow(MemberBody, body)).properties;
}

/** A resource name in a path (strategy, run, member): Fleet's names are DNS labels. */
export function checkName(name: string, what: string): void {
  const result = NameSchema.safeParse(name);
  if (!result.success) throw new FieldValidationError([{ path: what, message: result.error.issues[0]?.message ?? "is not a valid name" }]);
}
