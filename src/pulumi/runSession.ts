/**
 * One provider call's work on a run: open the backend, create or resume the engine, apply the user's
 * controls, drive the run in real (scaled) time until it settles or the deadline, and report. The
 * provider methods in `runProvider.ts` are thin shells around this; the session itself (backend,
 * journal, engine, controls, driving) is `src/drivers/`, shared with `fleet-update run`.
 */
import { customImageVersions } from "../model/update";
import { randomUUID } from "node:crypto";
import { UpdateRunEngine } from "../engine/engine";
import type { RunState } from "../engine/runState";
import { summarize } from "../engine/summary";
import { appliedNodeImageVersions, failedMembers } from "../engine/results";
import { driftOf } from "../engine/drift";
import type { RunEvent } from "../model/status";
import { withHealthChecks, withoutHealthChecks } from "../drivers/healthChecks";
import { journalFor, openBackend } from "../drivers/openBackend";
import { removeJournalLeaseIfFree } from "../drivers/journalLease";
import { formatProgressLine } from "../drivers/progressLine";
import { driveSession, openSession, type RunChoice, type Session } from "../drivers/session";
import { pendingGates, waitingLine } from "../drivers/waiting";
import { planAtRunStart } from "../plan/forRun";
import type { Plan } from "../plan/types";
import { hostEngineAddress, watchEngine } from "./engineWatch";
import { undelivered, type JournalEntry, type RunJournal } from "../drivers/journal";
import { runIdentity } from "../spec/identity";

export { runIdentity } from "../spec/identity";
import type { ClusterBackend } from "../engine/backend";
import type { Clock } from "../engine/clock";
import { runFleetPulumiSession, observeFleetRun, type FleetRunRecord } from "./fleetRunSession";
import type { UpdateRunInputs } from "../spec/runSpec";
import { RunNotFinishedError, type SessionResult, type UpdateRunOutputs } from "./runOutputs";

export { RunNotFinishedError, type SessionResult, type UpdateRunOutputs } from "./runOutputs";

export { JOURNAL_DIRECTORY } from "../drivers/openBackend";


function progressLine(runName: string): (e: RunEvent) => void {
  return (e) => {
    process.stderr.write(`${formatProgressLine(runName, e)}\n`);
  };
}


/**
 * Create (no `previous`) or continue (`previous` = the stored engine state) a run, then drive it.
 * Relative paths are resolved against `projectDir` (the Pulumi project's folder, `projectDir.ts`).
 * Throws `RunNotFinishedError` when it failed or did not settle before the deadline.
 */
export async function runSession(inputs: UpdateRunInputs, projectDir: string, previous?: { id: string; engineState?: RunState; plan?: Plan; fleetRun?: FleetRunRecord }): Promise<SessionResult> {
  // Issue 12: Fleet Manager runs the update server-side; the client creates or attaches and follows.
  if (inputs.backend.azureFleet !== undefined) return runFleetPulumiSession(inputs, projectDir, previous?.fleetRun);
  const opened = openBackend(inputs.backend, inputs.runName, projectDir, customImageVersions(inputs.managedClusterUpdate));
  const identity = runIdentity(inputs as unknown as Record<string, unknown>);
  const choice = chooseRun(inputs.runName, identity, opened.journal.read(), previous);
  const session = openSession(opened, inputs, identity, choice, progressLine(inputs.runName));
  const stopWatching = exitWhenEngineGone(inputs.runName, session);
  let returnWhenIdleFor: number | undefined;
  let plan: Plan | undefined;
  try {
    // Issue 6: predicted from the run's state before this call drives it; kept as it was at creation.
    plan = previous?.plan ?? (await planAtRunStart(inputs, projectDir, session.engine.snapshot()));
    ({ returnWhenIdleFor } = await driveSession(session, inputs));
  } finally {
    stopWatching();
    // The run's state is journaled: the next driver (the next `pulumi up`) may take the run.
    opened.releaseJournalLease();
  }
  const { id, engine, clock } = session;

  const outputs = { ...outputsOf(engine), ...(plan === undefined ? {} : { plan }) };
  const problem = unfinishedReason(engine, outputs, clock.now(), returnWhenIdleFor);
  if (problem !== undefined) {
    throw new RunNotFinishedError(`update run ${inputs.runName}: ${problem}`, id, outputs, [problem]);
  }
  if (!engine.settled) process.stderr.write(`[${inputs.runName}] ${waitingLine(outputs.status)} Run \`pulumi up\` again to continue.\n`);
  return { id, outputs };
}

/**
 * Issue 11: in the dynamic-provider host, a run is driven only while the Pulumi engine that asked for
 * it is there. When it is gone (`pulumi` SIGKILLed: nothing else tells the host), nothing more is
 * started: the run's state is journaled and the process exits, which releases the run's lease; the
 * next `pulumi up` resumes from the journal. Elsewhere (tests calling the provider in-process) a no-op.
 */
function exitWhenEngineGone(runName: string, session: Session): () => void {
  const address = hostEngineAddress();
  if (address === undefined) return () => {};
  return watchEngine(address, () => {
    process.stderr.write(`[${runName}] the Pulumi engine at ${address} is gone (was \`pulumi\` killed?): journaling the run and exiting; the next \`pulumi up\` resumes it.\n`);
    try {
      session.save();
    } finally {
      process.exit(1);
    }
  });
}

