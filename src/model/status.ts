/**
 * docs/rules.md §4 states and docs/rules.md §5 status tree, in Azure Fleet's `UpdateRunStatus` shape. These schemas
 * describe the engine's output (and validate stored statuses read back for resume).
 */
import { z } from "zod";

export const UPDATE_STATES = ["NotStarted", "Running", "Pending", "Stopping", "Stopped", "Skipped", "Failed", "Completed"] as const;
export const UpdateStateSchema = z.enum(UPDATE_STATES);
export type UpdateState = z.infer<typeof UpdateStateSchema>;

/** States from which nothing more will happen without a user action. */
export const FINISHED_STATES: ReadonlySet<UpdateState> = new Set(["Completed", "Skipped", "Failed"]);

export const ErrorDetailSchema = z.strictObject({ code: z.string(), message: z.string() });
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>;

export const UpdateStatusSchema = z.strictObject({
  state: UpdateStateSchema,
  startTime: z.string().optional(),
  completedTime: z.string().optional(),
  error: ErrorDetailSchema.optional(),
});
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;

export const MemberUpdateStatusSchema = z.strictObject({
  name: z.string(),
  clusterResourceId: z.string().optional(),
  operationId: z.string().optional(),
  message: z.string().optional(),
  status: UpdateStatusSchema,
});
export type MemberUpdateStatus = z.infer<typeof MemberUpdateStatusSchema>;

/** An approval gate's status (issue 5): Pending while it waits for approval. */
export const GateStatusSchema = z.strictObject({
  displayName: z.string(),
  gateId: z.string(),
  status: UpdateStatusSchema,
  /**
   * Issue 22: a ScheduledStart gate's weekday and time, and once it is reached the instant it opens
   * (Fleet's gate resource `scheduledStartProperties`).
   */
  scheduledStartProperties: z
    .strictObject({ startDay: z.string(), startTime: z.string(), utcOffset: z.string(), absoluteStartTime: z.string().optional() })
    .optional(),
});
export type GateStatus = z.infer<typeof GateStatusSchema>;

/** Present only when the strategy gives the item gates. */
const GatesStatusShape = {
  beforeGates: z.array(GateStatusSchema).optional(),
  afterGates: z.array(GateStatusSchema).optional(),
};

export const UpdateGroupStatusSchema = z.strictObject({
  name: z.string(),
  status: UpdateStatusSchema,
  /** Members Failed now (issue 5: within `maxAllowedFailures` the group goes on). */
  failureCount: z.number(),
  ...GatesStatusShape,
  members: z.array(MemberUpdateStatusSchema),
});
export type UpdateGroupStatus = z.infer<typeof UpdateGroupStatusSchema>;

export const WaitStatusSchema = z.strictObject({
  status: UpdateStatusSchema,
  waitDurationInSeconds: z.number(),
});
export type WaitStatus = z.infer<typeof WaitStatusSchema>;

export const UpdateStageStatusSchema = z.strictObject({
  name: z.string(),
  status: UpdateStatusSchema,
  failureCount: z.number(),
  ...GatesStatusShape,
  afterStageWaitStatus: WaitStatusSchema.optional(),
  groups: z.array(UpdateGroupStatusSchema),
});
export type UpdateStageStatus = z.infer<typeof UpdateStageStatusSchema>;

export const UpdateRunStatusSchema = z.strictObject({
  status: UpdateStatusSchema,
  failureCount: z.number(),
  nodeImageSelection: z.strictObject({
    selectedNodeImageVersions: z.array(z.strictObject({ version: z.string() })),
  }),
  stages: z.array(UpdateStageStatusSchema),
});
export type UpdateRunStatus = z.infer<typeof UpdateRunStatusSchema>;

export const EVENT_SCOPES = ["run", "stage", "group", "member", "wait", "gate"] as const;
export type EventScope = (typeof EVENT_SCOPES)[number];

/** One state change (docs/rules.md §7 `events`). `name` is the run's, stage's, group's or member's name (a wait: its stage's; a gate: its gate id). */
export const RunEventSchema = z.strictObject({
  time: z.string(),
  scope: z.enum(EVENT_SCOPES),
  name: z.string(),
  from: UpdateStateSchema,
  to: UpdateStateSchema,
  message: z.string().optional(),
});
export type RunEvent = z.infer<typeof RunEventSchema>;
