/**
 * docs/rules.md §4 states and docs/rules.md §5 status tree, in Azure Fleet's `UpdateRunStatus` shape. These schemas
 * describe the engine's output (and validate stored statuses read back for resume).
 */
import { z } from "zod";

export const UPDATE_STATES = ["NotStarted", "Running", "Pending", "Stopping", "Stopped", "Skipped", "Failed", "Completed"] as const;
export const UpdateStateSchema = z.enum(UPDATE_STATES);
export type UpdateState = z.infer<typeof UpdateStateSchema>;

/** The states an item's update ends in (Stopped only pauses it); there its `completedTime` says when it got there. */
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

/**
 * Issue 31 (ours, not Fleet's): one measurement of an analysis — its instant, verdict and value, and
 * for a query evaluated per member, which member gave the value that decided it.
 */
export const MeasurementStatusSchema = z.strictObject({
  measuredAt: z.string(),
  phase: z.enum(["Successful", "Failed", "Inconclusive", "Error"]),
  /** The deciding sample (absent: no data, or an error); for a web probe, the HTTP status. */
  value: z.number().optional(),
  /** The member whose sample decided it, when the query is evaluated per member. */
  member: z.string().optional(),
  /** The query as sent for that member (PromQL), or the probe's URL as shown. */
  query: z.string().optional(),
  message: z.string().optional(),
});
export type MeasurementStatus = z.infer<typeof MeasurementStatusSchema>;

/**
 * Issue 31 (ours): one analysis as it ran — Argo's AnalysisRun metric result: where it ran (`kind`),
 * its template, what it asks and what passes, its counts and measurements.
 */
export const AnalysisRunStatusSchema = z.strictObject({
  template: z.string(),
  kind: z.enum(["afterMember", "preCheck", "soak"]),
  phase: z.enum(["Running", "Successful", "Failed", "Inconclusive", "Error"]),
  provider: z.enum(["web", "prometheus"]),
  /** PromQL as declared (placeholders kept), or the probe's URL as shown. */
  query: z.string(),
  successCondition: z.string().optional(),
  failureCondition: z.string().optional(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  nextMeasurementAt: z.string().optional(),
  count: z.number(),
  successful: z.number(),
  failed: z.number(),
  inconclusive: z.number(),
  error: z.number(),
  message: z.string().optional(),
  measurements: z.array(MeasurementStatusSchema),
});
export type AnalysisRunStatus = z.infer<typeof AnalysisRunStatusSchema>;

export const MemberUpdateStatusSchema = z.strictObject({
  name: z.string(),
  clusterResourceId: z.string().optional(),
  operationId: z.string().optional(),
  message: z.string().optional(),
  status: UpdateStatusSchema,
  /** Issue 31 (ours): the analyses after its upgrade. */
  analysisRuns: z.array(AnalysisRunStatusSchema).optional(),
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
  /** Issue 31 (ours): the stage's pre-checks and soak analyses. */
  analysisRuns: z.array(AnalysisRunStatusSchema).optional(),
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

export const EVENT_SCOPES = ["run", "stage", "group", "member", "wait", "gate", "analysis"] as const;
export type EventScope = (typeof EVENT_SCOPES)[number];

/**
 * One state change (docs/rules.md §7 `events`). `name` is the run's, stage's, group's or member's name
 * (a wait: its stage's; a gate: its gate id; an analysis: its id, `<stage>/<kind>/<template>` or
 * `<member>/afterMember/<template>`). Issue 31: an analysis's events carry each `measurement`, one
 * event per measurement, its state unchanged while it runs.
 */
export const RunEventSchema = z.strictObject({
  time: z.string(),
  scope: z.enum(EVENT_SCOPES),
  name: z.string(),
  from: UpdateStateSchema,
  to: UpdateStateSchema,
  message: z.string().optional(),
  measurement: MeasurementStatusSchema.optional(),
});
export type RunEvent = z.infer<typeof RunEventSchema>;
