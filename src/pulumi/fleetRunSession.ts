/**
 * Issue 12: `UpdateRun` on `backend.azureFleet` — one provider call. Fleet Manager runs the update;
 * this call creates or attaches to the fleet's run, applies `state` and `skip`, follows the run and
 * returns Fleet's status as the outputs, in today's shape (`summary`, `failedMembers`, … derived
 * from the status). A failed run, or one still going at `timeoutMinutes`, fails `pulumi up` loudly
 * with its status kept (as on the other backends); `returnAfterMinutes` returns successfully while
 * the run goes on server-side, and the next `pulumi up` follows it again.
 */
import { summarize } from "../engine/summary";
import type { RunEvent } from "../model/status";
import { appliedImagesOf, failedMembersOf, fromFleetStatus } from "../backends/azureFleet/fromFleet";
import { fromFleetStrategy } from "../backends/azureFleet/toFleet";
import { formatProgressLine } from "../drivers/progressLine";
import { checkFleetRun, runFleetSession, type FleetRunRecord, type FleetSessionResult } from "../drivers/fleetSession";
import { openFleetClient } from "../drivers/openFleet";
import { waitingLine } from "../drivers/waiting";
import type { UpdateRunInputs } from "../spec/runSpec";
import { RunNotFinishedError, type SessionResult, type UpdateRunOutputs } from "./runOutputs";

export type { FleetRunRecord } from "../drivers/fleetSession";

function progressLine(runName: string): (e: RunEvent) => void {
  return (e) => {
    process.stderr.write(`${formatProgressLine(runName, e)}\n`);
  };
}

export function fleetOutputs(inputs: UpdateRunInputs, result: Pick<FleetSessionResult, "record" | "status" | "strategySnapshot" | "excludedMembers">): UpdateRunOutputs {
  const { status } = result;
  return JSON.parse(
    JSON.stringify({
      status,
      summary: summarize(status),
      strategySnapshot: result.strategySnapshot,
      selectedNodeImageVersions: status.nodeImageSelection.selectedNodeImageVersions.map((v) => v.version),
      excludedMembers: result.excludedMembers,
      failedMembers: failedMembersOf(status),
      appliedNodeImageVersions: appliedImagesOf(status, inputs.managedClusterUpdate),
      // Drift is read from the clusters themselves (direct ARM, simulated fleet); not on Fleet Manager.
      drift: [],
      fleetRun: result.record,
    }),
  ) as UpdateRunOutputs;
}

export async function runFleetPulumiSession(inputs: UpdateRunInputs, projectDir: string, previous: FleetRunRecord | undefined): Promise<SessionResult> {
  const config = inputs.backend.azureFleet as NonNullable<UpdateRunInputs["backend"]["azureFleet"]>;
  const client = openFleetClient(config, projectDir);
  const result = await runFleetSession(inputs, client, config.pollIntervalSeconds, { ...(previous === undefined ? {} : { previous }), onEvent: progressLine(inputs.runName) });
  const outputs = fleetOutputs(inputs, result);
  const id = result.record.id;
  const summary = outputs.summary;
  if (summary.state === "Failed") {
    const problem = `the run failed: ${outputs.status.status.error?.message ?? "a member failed"}. Run \`pulumi up\` again to start it again (Fleet Manager retries the failed members).`;
    throw new RunNotFinishedError(`update run ${inputs.runName}: ${problem}`, id, outputs, [problem]);
  }
  if (result.end === "deadline") {
    const problem = `the run is ${summary.state} on Fleet Manager (${summary.members.Completed + summary.members.Skipped} of ${summary.members.total} members done) and did not finish before timeoutMinutes; it goes on server-side. Run \`pulumi up\` again to follow it.`;
    throw new RunNotFinishedError(`update run ${inputs.runName}: ${problem}`, id, outputs, [problem]);
  }
  if (result.end === "gate") process.stderr.write(`[${inputs.runName}] ${waitingLine(outputs.status)} The run waits in Fleet Manager; run \`pulumi up\` again with the approval.\n`);
  if (result.end === "returned") process.stderr.write(`[${inputs.runName}] ${waitingLine(outputs.status)} The run goes on in Fleet Manager; run \`pulumi up\` again to follow it.\n`);
  return { id, outputs };
}

/** `pulumi refresh`: one GET of the run, nothing sent. */
export async function observeFleetRun(inputs: UpdateRunInputs, projectDir: string, previous: FleetRunRecord | undefined): Promise<UpdateRunOutputs> {
  const config = inputs.backend.azureFleet as NonNullable<UpdateRunInputs["backend"]["azureFleet"]>;
  const client = openFleetClient(config, projectDir);
  const { excluded } = await checkFleetRun(inputs, client);
  const run = await client.getRun(inputs.runName);
  if (run === undefined) throw new Error(`update run '${inputs.runName}' is not in fleet '${client.fleet.fleetName}' (deleted outside Pulumi?)`);
  const status = fromFleetStatus(run.properties?.status);
  const strategySnapshot = fromFleetStrategy(run.properties?.strategy) ?? inputs.strategy ?? { stages: [] };
  return fleetOutputs(inputs, { record: previous ?? { id: run.id ?? client.runId(inputs.runName), skipsSent: [] }, status, strategySnapshot, excludedMembers: excluded });
}

/**
 * `pulumi destroy` (and the delete half of a replace): delete the fleet's update run record — which
 * touches no cluster — so that a run created again with this name is a new run. A run still in
 * flight is not deleted: stop it first (`state: "Stopped"`).
 */
export async function deleteFleetRun(inputs: UpdateRunInputs, projectDir: string): Promise<void> {
  const config = inputs.backend.azureFleet as NonNullable<UpdateRunInputs["backend"]["azureFleet"]>;
  const client = openFleetClient(config, projectDir);
  const run = await client.getRun(inputs.runName);
  if (run === undefined) return;
  const state = run.properties?.status?.status?.state;
  if (state === "Running" || state === "Stopping") {
    throw new Error(`update run '${inputs.runName}' of fleet '${client.fleet.fleetName}' is ${state}: set state: "Stopped" and run \`pulumi up\` before deleting it (deleting never stops a run)`);
  }
  await client.deleteRun(inputs.runName);
}
