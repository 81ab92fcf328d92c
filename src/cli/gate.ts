/**
 * `fleet-update gate list|approve SPEC [GATE_ID...] --backend ...`: see a run's approval gates and
 * approve them (issue 5), through the run's driver: with our engine, in the run's journal (for runs
 * driven by `fleet-update run`, or by Pulumi on the simulated fleet, whose journal lives in the same
 * place) — the run must not be running meanwhile: `run` exits (code 4) at an unapproved gate; approve,
 * then run the same command again; on Fleet Manager, in the fleet at once (docs/behaviour.md FM12).
 * (Pulumi users commit the gate id to `approvals` instead: a reviewed change.)
 */
import { driverFor } from "../drivers/driverFor";
import { readInput, printable } from "./input";
import { refused } from "./refused";
import { backendFromFlags, parseRunSpec, type BackendFlags } from "./runSpec";
import { EXIT_INVALID_INPUT, type CommandIO } from "./simulate";

export async function gateCommand(action: "list" | "approve", file: string, gateIds: string[], flags: BackendFlags, io: CommandIO): Promise<number> {
  try {
    const inputs = parseRunSpec(readInput(file), file, backendFromFlags(flags, process.cwd()));
    if (action === "approve" && gateIds.length === 0) {
      io.stderr("gate approve: name at least one gate id (fleet-update gate list shows them)\n");
      return EXIT_INVALID_INPUT;
    }
    const driver = await driverFor(inputs.backend);
    if (action === "list") {
      const gates = await driver.gates(inputs);
      if (gates.length === 0) io.stdout(`run ${inputs.runName} has no gates\n`);
      for (const gate of gates) io.stdout(`${gate.gateId}\t${gate.state}\t${printable(gate.displayName)}\n`);
      return 0;
    }
    io.stdout(`${printable(await driver.approve(inputs, gateIds))}\n`);
    return 0;
  } catch (e) {
    // A lease held by a live process: the run is being driven right now (issue 11).
    return refused(e, file, io);
  }
}
