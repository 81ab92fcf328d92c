/**
 * A run's inputs as its driver takes them: the run spec's rules (`src/spec/runSpec.ts`) and the static
 * rules of the backend the run is on — what can be refused from the inputs alone, before anything is
 * opened or read:
 * - Fleet Manager (docs/behaviour.md "Fleet Manager backend"): the run's name is the fleet's update
 *   run's, a strategy reference names one of the run's fleet, and nothing the api-version lacks
 *   (`drivers/fleet/unsupported.ts`);
 * - ARM: every member names its cluster.
 * What needs the world read (the fleet's members, the clusters) is each driver's `check`. Every caller
 * — the Pulumi resources, `fleet-update run`, `plan`, an import — parses a run's inputs here.
 */
import { ValidationError, type FieldIssue } from "../model/issues";
import { FLEET_CHILD_NAME, MAX_FLEET_CHILD_NAME } from "../backends/azureFleet/fleetId";
import { unsupportedInRun } from "./fleet/unsupported";
import { reservedGateNames } from "./fleet/analysisGates";
import { UpdateRunInputsSchema, inspectRunInputs, specInputsOf, type UpdateRunInputs } from "../spec/runSpec";
import { containsUnknown, dropIssuesUnderUnknowns } from "../spec/unknowns";

/** Every problem with the inputs, by field path; values unknown at preview are accepted. */
export function checkRunInputs(raw: Record<string, unknown>): FieldIssue[] {
  const { inputs, issues, known } = inspectRunInputs(raw);
  if (known !== undefined) {
    // Issue 31: a gate display name kept for the gates the client adds for analysis on Fleet Manager,
    // refused on every backend, so a strategy means the same wherever it runs.
    issues.push(...reservedGateNames(known.strategy, "strategy."), ...backendIssues(known));
  }
  return dropIssuesUnderUnknowns(inputs, issues);
}

/** Parse inputs that must be whole (create, update): throws `ValidationError` naming every field. */
export function parseRunInputs(raw: Record<string, unknown>): UpdateRunInputs {
  const issues = checkRunInputs(raw);
  const inputs = specInputsOf(raw);
  if (containsUnknown(inputs)) issues.push({ path: "(inputs)", message: "values are still unknown" });
  if (issues.length > 0) throw new ValidationError(issues);
  return UpdateRunInputsSchema.parse(inputs) as UpdateRunInputs;
}

/** What the run's backend refuses in valid, fully known inputs. */
function backendIssues(inputs: UpdateRunInputs): FieldIssue[] {
  if (inputs.backend.azureFleet !== undefined) return fleetIssues(inputs, inputs.backend.azureFleet);
  if (inputs.backend.azure !== undefined) {
    return inputs.members.flatMap((m, i) => (m.clusterResourceId === undefined ? [{ path: `members[${i}].clusterResourceId`, message: "is required with the Azure backend" }] : []));
  }
  return [];
}

function fleetIssues(inputs: UpdateRunInputs, fleet: NonNullable<UpdateRunInputs["backend"]["azureFleet"]>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const { strategy, members, updateStrategyId, runName, analysis } = inputs;
  if (updateStrategyId !== undefined && strategy === undefined) {
    const prefix = `${fleet.fleetId}/updateStrategies/`;
    const name = updateStrategyId.slice(prefix.length);
    if (updateStrategyId.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase() || !FLEET_CHILD_NAME.test(name) || name.length > MAX_FLEET_CHILD_NAME) {
      issues.push({ path: "updateStrategyId", message: `must be the ARM id of an update strategy of the run's fleet: ${prefix}<name>` });
    }
  }
  // Issue 12: the run's name is the fleet's update run's name (an ARM child resource name).
  if (runName.length > MAX_FLEET_CHILD_NAME || !FLEET_CHILD_NAME.test(runName)) {
    issues.push({ path: "runName", message: `names the fleet's update run: lowercase letters, digits and '-', at most ${MAX_FLEET_CHILD_NAME} characters, got '${runName}'` });
  }
  const { apiVersion } = fleet;
  issues.push(
    ...unsupportedInRun({
      members,
      ...(strategy === undefined ? {} : { strategy }),
      ...(updateStrategyId === undefined ? {} : { updateStrategyId }),
      ...(apiVersion === undefined ? {} : { apiVersion }),
      autoUpgradeProfile: inputs.autoUpgradeProfile,
      ...(analysis === undefined ? {} : { analysis }),
    }),
  );
  return issues;
}
