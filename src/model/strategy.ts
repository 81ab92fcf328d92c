/**
 * docs/rules.md §1 Update strategy, in Azure's `UpdateRunStrategy` shape, with every docs/rules.md §2 rule that can be
 * checked from the strategy alone. Rules that need the members too live in `run.ts`.
 */
import { z } from "zod";
import { LabelSelectorError, parseLabelSelector } from "./labelSelector";
import { DayOfWeekSchema } from "./maintenanceWindow";
import { ConcurrencySchema, FailureToleranceSchema, NameSchema, orRequired } from "./values";
import { MAX_WAIT_SECONDS } from "./limits";
import { unlessMalformed, type FieldIssue } from "./issues";

export const MAX_GROUPS_PER_STAGE = 50;

export const MAX_GATES = 10;

/** Issue 22: when a ScheduledStart gate opens — a weekday and a local time (Fleet's `ScheduledStartConfiguration`). */
export const ScheduledStartConfigurationSchema = z
  .strictObject({
    startDay: DayOfWeekSchema.meta({ description: "Monday to Sunday." }),
    startTime: z
      .string({ error: orRequired("must be a time HH:mm") })
      .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, "must be a time HH:mm, 00:00 to 23:59")
      .meta({ description: "`HH:mm`, local to `utcOffset`." }),
    utcOffset: z
      .string({ error: orRequired("must be an offset such as +01:00") })
      .regex(/^[+-]((0[0-9]|1[0-3]):[0-5][0-9]|14:00)$/, "must be an offset +HH:mm or -HH:mm from -14:00 to +14:00")
      .meta({ description: "`+HH:mm` or `-HH:mm`, from -14:00 to +14:00." }),
  })
  .meta({ objectType: { name: "ScheduledStartConfiguration", description: "When a ScheduledStart gate opens, e.g. production on Tuesday at 09:00 +01:00." } });
export type ScheduledStartConfiguration = z.infer<typeof ScheduledStartConfigurationSchema>;

/**
 * A gate (Azure Fleet's `GateConfiguration`): an `Approval` a person gives (issue 5, docs/behaviour.md),
 * or (issue 22) a `ScheduledStart` that opens at the next occurrence of a weekday and local time
 * (docs/rules.md §17), before-gates only.
 */
export const GateSchema = z
  .strictObject({
    displayName: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters")
      .optional()
      .meta({ description: 'Shown in the status and the report; default "Approval" (or "Scheduled start").' }),
    type: z.enum(["Approval", "ScheduledStart"], { error: orRequired("must be Approval or ScheduledStart") }).meta({
      description:
        '"Approval": opened by listing its id in an `UpdateRun`\'s `approvals`. "ScheduledStart" (before-gates only): opens at the next occurrence of `scheduledStartConfiguration`\'s weekday and time; an approval opens it early.',
    }),
    scheduledStartConfiguration: ScheduledStartConfigurationSchema.optional().meta({ description: "ScheduledStart only: when the gate opens." }),
  })
  .superRefine((gate, ctx) => {
    if (gate.type === "ScheduledStart" && gate.scheduledStartConfiguration === undefined) ctx.addIssue({ code: "custom", path: ["scheduledStartConfiguration"], message: "is required for a ScheduledStart gate" });
    if (gate.type === "Approval" && gate.scheduledStartConfiguration !== undefined) ctx.addIssue({ code: "custom", path: ["scheduledStartConfiguration"], message: "is taken by ScheduledStart gates only" });
  })
  .meta({ objectType: { name: "Gate", description: "A gate (Azure Fleet's gate configuration): an approval, or a scheduled start." } });
export type Gate = z.infer<typeof GateSchema>;

const GatesSchema = z
  .array(GateSchema, { error: orRequired("must be a list of gates") })
  .max(MAX_GATES, `at most ${MAX_GATES} gates`);

