/**
 * What a provider call on `UpdateRun` returns (`UpdateRunOutputs`, the resource's outputs), and the
 * error that keeps an unfinished run's outputs in the stack (`RunNotFinishedError`). Shared by the
 * run's drivers: our engine (`runSession.ts`) and Fleet Manager (`fleetRunSession.ts`).
 */
import type { MemberDrift } from "../engine/drift";
import type { FailedMember } from "../engine/results";
import type { RunState } from "../engine/runState";
import type { RunSummary } from "../engine/summary";
import type { ExcludedMember } from "../model/run";
import type { UpdateRunStatus } from "../model/status";
import type { UpdateRunStrategy } from "../model/strategy";
import type { FleetRunRecord } from "../drivers/runDriver";
import type { Plan } from "../plan/types";

/** What `UpdateRun` stores besides its inputs. */
export interface UpdateRunOutputs {
  status: UpdateRunStatus;
  summary: RunSummary;
  strategySnapshot: UpdateRunStrategy;
  selectedNodeImageVersions: string[];
  excludedMembers: ExcludedMember[];
  /** Members that failed: a retry run takes them as its `members`. */
  failedMembers: FailedMember[];
  /** One image per family actually applied: a retry or promotion run takes them as `customNodeImageVersions`. */
  appliedNodeImageVersions: Array<{ version: string }>;
  /**
   * Members the run Completed whose clusters no longer report what it applied, as the last
   * `pulumi refresh` found them (empty until a refresh finds some; not computed on azureFleet).
   */
  drift: MemberDrift[];
  /**
   * The engine's state, to resume from (plain JSON), without the members' health checks; a secret
   * output. Absent on azureFleet: Fleet Manager holds the run.
   */
  engineState?: RunState;
  /** Issue 12, azureFleet only: the fleet's update run (ARM id) and the skips already sent to it. */
  fleetRun?: FleetRunRecord;
  /** Issue 6: the run as predicted when it was created (`fleet-update plan`'s JSON); simulated fleet only. */
  plan?: Plan;
}

/**
 * The run failed or did not finish. Carries what the dynamic-provider host needs to keep the
 * resource with its status (`id`, `properties`, `reasons`: Pulumi's ErrorResourceInitFailed), so
 * that `pulumi up` fails loudly and the next one calls update, which resumes.
 */
export class RunNotFinishedError extends Error {
  readonly properties: Record<string, unknown>;
  constructor(
    message: string,
    readonly id: string,
    readonly outputs: UpdateRunOutputs,
    readonly reasons: string[],
  ) {
    super(message);
    this.name = "RunNotFinishedError";
    this.properties = { ...outputs };
  }

  /** The properties Pulumi keeps: the raw inputs (with `__provider`) and the outputs. */
  withInputs(inputs: Record<string, unknown>): this {
    Object.assign(this.properties, inputs, this.outputs);
    return this;
  }
}

export interface SessionResult {
  id: string;
  outputs: UpdateRunOutputs;
}
