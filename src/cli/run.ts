/**
 * `fleet-update run SPEC --backend simulator:FLEET_FILE|azure|azure-fleet:FLEET_ID [...]`: a run in
 * real time for those not on Pulumi (the `az fleet updaterun` audience), through the same driver as
 * the Pulumi resources (`src/drivers/runDriver.ts`). Re-running the same command takes the run up
 * wherever the last process left it: from its journal (our engine), or by attaching to the fleet's
 * run (Fleet Manager, which runs it server-side). Progress goes to stderr, the result to stdout; the
 * exit code says how the run ended (`runOutcome.ts`).
 *
 * Ctrl-C: with our engine, nothing new starts and in-flight upgrades are followed to their end; on
 * Fleet Manager, following ends and the run goes on server-side (set `state: Stopped` to stop it). A
 * second Ctrl-C leaves at once.
 */
import { fanOut, redeliverTo } from "../events/sink";
import { driverFor } from "../drivers/driverFor";
import type { RunCall, RunReport } from "../drivers/runDriver";
import { StopRequest } from "../drivers/stopRequest";
import type { UpdateRunInputs } from "../spec/runSpec";
import { closeEventSinks, openEventSinks } from "./eventSinks";
import { InputError, readInput, printable } from "./input";
import { refused } from "./refused";
import { EXIT_INTERRUPTED, exitCodeFor, resultText } from "./runOutcome";
import { PROGRESS_MODES, openProgress, type RunOptions, type RunProgress } from "./runProgress";
import { backendFromFlags, parseRunSpec } from "./runSpec";
import type { CommandIO } from "./commandIO";

export type { RunOptions } from "./runProgress";

export async function runCommand(file: string, options: RunOptions, io: CommandIO): Promise<number> {
  let inputs: UpdateRunInputs;
  let call: RunCall;
  try {
    ({ inputs, call } = await open(file, options));
  } catch (e) {
    return refused(e, file, io);
  }
  let sinks;
  try {
    // A run taken up appends to its events file; so does one whose history is not known yet.
    sinks = openEventSinks({ ...options, ...(inputs.webhook === undefined ? {} : { runWebhook: inputs.webhook }) }, { append: call.resumed !== false, journalFile: call.journalFile });
  } catch (e) {
    call.release();
    return refused(e, file, io);
  }
  const toSinks = fanOut(sinks);
  const mode = (options.progress as (typeof PROGRESS_MODES)[number] | undefined) ?? (process.stderr.isTTY ? "tree" : "auto");
  const progress = openProgress(mode, inputs.runName, io, () => call.latestStatus());
  progress.note(openingNote(inputs, call));
  const warned = new Set<string>();
  const warnExcluded = (members: readonly RunReport["excludedMembers"][number][], say: (text: string) => void): void => {
    for (const m of members) {
      if (warned.has(m.name)) continue;
      warned.add(m.name);
      say(`warning: member '${m.name}' is left out of the run: ${m.reason}`);
    }
  };
  warnExcluded(call.excludedMembers, (text) => progress.note(text));

  const stop = new StopRequest();
  const onInterrupt = interruptHandler(call, stop, progress);
  process.on("SIGINT", onInterrupt);
  let report: RunReport;
  try {
    report = await call.drive(inputs, {
      stop,
      onEvent: (event) => {
        progress.onEvent(event);
        toSinks(event);
      },
      onRedelivered: (events) => {
        for (const event of events) progress.onEvent(event);
        redeliverTo(sinks, events);
      },
    });
  } catch (e) {
    progress.finish();
    await closeEventSinks(sinks, io);
    call.release();
    return refused(e, file, io);
  } finally {
    process.off("SIGINT", onInterrupt);
  }
  progress.finish();
  warnExcluded(report.excludedMembers, (text) => io.stderr(`${printable(text)}\n`));

  const { status, summary } = report;
  const code = exitCodeFor(summary, report);
  if (options.json === true) {
    const generated = report.generatedUpdate === undefined ? {} : { generatedUpdate: report.generatedUpdate };
    io.stdout(`${JSON.stringify({ status, summary, failedMembers: report.failedMembers, appliedNodeImageVersions: report.appliedNodeImageVersions, ...generated }, null, 2)}\n`);
  } else {
    io.stdout(resultText(inputs.runName, status, summary, code, report.generatedUpdate));
  }
  // After the result is out: a slow or dead webhook delays the exit by its flush bound, not the output.
  await closeEventSinks(sinks, io);
  return code;
}

/** Everything that can refuse the run before it starts: flags, spec, fleet, journal. */
async function open(file: string, options: RunOptions): Promise<{ inputs: UpdateRunInputs; call: RunCall }> {
  const backend = backendFromFlags(options, process.cwd());
  const inputs = parseRunSpec(readInput(file), file, backend);
  if (options.progress !== undefined && !(PROGRESS_MODES as readonly string[]).includes(options.progress)) {
    throw new InputError(`--progress: must be ${PROGRESS_MODES.join(", ")}, got '${options.progress}'`);
  }
  const driver = await driverFor(backend);
  return { inputs, call: await driver.open(inputs, { by: "spec", startNew: options.new === true }) };
}

function openingNote(inputs: UpdateRunInputs, call: RunCall): string {
  if (call.executes === "server") {
    return `Run ${inputs.runName} on Fleet Manager (${call.whereKept}): created or attached to, then followed. Ctrl-C stops following; the run goes on server-side.`;
  }
  return call.resumed === true
    ? `Resuming run ${inputs.runName} (${call.id}, ${call.latestStatus()?.status.state}) from ${call.whereKept}.`
    : `Starting run ${inputs.runName} (${call.id}); journal: ${call.whereKept}. Ctrl-C stops it gracefully.`;
}



/**
 * First Ctrl-C: the driver's stop (our engine: nothing new starts, in-flight upgrades are followed
 * to their end, then the run is Stopped; Fleet Manager: following ends, the run goes on). Second:
 * keep what the next command needs and leave now.
 */
function interruptHandler(call: RunCall, stop: StopRequest, progress: RunProgress): () => void {
  let interrupts = 0;
  const here = call.executes === "here";
  return () => {
    interrupts += 1;
    if (interrupts === 1) {
      stop.request();
      progress.note(
        here
          ? "Ctrl-C: stopping — no new member starts; upgrades in flight are followed until they end. Press Ctrl-C again to leave now; running the same command again resumes."
          : "Ctrl-C: no longer following; the run goes on in Fleet Manager. Run the same command again to follow it (set state: Stopped to stop it).",
      );
      return;
    }
    call.leaveNow();
    if (here) progress.note(`Ctrl-C again: leaving now. Upgrades in flight go on on the clusters; running the same command again resumes the run from ${call.whereKept}.`);
    process.exit(EXIT_INTERRUPTED);
  };
}
