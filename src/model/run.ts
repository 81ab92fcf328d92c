/**
 * An update run's input (docs/rules.md §1) and the docs/rules.md §2 rules that need the members and the strategy
 * together. `crossValidateRun` is the one place those cross-field rules live; the scenario file and the
 * Pulumi resources both call it.
 */
import { z } from "zod";
import { NameSchema, orRequired } from "./values";
import type { FieldIssue } from "./issues";
import { MemberSchema } from "./member";
import type { SkipTarget } from "./skip";
import { DEFAULT_GROUP_NAME, DEFAULT_STAGE_NAME, UpdateRunStrategySchema, type UpdateRunStrategy } from "./strategy";
import { ManagedClusterUpdateSchema } from "./update";
import { AutoUpgradeProfileSchema, updateChoiceIssues } from "./autoUpgrade";
import { LabelSelectorError, matchesLabels, parseLabelSelector, type LabelSelector } from "./labelSelector";
import { AnalysisSchema, unknownAnalysisStages, type Analysis } from "./analysis";

export const UpdateRunSpecSchema = z.strictObject({
  members: z.array(MemberSchema, { error: orRequired("must be a list of members") }),
  /** Inline strategy. Omitted (and no reference) = one stage `default`, one group `default`, every member. */
  strategy: UpdateRunStrategySchema.optional(),
  /** Name of a reusable strategy, resolved by the caller. Exclusive with `strategy`. */
  updateStrategyId: NameSchema.optional(),
  managedClusterUpdate: ManagedClusterUpdateSchema.optional(),
  /** Instead of `managedClusterUpdate`: generate it at the run's start (docs/rules.md §18). */
  autoUpgradeProfile: AutoUpgradeProfileSchema.optional(),
  /** Issue 31: health analysis, after members, before stages and through their soaks (docs/rules.md §19). */
  analysis: AnalysisSchema.optional(),
}).superRefine((spec, ctx) => {
  for (const issue of updateChoiceIssues(spec)) ctx.addIssue({ code: "custom", path: [issue.path], message: issue.message });
});
export type UpdateRunSpec = z.infer<typeof UpdateRunSpecSchema>;

/** A member left out of the run because its group is in no stage (a warning, docs/rules.md §2). */
export interface ExcludedMember {
  name: string;
  group?: string;
  reason: string;
}

/** Members as the cross-field rules see them: any object with a name, an optional group and labels. */
interface GroupedMember {
  name: string;
  group?: string;
  labels?: Readonly<Record<string, string>>;
}

/**
 * Which members each group of the strategy holds (docs/rules.md §1, §16): by the group's
 * `memberSelector` when it has one, else by group name; a stage's `memberSelector` filters the members
 * before its groups select theirs. `groups[s][g]` lists the members of `stages[s].groups[g]`, in the
 * members' order. Without a strategy: one group holding every member.
 */
export interface MemberAssignment {
  groups: string[][][];
  issues: FieldIssue[];
  excluded: ExcludedMember[];
}

/** Members by group name, in the members' order. */
function groupIndex(members: readonly GroupedMember[]): Map<string, GroupedMember[]> {
  const out = new Map<string, GroupedMember[]>();
  for (const m of members) {
    if (m.group === undefined) continue;
    const list = out.get(m.group);
    if (list === undefined) out.set(m.group, [m]);
    else list.push(m);
  }
  return out;
}

/** The members of `pool` a selector matches, in the members' order. */
type LabelIndex = (selector: LabelSelector | undefined, pool: readonly GroupedMember[]) => GroupedMember[];

/**
 * Matching through an index of the members by label value (issue 22: a strategy of 1,000 label-selected
 * groups over 100,000 members must cost about what name-selected groups cost): a selector that needs a
 * label to equal one of some values looks only at the members holding those values; others scan.
 */
function labelIndex(members: readonly GroupedMember[]): LabelIndex {
  const position = new Map<GroupedMember, number>();
  members.forEach((m, i) => position.set(m, i));
  const byKey = new Map<string, Map<string, GroupedMember[]>>();
  const valuesOf = (key: string): Map<string, GroupedMember[]> => {
    let index = byKey.get(key);
    if (index === undefined) {
      index = new Map();
      for (const m of members) {
        const value = m.labels !== undefined && Object.prototype.hasOwnProperty.call(m.labels, key) ? m.labels[key] : undefined;
        if (value === undefined) continue;
        const list = index.get(value);
        if (list === undefined) index.set(value, [m]);
        else list.push(m);
      }
      byKey.set(key, index);
    }
    return index;
  };
  // A stage's members as a set, made once for all its groups.
  const pools = new WeakMap<readonly GroupedMember[], Set<GroupedMember>>();
  const poolSet = (pool: readonly GroupedMember[]): Set<GroupedMember> => {
    let set = pools.get(pool);
    if (set === undefined) pools.set(pool, (set = new Set(pool)));
    return set;
  };
  return (selector, pool) => {
    if (selector === undefined) return [];
    const narrowing = selector.requirements.find((r) => r.op === "=" || r.op === "in");
    if (narrowing === undefined) return pool.filter((m) => matchesLabels(selector, m.labels));
    const values = narrowing.op === "=" ? [narrowing.value] : narrowing.op === "in" ? narrowing.values : [];
    const index = valuesOf(narrowing.key);
    let found = [...new Set(values)].flatMap((v) => index.get(v) ?? []);
    if (values.length > 1) found = found.sort((a, b) => (position.get(a) as number) - (position.get(b) as number));
    const inPool = pool === members ? undefined : poolSet(pool);
    return found.filter((m) => (inPool === undefined || inPool.has(m)) && matchesLabels(selector, m.labels));
  };
}

