/**
 * What the report accepts, as zod schemas built from the model's (src/model/status.ts): the fields the
 * report draws, picked from the model's schemas. Looser than the model in three ways: fields the report
 * does not draw are not required and unknown fields are ignored (a status written by an older or newer
 * version, or by Azure Fleet with its extra error fields, still makes a report); stages and groups may
 * carry approval gates (`beforeGates` / `afterGates`), with any gate state; and times must be real
 * instants, since the timeline is drawn from them.
 */
import { z } from "zod";
import { InstantSchema } from "../model/instants";
import {
  ErrorDetailSchema,
  type UpdateState,
  MemberUpdateStatusSchema,
  UPDATE_STATES,
  UpdateGroupStatusSchema,
  UpdateStageStatusSchema,
  UpdateStateSchema,
  UpdateStatusSchema,
  WaitStatusSchema,
} from "../model/status";

const StatusSchema = UpdateStatusSchema.pick({ state: true }).extend({
  startTime: InstantSchema.optional(),
  completedTime: InstantSchema.optional(),
  error: ErrorDetailSchema.loose().optional(),
}).loose();

/** An approval gate as stages and groups report it; its state is kept as text (gates may grow states of their own). */
export const GateStatusSchema = z.looseObject({
  displayName: z.string().optional(),
  gateId: z.string().optional(),
  status: z.looseObject({ state: z.string(), startTime: InstantSchema.optional(), completedTime: InstantSchema.optional() }),
});
export type GateStatus = z.infer<typeof GateStatusSchema>;

const Gates = { beforeGates: z.array(GateStatusSchema).optional(), afterGates: z.array(GateStatusSchema).optional() };

/** Issue 31: an analysis with its measurements (ours), as the timeline draws them; phases kept as text. */
export const AnalysisRunSchema = z.looseObject({
  template: z.string(),
  kind: z.string(),
  phase: z.string(),
  query: z.string().optional(),
  successCondition: z.string().optional(),
  failureCondition: z.string().optional(),
  measurements: z.array(
    z.looseObject({ measuredAt: InstantSchema, phase: z.string(), value: z.number().optional(), member: z.string().optional(), query: z.string().optional(), message: z.string().optional() }),
  ),
});
export type ReportAnalysisRun = z.infer<typeof AnalysisRunSchema>;
const Analyses = { analysisRuns: z.array(AnalysisRunSchema).optional() };

const MemberSchema = MemberUpdateStatusSchema.pick({ name: true, clusterResourceId: true, operationId: true, message: true }).extend({ status: StatusSchema, ...Analyses }).loose();

const GroupSchema = UpdateGroupStatusSchema.pick({ name: true }).extend({ status: StatusSchema, members: z.array(MemberSchema), ...Gates }).loose();

const WaitSchema = WaitStatusSchema.pick({ waitDurationInSeconds: true }).extend({ status: StatusSchema }).loose();

const StageSchema = UpdateStageStatusSchema.pick({ name: true }).extend({
  status: StatusSchema,
  afterStageWaitStatus: WaitSchema.optional(),
  groups: z.array(GroupSchema),
  ...Gates,
  ...Analyses,
}).loose();

export const ReportStatusSchema = z.looseObject({
  status: StatusSchema,
  // Optional here: a status from elsewhere may leave it out; the report then says none was selected.
  nodeImageSelection: z.looseObject({ selectedNodeImageVersions: z.array(z.looseObject({ version: z.string() })) }).optional(),
  stages: z.array(StageSchema),
}).loose();
export type ReportStatus = z.infer<typeof ReportStatusSchema>;
export type ReportStage = ReportStatus["stages"][number];
export type ReportGroup = ReportStage["groups"][number];
export type ReportMember = ReportGroup["members"][number];
export type ReportItemStatus = ReportMember["status"];

/** A state change (docs/rules.md §7 `events`); scope and states as text, so events of kinds added later pass. */
export const ReportEventSchema = z.looseObject({
  time: InstantSchema,
  scope: z.string(),
  name: z.string(),
  from: z.string(),
  to: z.string(),
  message: z.string().optional(),
});
export type ReportEvent = z.infer<typeof ReportEventSchema>;

/** `summarize`'s output (src/engine/summary.ts), as the UpdateRun's `summary` output carries it. */
export const ReportSummarySchema = z.looseObject({
  state: UpdateStateSchema,
  outcome: z.string(),
  members: z.looseObject({
    total: z.number().int().nonnegative(),
    ...(Object.fromEntries(UPDATE_STATES.map((s) => [s, z.number().int().nonnegative()])) as Record<UpdateState, z.ZodNumber>),
  }),
  startTime: InstantSchema.optional(),
  completedTime: InstantSchema.optional(),
  durationSeconds: z.number().nonnegative().optional(),
});

/** One run as `simulate --json` prints it, or as a stack output object holding a run's outputs. */
export const RunHolderSchema = z.looseObject({
  status: ReportStatusSchema,
  summary: ReportSummarySchema.optional(),
  events: z.array(ReportEventSchema).optional(),
  /** A run given an `autoUpgradeProfile`: the update generated at its start (docs/rules.md §18). */
  generatedUpdate: z
    .looseObject({ upgrade: z.looseObject({ type: z.string(), kubernetesVersion: z.string().optional() }), nodeImageSelection: z.looseObject({ type: z.string() }).optional() })
    .optional(),
});
