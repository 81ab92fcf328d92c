/**
 * `fleet-update run SPEC --backend simulator:FLEET_FILE|azure [...]`: a run in real time for those not
 * on Pulumi (the `az fleet updaterun` audience). The session is the Pulumi provider's
 * (`src/drivers/`): the same journal, write-ahead before every upgrade, so re-running the same
 * command resumes the run wherever the last process left it. Progress goes to stderr, the result to
 * stdout; the exit code says how the run ended (`runOutcome.ts`). Ctrl-C stops gracefully (nothing
 * new starts, in-flight upgrades are followed to their end); a second Ctrl-C leaves at once.
 */
import { customImageVersions } from "../model/update";
import { fanOut, redeliverTo } from "../events/sink";
import { SkipRefusedError } from "../engine/control";
import { ApprovalRefusedError } from "../engine/gates";
import { appliedNodeImageVersions, failedMembers } from "../engine/results";
import { summarize } from "../engine/summary";
import { StateFileError } from "../backends/simulator/stateFile";
import { LeaseHeldError } from "../runtime/fileLease";
import { ValidationError } from "../model/common";
import type { UpdateRunInputs } from "../spec/runSpec";
import { JournalError } from "../drivers/journal";
import { journalFor, openBackend, type OpenBackend } from "../drivers/openBackend";
import { driveSession, openSession, type RunChoice, type Session } from "../drivers/session";
import { StopRequest } from "../drivers/stopRequest";
import { closeEventSinks, openEventSinks } from "./eventSinks";
import { InputError, readInput, printable } from "./input";
import { chooseCliRun, cliRunIdentity, SpecChangedError } from "./runChoice";
import { EXIT_INTERRUPTED, exitCodeFor, resultText } from "./runOutcome";
import { openProgress, type RunOptions, type RunProgress } from "./runProgress";
import { backendFromFlags, parseRunSpec } from "./runSpec";
import { EXIT_INVALID_INPUT, type CommandIO } from "./simulate";
import { runFleetCommand } from "./runFleet";

export type { RunOptions } from "./runProgress";

interface Prepared {
  inputs: UpdateRunInputs;
  opened: OpenBackend;
  identity: string;
  choice: RunChoice;
}

export async function runCommand(file: string, options: RunOptions, io: CommandIO): Promise<number> {
  // Issue 12: Fleet Manager runs the update; the command creates or attaches and follows (runFleet.ts).
  if (options.backend?.startsWith("azure-fleet:") === true) return runFleetCommand(file, options, io);
  const prepared = prepare(file, options, io);
  if (typeof prepared === "number") return prepared;
  const { inputs, opened, identity, choice } = prepared;
  let sinks;
  try {
    sinks = openEventSinks(options, { append: choice.engineState !== undefined });
  } catch (e) {
    opened.release();
    if (!(e instanceof InputError)) throw e;
    io.stderr(`${printable(e.message)}\n`);
    return EXIT_INVALID_INPUT;
  }
  const toSinks = fanOut(sinks);
  let session: Session | undefined;
  const progress = openProgress(options.progress ?? (process.stderr.isTTY ? "tree" : "lines"), inputs.runName, io, () => session?.engine.status());
  session = openSession(
    opened,
    inputs,
    identity,
    choice,
    (event) => {
      progress.onEvent(event);
      toSinks(event);
    },
    (events) => {
      for (const event of events) progress.onEvent(event);
      redeliverTo(sinks, events);
    },
  );
  const journalFile = opened.journal.file;
  progress.note(
    session.resumed
      ? `Resuming run ${inputs.runName} (${session.id}, ${session.engine.state}) from ${journalFile}.`
      : `Starting run ${inputs.runName} (${session.id}); journal: ${journalFile}. Ctrl-C stops it gracefully.`,
  );
  for (const m of session.engine.excludedMembers) progress.note(`warning: member '${m.name}' is left out of the run: ${m.reason}`);

  const stop = new StopRequest();
  const onInterrupt = interruptHandler(session, stop, progress);
  process.on("SIGINT", onInterrupt);
  try {
    await driveSession(session, inputs, stop);
  } catch (e) {
    progress.finish();
    await closeEventSinks(sinks, io);
    // A skip naming a running item (or an unknown gate) changes nothing: the spec must change.
    if (e instanceof SkipRefusedError || e instanceof ApprovalRefusedError) {
      opened.release();
      io.stderr(`${printable(file)}: ${e instanceof SkipRefusedError ? "skip" : "approvals"}: ${printable(e.message)}\n`);
      return EXIT_INVALID_INPUT;
    }
    throw e;
  } finally {
    process.off("SIGINT", onInterrupt);
  }
  progress.finish();

  const { engine } = session;
  const status = engine.status();
  const summary = summarize(status);
  const code = exitCodeFor(summary, engine);
  if (options.json === true) {
    const snapshot = engine.snapshot();
    io.stdout(`${JSON.stringify({ status, summary, failedMembers: failedMembers(snapshot), appliedNodeImageVersions: appliedNodeImageVersions(snapshot) }, null, 2)}\n`);
  } else {
    io.stdout(resultText(inputs.runName, status, summary, code));
  }
  // After the result is out: a slow or dead webhook delays the exit by its flush bound, not the output.
  await closeEventSinks(sinks, io);
  return code;
}

