/**
 * SPEC §1 Update strategy, in Azure's `UpdateRunStrategy` shape, with every SPEC §2 rule that can be
 * checked from the strategy alone. Rules that need the members too live in `run.ts`.
 */
import { z } from "zod";
import { ConcurrencySchema, NameSchema, orRequired, unlessMalformed } from "./common";

export const MAX_GROUPS_PER_STAGE = 50;

export const UpdateGroupSchema = z.strictObject({
  name: NameSchema,
  /** SPEC §6: members of this group updated at once; default "1". */
  maxConcurrency: ConcurrencySchema.optional(),
});

export const UpdateStageSchema = z.strictObject({
  name: NameSchema,
  groups: z
    .array(UpdateGroupSchema, { error: orRequired("must be a list of groups") })
    .min(1, "a stage needs at least one group")
    .max(MAX_GROUPS_PER_STAGE, `a stage has at most ${MAX_GROUPS_PER_STAGE} groups`),
  afterStageWaitInSeconds: z
    .number({ error: orRequired("must be a number of seconds") })
    .int("must be a whole number of seconds")
    .min(0, "must not be negative")
    .optional(),
  /** SPEC §6: caps the sum of running members over the stage's groups; default unlimited. */
  maxConcurrency: ConcurrencySchema.optional(),
});

export const UpdateRunStrategySchema = z
  .strictObject({
    stages: z.array(UpdateStageSchema, { error: orRequired("must be a list of stages") }).min(1, "a strategy needs at least one stage"),
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
  }, unlessMalformed([["stages", "*", "name"], ["stages", "*", "groups", "*", "name"]]));

export type UpdateGroup = z.infer<typeof UpdateGroupSchema>;
export type UpdateStage = z.infer<typeof UpdateStageSchema>;
export type UpdateRunStrategy = z.infer<typeof UpdateRunStrategySchema>;

/** SPEC §1: a run without a strategy is one stage `default` with one group `default` holding every member. */
export const DEFAULT_STAGE_NAME = "default";
export const DEFAULT_GROUP_NAME = "default";