/** After-gates: a ScheduledStart gate holds a start, so it is a before-gate only (as in Fleet). */
const AfterGatesSchema = GatesSchema.superRefine((gates, ctx) => {
  gates.forEach((gate, i) => {
    if (gate.type === "ScheduledStart") ctx.addIssue({ code: "custom", path: [i, "type"], message: "a ScheduledStart gate holds a start: it is a before-gate only" });
  });
});

/**
 * Issue 22: choose members by label (docs/rules.md §16). On a group it replaces matching by group name;
 * on a stage it filters the members before its groups select theirs.
 */
export const MemberSelectorSchema = z
  .strictObject({
    byLabel: z
      .string({ error: orRequired("must be a label selector") })
      .superRefine((text, ctx) => {
        try {
          parseLabelSelector(text);
        } catch (e) {
          if (!(e instanceof LabelSelectorError)) throw e;
          ctx.addIssue({ code: "custom", message: `is not a label selector: ${e.message}` });
        }
      })
      .meta({ description: "A label selector such as `env=prod,ring in (1,2),!legacy`; at most 512 characters." }),
  })
  .meta({ objectType: { name: "MemberSelector", description: "A Kubernetes label selector over the members' `labels` (docs/rules.md §16)." } });
export type MemberSelector = z.infer<typeof MemberSelectorSchema>;

/** Gates, failure tolerance (issue 5) and members chosen by label (issue 22): what a stage and a group both take, each described for its owner. */
function controlShape(describe: Record<"beforeGates" | "afterGates" | "maxAllowedFailures" | "memberSelector", string>) {
  return {
    beforeGates: GatesSchema.optional().meta({ description: describe.beforeGates }),
    afterGates: AfterGatesSchema.optional().meta({ description: describe.afterGates }),
    maxAllowedFailures: FailureToleranceSchema.optional().meta({ description: describe.maxAllowedFailures }),
    memberSelector: MemberSelectorSchema.optional().meta({ description: describe.memberSelector }),
  };
}

export const UpdateGroupSchema = z
  .strictObject({
    name: NameSchema.meta({ description: "Group name: lowercase letters, digits and '-', 1–50 characters, unique in the strategy." }),
    // docs/rules.md §6.
    maxConcurrency: ConcurrencySchema.optional().meta({ description: 'Members of the group updated at once: "N" or "P%" (rounded down, at least 1). Default "1".' }),
    ...controlShape({
      beforeGates: "Gates that must all open before the group starts.",
      afterGates: "Gates that must all open before the group counts as done.",
      maxAllowedFailures: 'Failures tolerated in the group before it fails: "N" or "P%" of its members (rounded up). Default: none.',
      memberSelector: "Chooses the group's members by label instead of by their `group`.",
    }),
  })
  .meta({ objectType: { name: "UpdateGroup", description: "One group of a stage: its members are updated one at a time, or `maxConcurrency` at a time." } });

/**
 * Issue 22: a stage with a `memberSelector` and no groups has one implicit group of every member that
 * matches, named after the stage and going at the stage's `maxConcurrency` (docs/rules.md §16). It is
 * written out here, so everything downstream sees an ordinary group.
 */
function withImplicitGroup(stage: unknown): unknown {
  if (stage === null || typeof stage !== "object" || Array.isArray(stage)) return stage;
  const { name, groups, memberSelector, maxConcurrency } = stage as Record<string, unknown>;
  if (groups !== undefined || memberSelector === undefined) return stage;
  return { ...stage, groups: [{ name, memberSelector, ...(maxConcurrency === undefined ? {} : { maxConcurrency }) }] };
}

/**
 * Whether `group` is the group `withImplicitGroup` wrote out for `stage`: its only group, named after
 * it, with its selector and `maxConcurrency` and nothing else. Where a strategy is shown or refused as
 * the user wrote it (Fleet's echo of a strategy, a field refused at Check), that group is left out.
 */
