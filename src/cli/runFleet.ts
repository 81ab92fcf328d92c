/**
 * Issue 12: `fleet-update run SPEC --backend azure-fleet:FLEET_ID`. Fleet Manager executes the run;
 * the command creates the fleet's update run named after the spec (or attaches to it: running the
 * same command again never makes a second run), applies `state` and new `skip` entries, and follows
 * the run with GETs until it ends, reaches the state asked for, or the time limits. Ctrl-C ends the
 * following only: the run goes on server-side (exit 4, or 3 with upgrades in flight); to stop the run
 * itself, set `state: Stopped` and run the command again. Same output and exit codes as `run`.
 */
import { summarize } from "../engine/summary";
import { fanOut } from "../events/sink";
import { ValidationError } from "../model/common";
import { appliedImagesOf, failedMembersOf } from "../backends/azureFleet/fromFleet";
import { FleetRequestError } from "../backends/azureFleet/fleetClient";
import type { UpdateRunStatus } from "../model/status";
import { runFleetSession, type FleetSessionResult } from "../drivers/fleetSession";
import { openFleetClient } from "../drivers/openFleet";
import { StopRequest } from "../drivers/stopRequest";
import { closeEventSinks, openEventSinks } from "./eventSinks";
import { InputError, printable, readInput } from "./input";
import { EXIT_INTERRUPTED, exitCodeFor, resultText } from "./runOutcome";
import { openProgress, type RunOptions } from "./runProgress";
import { backendFromFlags, parseRunSpec } from "./runSpec";
import { EXIT_INVALID_INPUT, type CommandIO } from "./simulate";

export async function runFleetCommand(file: string, options: RunOptions, io: CommandIO): Promise<number> {
  let inputs;
  let sinks;
  try {
    inputs = parseRunSpec(readInput(file), file, backendFromFlags(options, process.cwd()));
    if (options.progress !== undefined && options.progress !== "tree" && options.progress !== "lines") throw new InputError(`--progress: must be tree or lines, got '${options.progress}'`);
    sinks = openEventSinks(options, { append: true });
  } catch (e) {
    return invalid(e, file, io);
  }
  const fleet = inputs.backend.azureFleet as NonNullable<typeof inputs.backend.azureFleet>;
  let latest: UpdateRunStatus | undefined;
  const progress = openProgress(options.progress ?? (process.stderr.isTTY ? "tree" : "lines"), inputs.runName, io, () => latest);
  const toSinks = fanOut(sinks);
  progress.note(`Run ${inputs.runName} on Fleet Manager (${fleet.fleetId}): created or attached to, then followed. Ctrl-C stops following; the run goes on server-side.`);
  const stop = new StopRequest();
  let interrupts = 0;
  const onInterrupt = (): void => {
    interrupts += 1;
    if (interrupts === 1) {
      stop.request();
      progress.note("Ctrl-C: no longer following; the run goes on in Fleet Manager. Run the same command again to follow it (set state: Stopped to stop it).");
      return;
    }
    process.exit(EXIT_INTERRUPTED);
  };
  process.on("SIGINT", onInterrupt);
  let result: FleetSessionResult;
  try {
    result = await runFleetSession(inputs, openFleetClient(fleet), fleet.pollIntervalSeconds, {
      stop,
      onEvent: (event) => {
        progress.onEvent(event);
        toSinks(event);
      },
    });
  } catch (e) {
    progress.finish();
    await closeEventSinks(sinks, io);
    if (e instanceof FleetRequestError && e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500 && e.statusCode !== 429) {
      io.stderr(`${printable(file)}: Fleet Manager refused: ${printable(e.message)}\n`);
      return EXIT_INVALID_INPUT;
    }
    return invalid(e, file, io);
  } finally {
    process.off("SIGINT", onInterrupt);
  }
  latest = result.status;
  progress.finish();
  for (const m of result.excludedMembers) io.stderr(`warning: member '${m.name}' is left out of the run: ${printable(m.reason)}\n`);
  const { status } = result;
  const summary = summarize(status);
  const code = exitCodeFor(summary, { busy: summary.members.Running > 0 || status.status.state === "Stopping" });
  if (options.json === true) {
    io.stdout(`${JSON.stringify({ status, summary, failedMembers: failedMembersOf(status), appliedNodeImageVersions: appliedImagesOf(status, inputs.managedClusterUpdate) }, null, 2)}\n`);
  } else {
    io.stdout(resultText(inputs.runName, status, summary, code));
  }
  await closeEventSinks(sinks, io);
  return code;
}

function invalid(e: unknown, file: string, io: CommandIO): number {
  if (e instanceof ValidationError) {
    for (const issue of e.issues) io.stderr(issue.path.startsWith("--") ? `${issue.path}: ${printable(issue.message)}\n` : `${printable(`${file}: ${issue.path}`)}: ${printable(issue.message)}\n`);
    return EXIT_INVALID_INPUT;
  }
  if (e instanceof InputError) {
    io.stderr(`${printable(e.message)}\n`);
    return EXIT_INVALID_INPUT;
  }
  throw e;
}