/** A selector that does not parse (undefined) selects nobody here: the schema names its fault (`MemberSelectorSchema`). */
function parsedOrNothing(text: string): LabelSelector | undefined {
  try {
    return parseLabelSelector(text);
  } catch (e) {
    if (!(e instanceof LabelSelectorError)) throw e;
    return undefined;
  }
}

export function assignMembers(members: readonly GroupedMember[], strategy: UpdateRunStrategy | undefined): MemberAssignment {
  if (strategy === undefined) return { groups: [[members.map((m) => m.name)]], issues: [], excluded: [] };
  const issues: FieldIssue[] = [];
  const selectors = new Map<string, LabelSelector | undefined>();
  const selector = (text: string): LabelSelector | undefined => {
    if (!selectors.has(text)) selectors.set(text, parsedOrNothing(text));
    return selectors.get(text);
  };
  const usesLabels = strategy.stages.some((stage) => stage.memberSelector !== undefined || stage.groups.some((g) => g.memberSelector !== undefined));
  const select = usesLabels ? labelIndex(members) : undefined;
  // Where each member was taken, to refuse a member that two groups select (by entry: a duplicate
  // name is its own problem, `members[i].name`).
  const takenBy = new Map<GroupedMember, { group: string; at: string }>();
  let allByGroup: Map<string, GroupedMember[]> | undefined;
  const groups = strategy.stages.map((stage, s) => {
    const inStage = stage.memberSelector === undefined ? members : (select as LabelIndex)(selector(stage.memberSelector.byLabel), members);
    // Members by group name, for the groups chosen by name: made once for the whole run when no stage filters.
    const byGroup = inStage === members ? (allByGroup ??= groupIndex(members)) : groupIndex(inStage);
    return stage.groups.map((group, g) => {
      const at = `stages[${s}].groups[${g}]`;
      const chosen = group.memberSelector === undefined ? (byGroup.get(group.name) ?? []) : (select as LabelIndex)(selector(group.memberSelector.byLabel), inStage);
      for (const m of chosen) {
        const first = takenBy.get(m);
        if (first === undefined) takenBy.set(m, { group: group.name, at });
        // A group listed twice is its own problem (`UpdateRunStrategySchema`).
        else if (first.group !== group.name) {
          const path = group.memberSelector === undefined ? `strategy.${at}.name` : `strategy.${at}.memberSelector.byLabel`;
          issues.push({ path, message: `member '${m.name}' is selected by group '${first.group}' (${first.at}) and by group '${group.name}': a member belongs to one group of a run` });
        }
      }
      return chosen.map((m) => m.name);
    });
  });
  const excluded: ExcludedMember[] = [];
  for (const m of members) {
    if (takenBy.has(m)) continue;
    const group = m.group === undefined ? {} : { group: m.group };
    if (usesLabels) excluded.push({ name: m.name, ...group, reason: "no group of the strategy selects it, by group name or by label" });
    else if (m.group === undefined) excluded.push({ name: m.name, reason: "member has no group, and the strategy only updates members of its groups" });
    // Without selectors every member of a group of the strategy was taken by name: this group is in no stage.
    else excluded.push({ name: m.name, group: m.group, reason: `group '${m.group}' is in no stage of the strategy` });
  }
  return { groups, issues, excluded };
}

/**
 * Cross-field docs/rules.md §2 rules over already shape-checked input. Returns the problems (with field paths),
 * the members that will be left out of the run, and which members each group holds.
 */
export function crossValidateRun(input: {
  members: readonly GroupedMember[];
  strategy?: UpdateRunStrategy;
  updateStrategyId?: string;
  analysis?: Analysis;
}): { issues: FieldIssue[]; excluded: ExcludedMember[]; assignment: MemberAssignment } {
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

  // A group no member belongs to (by name, or a selector matching nobody) is not refused, as Fleet
  // Manager does not refuse it (strategies are reused across fleets): it ends Skipped, and `plan` /
  // `pulumi preview` name it (EMPTY_GROUP), since it may be a typo (docs/rules.md §2, §4).
  const assignment = assignMembers(input.members, input.strategy);
  const strategy = input.strategy;
  // Issue 31: an analysis used at a stage names a stage of the run (without a strategy: `default`).
  issues.push(...unknownAnalysisStages(input.analysis, (strategy?.stages ?? [{ name: DEFAULT_STAGE_NAME }]).map((s) => s.name)));
  issues.push(...assignment.issues);
  return { issues, excluded: assignment.excluded, assignment };
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
    // A member left out is named as such before this is asked.
    Member: new Set(members.map((m) => m.name)),
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
