/**
 * What a provider call on `UpdateRun` returns (`UpdateRunOutputs`, the resource's outputs: one schema,
 * `UpdateRunOutputsSchema` in `surface.ts`), and the error that keeps an unfinished run's outputs in
 * the stack (`RunNotFinishedError`), whichever driver ran it (`runSession.ts`).
 */
import type { RunView } from "../../drivers/runDriver";
import { UPDATE_RUN_OUTPUTS, type UpdateRunOutputs } from "../surface";

export type { UpdateRunOutputs } from "../surface";

/** The outputs from the driver's view of the run, as plain JSON (the dynamic-provider host takes nothing else), in the schema's order. */
export function outputsOf(view: RunView & Pick<UpdateRunOutputs, "plan">): UpdateRunOutputs {
  const picked = Object.fromEntries(UPDATE_RUN_OUTPUTS.map((name) => [name, view[name]]));
  return JSON.parse(JSON.stringify(picked)) as UpdateRunOutputs;
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