export function isImplicitGroup(
  stage: { name: string; memberSelector?: { byLabel: string } | undefined; maxConcurrency?: string | undefined; groups: readonly unknown[] },
  group: { name: string; memberSelector?: { byLabel: string } | undefined; maxConcurrency?: string | undefined; maxAllowedFailures?: string | undefined; beforeGates?: unknown; afterGates?: unknown },
): boolean {
  return (
    stage.memberSelector !== undefined &&
    stage.groups.length === 1 &&
    group.name === stage.name &&
    group.memberSelector?.byLabel === stage.memberSelector.byLabel &&
    group.maxConcurrency === stage.maxConcurrency &&
    group.maxAllowedFailures === undefined &&
    group.beforeGates === undefined &&
    group.afterGates === undefined
  );
}

const StageShapeSchema = z
  .strictObject({
    name: NameSchema.meta({ description: "Stage name, unique in the strategy." }),
    groups: z
      .array(UpdateGroupSchema, { error: orRequired("must be a list of groups") })
      .min(1, "a stage needs at least one group")
      .max(MAX_GROUPS_PER_STAGE, `a stage has at most ${MAX_GROUPS_PER_STAGE} groups`)
      .meta({ description: "1 to 50 groups, run in parallel. A stage with a `memberSelector` and no groups has one implicit group of every member it selects." }),
    afterStageWaitInSeconds: z
      .number({ error: orRequired("must be a number of seconds") })
      .int("must be a whole number of seconds")
      .min(0, "must not be negative")
      .max(MAX_WAIT_SECONDS, `must be at most ${MAX_WAIT_SECONDS} (365 days)`)
      .optional()
      .meta({ description: "Seconds to wait after the stage ends before the next one starts; default 0." }),
    // docs/rules.md §6: caps the sum of running members over the stage's groups.
    maxConcurrency: ConcurrencySchema.optional().meta({ description: 'Cap on members updated at once over the whole stage: "N" or "P%". Default: no cap.' }),
    ...controlShape({
      beforeGates: "Gates that must all open before the stage starts.",
      afterGates: "Gates that must all open before the stage counts as done (beside its wait).",
      maxAllowedFailures: 'Failures tolerated in the stage before it fails: "N" or "P%" of its members (rounded up). Default: no extra limit.',
      memberSelector: "Filters the members before the stage's groups choose (by label).",
    }),
  })
  .meta({ objectType: { name: "UpdateStage", description: "One stage: its groups run in parallel; stages run in order." } });

export const UpdateStageSchema = z.preprocess(withImplicitGroup, StageShapeSchema);

export const UpdateRunStrategySchema = z
  .strictObject({
    stages: z
      .array(UpdateStageSchema, { error: orRequired("must be a list of stages") })
      .min(1, "a strategy needs at least one stage")
      .meta({ description: "The stages, in order." }),
  })
  .superRefine((strategy, ctx) => {
    const stageAt = new Map<string, number>();
    const groupAt = new Map<string, string>();
    strategy.stages.forEach((stage, s) => {
      const first = stageAt.get(stage.name);
      if (first !== undefined) {
        ctx.addIssue({ code: "custom", path: ["stages", s, "name"], message: `duplicate stage name '${stage.name}' (also stages[${first}])` });
      } else stageAt.set(stage.name, s);
      stage.groups.forEach((group, g) => {
        const where = `stages[${s}].groups[${g}]`;
        const seen = groupAt.get(group.name);
        if (seen !== undefined) {
          ctx.addIssue({ code: "custom", path: ["stages", s, "groups", g, "name"], message: `group '${group.name}' is listed twice (also ${seen})` });
        } else groupAt.set(group.name, where);
      });
    });
  }, unlessMalformed([["stages", "*", "name"], ["stages", "*", "groups", "*", "name"]]))
  .meta({ objectType: { name: "UpdateRunStrategy", description: "Azure's `UpdateRunStrategy`: the stages, in order." } });

