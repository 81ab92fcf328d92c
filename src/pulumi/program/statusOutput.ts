/**
 * The `status` output's declared type: docs/rules.md §5's tree, typed the way `@pulumi/azure-native` types
 * `containerservice.UpdateRunStatusResponse`, so a program reading an Azure Fleet run's status reads
 * ours unchanged (`UpdateRun.status` fits wherever `azure-native`'s `UpdateRun.status` is expected).
 *
 * Why not the model's exact type (`UpdateRunStatus`, where times, errors, operation ids and waits are
 * optional)? azure-native declares every response field required because the REST spec marks them
 * read-only, and at run time its objects omit whatever Azure did not return — exactly as ours omit what
 * has no value yet (docs/rules.md §5). Declaring the same shape keeps "swap the resource class, rewrite
 * nothing" true; each field's comment says when it is absent, as Azure's are. For the exact optional
 * types, read the output through `asExactStatus`.
 */
import type { AnalysisRunStatus, UpdateRunStatus, UpdateState } from "../../model/status";

/**
 * Issue 31 (ours; Azure has none): one analysis with its measurements — the model's type as it is
 * (docs/health-analysis.md "In the status").
 */
export type AnalysisRunStatusOutput = AnalysisRunStatus;

/** One state and its times (Azure's `UpdateStatus`). */
export interface UpdateStatusOutput {
  /** docs/rules.md §4's state (azure-native types it `string`; these are its values). */
  state: UpdateState;
  /** When it started (ISO 8601 UTC). Absent while NotStarted. */
  startTime: string;
  /** When it ended (ISO 8601 UTC). Absent until Completed, Failed, Skipped or Stopped. */
  completedTime: string;
  /** Why it failed, when it did (Failed only). Absent otherwise. */
  error: ErrorDetailOutput;
}

/** Azure's `ErrorDetail`. Ours carry `code` and `message`; the other fields are absent. */
export interface ErrorDetailOutput {
  code: string;
  message: string;
  /** Absent: the engine's errors have no target. */
  target: string;
  /** Absent: the engine's errors have no nested details. */
  details: ErrorDetailOutput[];
  /** Absent: the engine's errors have no additional info. */
  additionalInfo: Array<{ type: string; info: unknown }>;
}

export interface MemberUpdateStatusOutput {
  name: string;
  /** The member's cluster; absent for simulated members declared without one. */
  clusterResourceId: string;
  /** The backend's id of the member's upgrade; absent until one started. */
  operationId: string;
  /** Why the member is Pending, Skipped or Failed; absent otherwise. */
  message: string;
  status: UpdateStatusOutput;
  /** Issue 31: the analyses after its upgrade; absent when none is declared for it. */
  analysisRuns: AnalysisRunStatusOutput[];
}

/** An approval gate (ours; Azure's 2024-05-02-preview types have none). */
export interface GateStatusOutput {
  displayName: string;
  /** `<stage>/before/0`, `<stage>/<group>/after/1`: what `approvals` lists. */
  gateId: string;
  /** Pending while waiting for approval. */
  status: UpdateStatusOutput;
}

export interface UpdateGroupStatusOutput {
  name: string;
  status: UpdateStatusOutput;
  /** Members Failed now (within `maxAllowedFailures` the group goes on). */
  failureCount: number;
  /** Absent unless the strategy gives the group before-gates. */
  beforeGates: GateStatusOutput[];
  /** Absent unless the strategy gives the group after-gates. */
  afterGates: GateStatusOutput[];
  members: MemberUpdateStatusOutput[];
}

export interface WaitStatusOutput {
  status: UpdateStatusOutput;
  waitDurationInSeconds: number;
}

export interface UpdateStageStatusOutput {
  name: string;
  status: UpdateStatusOutput;
  /** Members of the stage Failed now. */
  failureCount: number;
  /** Absent unless the strategy gives the stage before-gates. */
  beforeGates: GateStatusOutput[];
  /** Absent unless the strategy gives the stage after-gates. */
  afterGates: GateStatusOutput[];
  /** Absent for a stage without `afterStageWaitInSeconds`. */
  afterStageWaitStatus: WaitStatusOutput;
  /** Issue 31: the stage's pre-checks and soak analyses; absent until one starts. */
  analysisRuns: AnalysisRunStatusOutput[];
  groups: UpdateGroupStatusOutput[];
}

export interface UpdateRunStatusOutput {
  status: UpdateStatusOutput;
  /** Members of the run Failed now. */
  failureCount: number;
  nodeImageSelection: { selectedNodeImageVersions: Array<{ version: string }> };
  stages: UpdateStageStatusOutput[];
}

/** The same value, with the model's exact types: optional where a field may be absent. */
export function asExactStatus(status: UpdateRunStatusOutput): UpdateRunStatus {
  return status as unknown as UpdateRunStatus;
}
