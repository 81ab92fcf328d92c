/**
 * Issue 24: `pulumi import fleet-update:index:UpdateRun NAME ID` adopts an existing run (provider
 * plugin only: a dynamic resource cannot be imported, `runProvider.ts` `CANNOT_IMPORT`). The engine's
 * import step calls Read with the id alone; this returns the inputs that describe the run and its
 * outputs, which Pulumi stores, so that a program declaring the same run shows no diff. Which run an id
 * names, and its inputs, is the drivers' (`src/drivers/adopt.ts`); the run is then read as `pulumi
 * refresh` reads it.
 */
import { adoptRun } from "../../drivers/adopt";
import { parseRunInputs } from "../../drivers/runInputs";
import { PROJECT_DIR_KEY } from "../surface";
import { observeRun, type Tell } from "./runSession";

type Props = Record<string, unknown>;

/** What Read returns for an import: the run's id, its inputs, and its properties (inputs and outputs). */
export interface ImportedRun {
  id: string;
  inputs: Props;
  props: Props;
}

/** Adopt the run `id` names as the resource `runName`, in the project folder `projectDir`. */
export async function importRun(id: string, runName: string, projectDir: string, tell: Tell): Promise<ImportedRun> {
  const adopted = await adoptRun(id, runName, projectDir);
  const parsed = parseRunInputs({ ...adopted.inputs, runName });
  const outputs = await observeRun(parsed, projectDir, adopted.stored, tell);
  return { id: adopted.id, inputs: adopted.inputs, props: { ...adopted.inputs, runName, [PROJECT_DIR_KEY]: projectDir, ...outputs } };
}