export type UpdateGroup = z.infer<typeof UpdateGroupSchema>;
export type UpdateStage = z.infer<typeof UpdateStageSchema>;
export type UpdateRunStrategy = z.infer<typeof UpdateRunStrategySchema>;

/** docs/rules.md §1: a run without a strategy is one stage `default` with one group `default` holding every member. */
export const DEFAULT_STAGE_NAME = "default";
export const DEFAULT_GROUP_NAME = "default";

/** `<stage>/before/0`, `<stage>/<group>/after/1`: stable across runs of the same strategy. */
export function gateId(stage: string, group: string | undefined, timing: "before" | "after", index: number): string {
  return group === undefined ? `${stage}/${timing}/${index}` : `${stage}/${group}/${timing}/${index}`;
}

/** Which gates to approve: every gate of a stage (or of one of its groups) at one timing. */
export const GateApprovalSchema = z.strictObject({
  stage: NameSchema,
  group: NameSchema.optional(),
  timing: z.enum(["Before", "After"], { error: orRequired("must be Before or After") }),
});
export type GateApproval = z.infer<typeof GateApprovalSchema>;

/** The ids of the gates an approval names; empty when the strategy has none there (or no such stage/group). */
export function gateIdsFor(strategy: UpdateRunStrategy | undefined, approval: GateApproval): string[] {
  const stage = strategy?.stages.find((s) => s.name === approval.stage);
  if (stage === undefined) return [];
  const item = approval.group === undefined ? stage : stage.groups.find((g) => g.name === approval.group);
  if (item === undefined) return [];
  const timing = approval.timing === "Before" ? "before" : "after";
  const gates = (timing === "before" ? item.beforeGates : item.afterGates) ?? [];
  return gates.map((_, i) => gateId(stage.name, approval.group, timing, i));
}

/** Why an approval approves nothing (the strategy has no gate there), or undefined when it names a gate. */
export function approvalProblem(strategy: UpdateRunStrategy | undefined, approval: GateApproval): string | undefined {
  if (gateIdsFor(strategy, approval).length > 0) return undefined;
  const where = approval.group === undefined ? `stage '${approval.stage}'` : `group '${approval.group}' of stage '${approval.stage}'`;
  return `${where} has no ${approval.timing.toLowerCase()}-gates to approve`;
}

/** Every gate id of a strategy, in order: stage before, its groups' before and after, stage after. */
export function allGateIds(strategy: UpdateRunStrategy | undefined): string[] {
  const ids: string[] = [];
  for (const stage of strategy?.stages ?? []) {
    (stage.beforeGates ?? []).forEach((_, i) => ids.push(gateId(stage.name, undefined, "before", i)));
    for (const group of stage.groups) {
      (group.beforeGates ?? []).forEach((_, i) => ids.push(gateId(stage.name, group.name, "before", i)));
      (group.afterGates ?? []).forEach((_, i) => ids.push(gateId(stage.name, group.name, "after", i)));
    }
    (stage.afterGates ?? []).forEach((_, i) => ids.push(gateId(stage.name, undefined, "after", i)));
  }
  return ids;
}

/**
 * Approvals naming no gate of the strategy, by path (`approvals[i]`). `where` words the messages: the
 * strategy in hand (`this run`) at Check, or the one a run references in its fleet, read later.
 */
export function unknownApprovals(approvals: readonly string[], strategy: UpdateRunStrategy | undefined, where: { strategy: string; noGates: string }): FieldIssue[] {
  const gates = new Set(allGateIds(strategy));
  const known = gates.size === 0 ? where.noGates : `its gates: ${[...gates].join(", ")}`;
  return approvals.flatMap((id, i) => (gates.has(id) ? [] : [{ path: `approvals[${i}]`, message: `no gate '${id}' in ${where.strategy} (${known})` }]));
}
