/** docs/rules.md §3.9 user skip targets. */
import { z } from "zod";
import { NameSchema, orRequired } from "./values";

export const SkipTargetTypeSchema = z.enum(["Member", "Group", "Stage", "AfterStageWait"], {
  error: orRequired("must be one of Member, Group, Stage, AfterStageWait"),
});
export const SkipTargetSchema = z
  .strictObject({
    type: SkipTargetTypeSchema.meta({ description: "Member, Group, Stage, or AfterStageWait (named by its stage)." }),
    name: NameSchema.meta({ description: "The name of the member, group or stage (for an AfterStageWait, its stage's)." }),
  })
  .meta({ objectType: { name: "SkipTarget", description: "An item of the run to skip." } });
export type SkipTarget = z.infer<typeof SkipTargetSchema>;