/** Everything that can refuse the run before it starts: flags, spec, fleet, journal. A number is an exit code. */
function prepare(file: string, options: RunOptions, io: CommandIO): Prepared | number {
  try {
    const backend = backendFromFlags(options, process.cwd());
    const inputs = parseRunSpec(readInput(file), file, backend);
    if (options.progress !== undefined && options.progress !== "tree" && options.progress !== "lines") {
      throw new InputError(`--progress: must be tree or lines, got '${options.progress}'`);
    }
    const identity = cliRunIdentity(inputs);
    // Issue 19: a refused run touches no file. Whether the journal holds another spec's run is
    // decided from a plain read first, before the backend is opened (opening takes leases and may
    // write the simulated fleet's state file); it is read again once the leases are ours.
    const journal = journalFor(inputs.backend, inputs.runName, process.cwd());
    chooseCliRun(inputs, identity, journal.read(), journal.file, options.new === true);
    const opened = openBackend(inputs.backend, inputs.runName, process.cwd(), customImageVersions(inputs.managedClusterUpdate));
    try {
      const choice = chooseCliRun(inputs, identity, opened.journal.read(), opened.journal.file, options.new === true);
      return { inputs, opened, identity, choice };
    } catch (e) {
      opened.release();
      throw e;
    }
  } catch (e) {
    if (e instanceof LeaseHeldError) {
      // Another process drives this simulated fleet or this run: nothing was touched; try again when it is done.
      io.stderr(`${printable(e.message)}\n`);
      return EXIT_INVALID_INPUT;
    }
    if (e instanceof ValidationError) {
      // Flags are named as typed (`--backend: ...`); spec problems by the file and field path.
      for (const issue of e.issues) io.stderr(issue.path.startsWith("--") ? `${issue.path}: ${printable(issue.message)}\n` : `${printable(fieldSource(issue.path, file))}: ${printable(issue.message)}\n`);
      return EXIT_INVALID_INPUT;
    }
    if (e instanceof SpecChangedError) {
      // The spec as a whole differs from the journal's run: named like any whole-document problem.
      io.stderr(`${printable(file)}: (root): ${printable(e.message)}\n`);
      return EXIT_INVALID_INPUT;
    }
    if (e instanceof InputError || e instanceof StateFileError || e instanceof JournalError || isFileError(e)) {
      io.stderr(`${printable((e as Error).message)}\n`);
      return EXIT_INVALID_INPUT;
    }
    throw e;
  }
}

/** The fleet file's problems come back under the provider's field `backend.simulator.fleetFile`. */
function fieldSource(fieldPath: string, file: string): string {
  return fieldPath === "backend.simulator.fleetFile" ? "--backend" : `${file}: ${fieldPath}`;
}

function isFileError(e: unknown): boolean {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === "string" && typeof (e as NodeJS.ErrnoException).path === "string";
}


/**
 * First Ctrl-C: stop at this instant (nothing new starts; in-flight upgrades are followed to their
 * end, then the run is Stopped). Second: journal and leave now; the upgrades in flight go on on the
 * clusters, and the next run of the command waits for them, never racing them.
 */
function interruptHandler(session: Session, stop: StopRequest, progress: RunProgress): () => void {
  let interrupts = 0;
  return () => {
    interrupts += 1;
    if (interrupts === 1) {
      stop.request();
      progress.note("Ctrl-C: stopping — no new member starts; upgrades in flight are followed until they end. Press Ctrl-C again to leave now; running the same command again resumes.");
      return;
    }
    session.save();
    progress.note(`Ctrl-C again: leaving now. Upgrades in flight go on on the clusters; running the same command again resumes the run from ${session.journal.file}.`);
    process.exit(EXIT_INTERRUPTED);
  };
}

