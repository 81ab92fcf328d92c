/** docs/rules.md §3.9 user skip targets. */
import { z } from "zod";
import { NameSchema, orRequired } from "./common";

export const SkipTargetTypeSchema = z.enum(["Member", "Group", "Stage", "AfterStageWait"], {
  error: orRequired("must be one of Member, Group, Stage, AfterStageWait"),
});
export const SkipTargetSchema = z.strictObject({
  type: SkipTargetTypeSchema,
  /** The member's, group's or stage's name (AfterStageWait: the stage's). */
  name: NameSchema,
});
export type SkipTarget = z.infer<typeof SkipTargetSchema>;
