/**
 * `fleet-update gate list|approve SPEC [GATE_ID...] --backend ...`: see a run's approval gates and
 * approve them in its journal (issue 5), for runs driven by `fleet-update run` — or by Pulumi on the
 * simulated fleet, whose journal lives in the same place. The run must not be running meanwhile:
 * `run` exits (code 4) when it reaches an unapproved gate; approve, then run the same command again.
 * (Pulumi users commit the gate id to `approvals` instead: a reviewed change.) On Fleet Manager the
 * gates are the fleet's: `gateFleet.ts`.
 */
import { ApprovalRefusedError } from "../engine/gates";
import { fleetGateCommand } from "./gateFleet";
import { UpdateRunEngine } from "../engine/engine";
import { ValidationError } from "../model/common";
import { LeaseHeldError } from "../runtime/fileLease";
import { openBackend } from "../drivers/openBackend";
import { InputError, readInput, printable } from "./input";
import { backendFromFlags, parseRunSpec, type BackendFlags } from "./runSpec";
import { EXIT_INVALID_INPUT, type CommandIO } from "./simulate";

export async function gateCommand(action: "list" | "approve", file: string, gateIds: string[], flags: BackendFlags, io: CommandIO): Promise<number> {
  let inputs;
  let opened;
  try {
    inputs = parseRunSpec(readInput(file), file, backendFromFlags(flags, process.cwd()));
    // Issue 12: on Fleet Manager the gates are the fleet's, approved there (no journal).
    if (inputs.backend.azureFleet !== undefined) return await fleetGateCommand(action, file, inputs, gateIds, io);
    opened = openBackend(inputs.backend, inputs.runName);
  } catch (e) {
    if (e instanceof ValidationError) {
      for (const issue of e.issues) io.stderr(`${issue.path.startsWith("--") ? "" : `${file}: `}${printable(issue.path)}: ${printable(issue.message)}\n`);
      return EXIT_INVALID_INPUT;
    }
    if (e instanceof InputError || e instanceof LeaseHeldError) {
      // A lease held by a live process: the run is being driven right now (issue 11).
      io.stderr(`${printable(e.message)}\n`);
      return EXIT_INVALID_INPUT;
    }
    throw e;
  }
  const entry = opened.journal.read();
  if (entry === undefined) {
    io.stderr(`${printable(`no journal of run '${inputs.runName}' at ${opened.journal.file}: start the run first (fleet-update run), or list the gate ids under approvals in ${file}`)}\n`);
    return EXIT_INVALID_INPUT;
  }
  const engine = UpdateRunEngine.resume(entry.engineState, opened.backend);
  if (action === "list") {
    const gates = engine.gates();
    if (gates.length === 0) io.stdout(`run ${inputs.runName} has no gates\n`);
    for (const gate of gates) io.stdout(`${gate.gateId}\t${gate.state}\t${printable(gate.displayName)}\n`);
    return 0;
  }
  if (gateIds.length === 0) {
    io.stderr("gate approve: name at least one gate id (fleet-update gate list shows them)\n");
    return EXIT_INVALID_INPUT;
  }
  try {
    engine.approve(gateIds, opened.clock.now());
  } catch (e) {
    if (!(e instanceof ApprovalRefusedError)) throw e;
    io.stderr(`${printable(e.message)} (its gates: ${engine.gates().map((g) => g.gateId).join(", ") || "none"})\n`);
    return EXIT_INVALID_INPUT;
  }
  opened.journal.write({ ...entry, engineState: engine.snapshot() });
  io.stdout(`${printable(`approved ${gateIds.join(", ")} in ${opened.journal.file}`)}; run the same \`fleet-update run\` command again to continue\n`);
  return 0;
}
