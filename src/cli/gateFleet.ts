/**
 * `fleet-update gate list|approve SPEC [GATE_ID...] --backend azure-fleet:FLEET_ID` (docs/behaviour.md
 * FM12): the gates of the fleet's update run named after the spec, by our ids, as its status shows
 * them; approving PATCHes each named gate in Fleet at once — the server-side run goes on without any
 * client. Fleet takes an approval once a gate is Pending: a gate not reached yet is refused, naming
 * the way to approve it ahead (the spec's `approvals`, applied by `fleet-update run` when it is reached).
 */
import { FleetRequestError } from "../backends/azureFleet/fleetClient";
import { fromFleetStatus } from "../backends/azureFleet/fromFleet";
import { gateResources } from "../backends/azureFleet/gateResources";
import type { UpdateRunInputs } from "../spec/runSpec";
import { openFleetClient } from "../drivers/openFleet";
import { statusGates } from "../drivers/waiting";
import { printable } from "./input";
import { EXIT_INVALID_INPUT, type CommandIO } from "./simulate";

export async function fleetGateCommand(action: "list" | "approve", file: string, inputs: UpdateRunInputs, gateIds: string[], io: CommandIO): Promise<number> {
  const client = openFleetClient(inputs.backend.azureFleet as NonNullable<UpdateRunInputs["backend"]["azureFleet"]>);
  const run = await client.getRun(inputs.runName);
  if (run === undefined) {
    io.stderr(`fleet '${client.fleet.fleetName}' has no update run '${inputs.runName}': start it first (fleet-update run), or list the gate ids under approvals in ${printable(file)}\n`);
    return EXIT_INVALID_INPUT;
  }
  const status = fromFleetStatus(run.properties?.status);
  const gates = statusGates(status);
  if (action === "list") {
    if (gates.length === 0) io.stdout(`run ${inputs.runName} has no gates\n`);
    for (const gate of gates) io.stdout(`${gate.gateId}\t${gate.status.state}\t${printable(gate.displayName)}\n`);
    return 0;
  }
  if (gateIds.length === 0) {
    io.stderr("gate approve: name at least one gate id (fleet-update gate list shows them)\n");
    return EXIT_INVALID_INPUT;
  }
  // All or nothing, as on the other backends: every id is checked before anything is sent.
  const resources = gateResources(run.properties?.status);
  const problems = gateIds.flatMap((id) => {
    const gate = resources.get(id);
    if (gate === undefined) return [`no gate '${printable(id)}' in this run (its gates: ${[...resources.keys()].join(", ") || "none"})`];
    if (gate.state === "NotStarted") return [`gate '${id}' is not reached yet: Fleet Manager takes an approval once a gate is Pending; list it under approvals in ${file} and \`fleet-update run\` approves it when it is reached`];
    return [];
  });
  if (problems.length > 0) {
    for (const p of problems) io.stderr(`approval refused, nothing was approved: ${printable(p)}\n`);
    return EXIT_INVALID_INPUT;
  }
  const sent: string[] = [];
  for (const id of gateIds) {
    const gate = resources.get(id) as NonNullable<ReturnType<typeof resources.get>>;
    if (gate.state !== "Pending") continue;
    try {
      await client.approveGate(gate.resourceName);
    } catch (e) {
      if (!(e instanceof FleetRequestError)) throw e;
      io.stderr(`gate '${id}': Fleet Manager refused: ${printable(e.message)}${sent.length > 0 ? ` (approved before it: ${sent.join(", ")})` : ""}\n`);
      return EXIT_INVALID_INPUT;
    }
    sent.push(id);
  }
  const already = gateIds.filter((id) => !sent.includes(id));
  io.stdout(`${sent.length > 0 ? `approved ${sent.join(", ")} in fleet '${client.fleet.fleetName}'; the run goes on server-side` : "nothing to approve"}${already.length > 0 ? ` (already passed: ${already.join(", ")})` : ""}\n`);
  return 0;
}
