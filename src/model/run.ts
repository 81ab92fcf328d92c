/**
 * An update run's input (docs/rules.md §1) and the docs/rules.md §2 rules that need the members and the strategy
 * together. `crossValidateRun` is the one place those cross-field rules live; the scenario file and the
 * Pulumi resources both call it.
 */
import { z } from "zod";
import { NameSchema, type FieldIssue, orRequired } from "./common";
import { MemberSchema } from "./member";
import type { SkipTarget } from "./skip";
import { DEFAULT_GROUP_NAME, DEFAULT_STAGE_NAME, UpdateRunStrategySchema, type UpdateRunStrategy } from "./strategy";
import { ManagedClusterUpdateSchema } from "./update";

export const UpdateRunSpecSchema = z.strictObject({
  members: z.array(MemberSchema, { error: orRequired("must be a list of members") }),
  /** Inline strategy. Omitted (and no reference) = one stage `default`, one group `default`, every member. */
  strategy: UpdateRunStrategySchema.optional(),
  /** Name of a reusable strategy, resolved by the caller. Exclusive with `strategy`. */
  updateStrategyId: NameSchema.optional(),
  managedClusterUpdate: ManagedClusterUpdateSchema,
});
export type UpdateRunSpec = z.infer<typeof UpdateRunSpecSchema>;

/** A member left out of the run because its group is in no stage (a warning, docs/rules.md §2). */
export interface ExcludedMember {
  name: string;
  group?: string;
  reason: string;
}

/** Members as the cross-field rules see them: any object with a name and an optional group. */
interface GroupedMember {
  name: string;
  group?: string;
}

/**
 * Cross-field docs/rules.md §2 rules over already shape-checked input. Returns the problems (with field paths)
 * and the members that will be left out of the run.
 */
export function crossValidateRun(input: {
  members: readonly GroupedMember[];
  strategy?: UpdateRunStrategy;
  updateStrategyId?: string;
}): { issues: FieldIssue[]; excluded: ExcludedMember[] } {
  const issues: FieldIssue[] = [];
  if (input.strategy !== undefined && input.updateStrategyId !== undefined) {
    issues.push({ path: "updateStrategyId", message: "give either an inline strategy or a strategy reference, not both" });
  }
  const firstIndex = new Map<string, number>();
  input.members.forEach((m, i) => {
    const first = firstIndex.get(m.name);
    if (first !== undefined) issues.push({ path: `members[${i}].name`, message: `duplicate member name '${m.name}' (also members[${first}])` });
    else firstIndex.set(m.name, i);
  });

  const excluded: ExcludedMember[] = [];
  const strategy = input.strategy;
  if (strategy === undefined) return { issues, excluded };

  const populated = new Set(input.members.map((m) => m.group).filter((g): g is string => g !== undefined));
  const inStrategy = new Set<string>();
  strategy.stages.forEach((stage, s) =>
    stage.groups.forEach((group, g) => {
      inStrategy.add(group.name);
      if (!populated.has(group.name)) {
        issues.push({ path: `strategy.stages[${s}].groups[${g}].name`, message: `no member belongs to group '${group.name}' (a typo would silently leave clusters out)` });
      }
    }),
  );
  for (const m of input.members) {
    if (m.group === undefined) excluded.push({ name: m.name, reason: "member has no group, and the strategy only updates members of its groups" });
    else if (!inStrategy.has(m.group)) excluded.push({ name: m.name, group: m.group, reason: `group '${m.group}' is in no stage of the strategy` });
  }
  return { issues, excluded };
}

/**
 * Skip targets (docs/rules.md §3.9) naming nothing in the run, by path (`<prefix>[j].name`): an unknown
 * member, group or stage, or a member left out of the run. Known from the inputs alone, so a run
 * refuses such a skip before it opens anything (issue 19: a refused run touches no file); items
 * that are running can only be refused by the engine.
 */
export function unknownSkipTargets(
  members: readonly GroupedMember[],
  strategy: UpdateRunStrategy | undefined,
  excluded: readonly ExcludedMember[],
  skip: readonly SkipTarget[],
  prefix: string,
): FieldIssue[] {
  const leftOut = new Set(excluded.map((m) => m.name));
  const stages = strategy?.stages ?? [{ name: DEFAULT_STAGE_NAME, groups: [{ name: DEFAULT_GROUP_NAME }] }];
  const stageNames = new Set(stages.map((s) => s.name));
  const known = {
    Member: new Set(members.filter((m) => !leftOut.has(m.name)).map((m) => m.name)),
    Group: new Set(stages.flatMap((s) => s.groups.map((g) => g.name))),
    Stage: stageNames,
    AfterStageWait: stageNames,
  };
  return skip.flatMap((target, j): FieldIssue[] => {
    const path = `${prefix}[${j}].name`;
    if (target.type === "Member" && leftOut.has(target.name)) {
      return [{ path, message: `member '${target.name}' is left out of the run (its group is in no stage), so it cannot be skipped` }];
    }
    if (known[target.type].has(target.name)) return [];
    return [{ path, message: `no ${target.type === "AfterStageWait" ? "stage" : target.type.toLowerCase()} named '${target.name}' in this run` }];
  });
}