/** `pulumi refresh`: follow what is in flight, start nothing. */
export async function observeRun(inputs: UpdateRunInputs, projectDir: string, id: string, engineState: RunState | undefined, fleetRun?: FleetRunRecord): Promise<UpdateRunOutputs> {
  if (inputs.backend.azureFleet !== undefined) return observeFleetRun(inputs, projectDir, fleetRun);
  if (engineState === undefined) throw new Error(`update run ${inputs.runName}: no engine state to observe`);
  const { backend, clock, journal, releaseJournalLease } = openBackend(inputs.backend, inputs.runName, projectDir, customImageVersions(inputs.managedClusterUpdate));
  try {
    return await observe(inputs, id, engineState, backend, clock, journal);
  } finally {
    releaseJournalLease();
  }
}

async function observe(inputs: UpdateRunInputs, id: string, engineState: RunState, backend: ClusterBackend, clock: Clock, journal: RunJournal): Promise<UpdateRunOutputs> {
  const journaled = journal.read();
  const state = journaled?.runId === id ? journaled.engineState : engineState;
  const engine = UpdateRunEngine.resume(withHealthChecks(state, inputs.members), backend, {});
  await engine.observe(clock.now());
  const drift = await driftOf(engine.snapshot(), backend);
  for (const d of drift) process.stderr.write(`[${inputs.runName}] drift: ${d.member}: ${d.message}\n`);
  return { ...outputsOf(engine), drift };
}

/**
 * The newest state of this run: the journal if it belongs to it (an interrupted call), else what
 * Pulumi stored. A create interrupted before Pulumi saw its result left only the journal: the same
 * run (same identity) is taken up from it — resumed if unfinished, reported as it ended if it
 * finished just before the interruption (not run again: its clusters would all read as Skipped).
 * A deleted run's journal is removed (`forgetRun`), so a create after a delete starts a new run.
 */
function chooseRun(runName: string, identity: string, journaled: JournalEntry | undefined, previous: { id: string; engineState?: RunState } | undefined): RunChoice {
  if (previous !== undefined) {
    if (journaled?.runId === previous.id) return { id: previous.id, engineState: journaled.engineState, ...undelivered(journaled) };
    return { id: previous.id, ...(previous.engineState === undefined ? {} : { engineState: previous.engineState }) };
  }
  if (journaled !== undefined && journaled.identity === identity) {
    return { id: journaled.runId, engineState: journaled.engineState, ...undelivered(journaled) };
  }
  return { id: `${runName}-${randomUUID().slice(0, 8)}` };
}

function outputsOf(engine: UpdateRunEngine): UpdateRunOutputs {
  const status = engine.status();
  const snapshot = engine.snapshot();
  return JSON.parse(
    JSON.stringify({
      status,
      summary: summarize(status),
      strategySnapshot: snapshot.strategy,
      selectedNodeImageVersions: snapshot.selectedNodeImageVersions ?? [],
      excludedMembers: snapshot.excludedMembers,
      failedMembers: failedMembers(snapshot),
      appliedNodeImageVersions: appliedNodeImageVersions(snapshot),
      drift: [],
      // Issue 11: stored in the stack, so without the members' health checks (their URLs may hold secrets).
      engineState: withoutHealthChecks(snapshot),
    }),
  ) as UpdateRunOutputs;
}

/**
 * Why `pulumi up` should fail loudly, or undefined when the run is where the user asked it to be:
 * finished, stopped, or (issue 5) idle with its next step a long way off — a gate waiting for
 * approval, a wait, a closed window — which the next `pulumi up` continues.
 */
function unfinishedReason(engine: UpdateRunEngine, outputs: UpdateRunOutputs, now: number, returnWhenIdleFor: number | undefined): string | undefined {
  const summary = outputs.summary;
  if (summary.state === "Failed") return `the run failed: ${outputs.status.status.error?.message ?? "a member failed"}. Run \`pulumi up\` again to retry the failed members.`;
  if (engine.settled) return undefined;
  if (!engine.busy) {
    if (pendingGates(outputs.status).length > 0) return undefined;
    const next = engine.nextWakeAt;
    if (returnWhenIdleFor !== undefined && (next === undefined || next - now > returnWhenIdleFor)) return undefined;
  }
  return `the run is ${summary.state} (${summary.members.Completed + summary.members.Skipped} of ${summary.members.total} members done) and did not finish before its deadline. Run \`pulumi up\` again to continue it.`;
}

/** `pulumi destroy`: forget the run — its journal, if it is this run's. Clusters are never touched. */
export function forgetRun(inputs: Pick<UpdateRunInputs, "backend" | "runName">, id: string, projectDir: string): void {
  if (inputs.backend.azureFleet !== undefined) return;
  const journal = journalFor(inputs.backend, inputs.runName, projectDir);
  if (journal.read()?.runId === id) {
    journal.remove();
    removeJournalLeaseIfFree(journal);
  }
}
