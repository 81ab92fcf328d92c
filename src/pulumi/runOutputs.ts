/**
 * What a provider call on `UpdateRun` returns (`UpdateRunOutputs`, the resource's outputs), and the
 * error that keeps an unfinished run's outputs in the stack (`RunNotFinishedError`), whichever driver
 * ran it (`runSession.ts`).
 */
import type { RunView } from "../drivers/runDriver";
import type { Plan } from "../plan/types";

/** `UpdateRun`'s outputs: the driver's view of the run (each field documented at `RunView`), and its plan. */
export type UpdateRunOutputs = Omit<RunView, "id" | "executes"> & {
  /** Issue 6: the run as predicted when it was created (`fleet-update plan`'s JSON); simulated fleet only. */
  plan?: Plan;
};

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
