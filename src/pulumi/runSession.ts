/**
 * One provider call's work on a run: open the backend, create or resume the engine, apply the user's
 * controls, drive the run in real (scaled) time until it settles or the deadline, and report. The
 * provider methods in `runProvider.ts` are thin shells around this.
 */
import { randomUUID } from "node:crypto";
import { openFileBackedFleet } from "../backends/simulator/fileBacked";
import type { ClusterBackend } from "../engine/backend";
import { drive, type RunAction } from "../engine/drive";
import { UpdateRunEngine } from "../engine/engine";
import type { EngineOptions } from "../engine/context";
import { isDone, type RunState } from "../engine/runState";
import { summarize, type RunSummary } from "../engine/summary";
import { appliedNodeImageVersions, failedMembers, type FailedMember } from "../engine/results";
import type { RunEvent, UpdateRunStatus } from "../model/status";
import type { UpdateRunStrategy } from "../model/strategy";
import type { ExcludedMember } from "../model/run";
import fs from "node:fs";
import path from "node:path";
import { AzureBackend } from "../backends/azure/azureBackend";
import { credentialFor } from "../backends/azure/credentials";
import type { Clock } from "../engine/clock";
import { RealClock } from "../runtime/realClock";
import { httpProbe } from "../runtime/httpProbe";
import { RunJournal, identityHash } from "./journal";
import { RUN_IDENTITY_FIELDS, type UpdateRunInputs } from "./runInputs";

/** What `UpdateRun` stores besides its inputs. */
export interface UpdateRunOutputs {
  status: UpdateRunStatus;
  summary: RunSummary;
  strategySnapshot: UpdateRunStrategy;
  selectedNodeImageVersions: string[];
  excludedMembers: ExcludedMember[];
  /** Members that failed: a retry run takes them as its `members`. */
  failedMembers: FailedMember[];
  /** One image per family actually applied: a retry or promotion run takes them as `customNodeImageVersions`. */
  appliedNodeImageVersions: Array<{ version: string }>;
  /** The engine's state, to resume from (plain JSON). */
  engineState: RunState;
}

/**
 * The run failed or did not finish. Carries what the dynamic-provider host needs to keep the
 * resource with its status (`id`, `properties`, `reasons`: Pulumi's ErrorResourceInitFailed), so
 * that `pulumi up` fails loudly and the next one calls update, which resumes.
 */
export class RunNotFinishedError extends Error {
  readonly properties: Record<string, unknown>;
  constructor(
    message: string,
    readonly id: string,
    readonly outputs: UpdateRunOutputs,
    readonly reasons: string[],
  ) {
    super(message);
    this.name = "RunNotFinishedError";
    this.properties = { ...outputs };
  }

  /** The properties Pulumi keeps: the raw inputs (with `__provider`) and the outputs. */
  withInputs(inputs: Record<string, unknown>): this {
    Object.assign(this.properties, inputs, this.outputs);
    return this;
  }
}

interface OpenBackend {
  backend: ClusterBackend;
  clock: Clock;
  journal: RunJournal;
  /** The backend clock's instant for a real deadline (simulated time may run faster). */
  deadline: (realMs: number) => number;
}

/** Where run journals live for backends without a state file of their own. */
export const JOURNAL_DIRECTORY = path.join(".fleet-update", "runs");

function openBackend(inputs: UpdateRunInputs): OpenBackend {
  const { simulator, azure } = inputs.backend;
  if (simulator !== undefined) {
    const { fleet, clock, stateFile } = openFileBackedFleet(simulator, process.cwd());
    return { backend: fleet, clock, journal: RunJournal.beside(stateFile, inputs.runName), deadline: (realMs) => clock.toSimulated(realMs) };
  }
  const config = azure as NonNullable<typeof azure>;
  const clock = new RealClock();
  const backend = new AzureBackend({
    credential: credentialFor(config.credential),
    clock,
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
    ...(config.trustedCaFile === undefined ? {} : { trustedCaPem: fs.readFileSync(path.resolve(config.trustedCaFile), "utf8") }),
    ...(config.pollIntervalSeconds === undefined ? {} : { initialPollMs: config.pollIntervalSeconds.initial * 1000, steadyPollMs: config.pollIntervalSeconds.steady * 1000 }),
  });
  return { backend, clock, journal: RunJournal.in(path.resolve(JOURNAL_DIRECTORY), inputs.runName), deadline: (realMs) => realMs };
}

export function runIdentity(inputs: Record<string, unknown>): string {
  return identityHash(Object.fromEntries(RUN_IDENTITY_FIELDS.map((k) => [k, inputs[k]])));
}

function progressLine(runName: string): (e: RunEvent) => void {
  return (e) => {
    const message = e.message === undefined ? "" : `: ${e.message}`;
    process.stderr.write(`[${runName}] ${e.time} ${e.scope} ${e.name} ${e.from} → ${e.to}${message}\n`);
  };
}

export interface SessionResult {
  id: string;
  outputs: UpdateRunOutputs;
}

/**
 * Create (no `previous`) or continue (`previous` = the stored engine state) a run, then drive it.
 * Throws `RunNotFinishedError` when it failed or did not settle before the deadline.
 */
export async function runSession(inputs: UpdateRunInputs, previous?: { id: string; engineState?: RunState }): Promise<SessionResult> {
  const { backend, clock, journal, deadline } = openBackend(inputs);
  const identity = runIdentity(inputs as unknown as Record<string, unknown>);
  // Journal the engine's state before every upgrade it starts (write-ahead) and after every pass.
  let save = (): void => {};
  // Real ARM never says when a version will reach a region: a member Pending for that looks again
  // every 15 minutes. (The simulated world announces it, so the engine wakes exactly then.)
  const options = {
    onEvent: progressLine(inputs.runName),
    checkpoint: () => save(),
    probe: httpProbe,
    ...(inputs.backend.azure === undefined ? {} : { recheckUnknownAfterMs: 15 * 60_000 }),
  };

  // The newest state of this run: the journal if it belongs to it (an interrupted call), else what
  // Pulumi stored. A create interrupted before Pulumi saw its result left only the journal.
  const journaled = journal.read();
  let id: string;
  let engine: UpdateRunEngine;
  if (previous !== undefined) {
    id = previous.id;
    const state = journaled?.runId === id ? journaled.engineState : previous.engineState;
    engine = state === undefined ? newEngine(inputs, backend, options) : UpdateRunEngine.resume(state, backend, options);
  } else if (journaled !== undefined && journaled.identity === identity && !isDone(journaled.engineState.state)) {
    id = journaled.runId;
    engine = UpdateRunEngine.resume(journaled.engineState, backend, options);
  } else {
    id = `${inputs.runName}-${randomUUID().slice(0, 8)}`;
    engine = newEngine(inputs, backend, options);
  }

  save = () => journal.write({ runId: id, identity, engineState: engine.snapshot() });
  // Our own deadline, in real minutes: the host ignores customTimeouts.
  const until = deadline(Date.now() + inputs.timeoutMinutes * 60_000);
  // The user's controls are actions at this instant, so they and the first pass share one instant.
  // Issue 5: with `returnAfterMinutes`, a long wait ends this call (the next `pulumi up` continues).
  const returnWhenIdleFor = inputs.returnAfterMinutes === undefined ? undefined : deadline(inputs.returnAfterMinutes * 60_000) - deadline(0);
  await drive(engine, clock, { until, actions: controls(inputs, clock.now()), onPass: save, ...(returnWhenIdleFor === undefined ? {} : { returnWhenIdleFor }) });
  save();

  const outputs = outputsOf(engine);
  const problem = unfinishedReason(engine, outputs, clock.now(), returnWhenIdleFor);
  if (problem !== undefined) {
    throw new RunNotFinishedError(`update run ${inputs.runName}: ${problem}`, id, outputs, [problem]);
  }
  if (!engine.settled) process.stderr.write(`[${inputs.runName}] ${waitingLine(outputs.status)} Run \`pulumi up\` again to continue.\n`);
  return { id, outputs };
}

/** `pulumi refresh`: follow what is in flight, start nothing. */
export async function observeRun(inputs: UpdateRunInputs, id: string, engineState: RunState): Promise<UpdateRunOutputs> {
  const { backend, clock, journal } = openBackend(inputs);
  const journaled = journal.read();
  const state = journaled?.runId === id ? journaled.engineState : engineState;
  const engine = UpdateRunEngine.resume(state, backend, {});
  await engine.observe(clock.now());
  return outputsOf(engine);
}

function newEngine(inputs: UpdateRunInputs, backend: ClusterBackend, options: EngineOptions): UpdateRunEngine {
  return UpdateRunEngine.create(
    { name: inputs.runName, members: inputs.members, ...(inputs.strategy === undefined ? {} : { strategy: inputs.strategy }), managedClusterUpdate: inputs.managedClusterUpdate },
    backend,
    options,
  );
}

/**
 * `skip` and `state` as actions (SPEC §3.8, §3.9). Skips are idempotent: items already finished are
 * left as they are, so the whole list is applied on every call. A refused skip fails the call.
 */
function controls(inputs: UpdateRunInputs, at: number): RunAction[] {
  const actions: RunAction[] = [];
  if (inputs.skip.length > 0) actions.push({ at, skip: inputs.skip });
  if (inputs.approvals.length > 0) actions.push({ at, approve: inputs.approvals });
  actions.push(inputs.state === "Running" ? { at, start: true } : { at, stop: true });
  return actions;
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
      engineState: snapshot,
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

/** Ids of the gates waiting for approval. */
function pendingGates(status: UpdateRunStatus): string[] {
  const gates: string[] = [];
  for (const stage of status.stages) {
    for (const g of [...(stage.beforeGates ?? []), ...(stage.afterGates ?? [])]) if (g.status.state === "Pending") gates.push(g.gateId);
    for (const group of stage.groups) {
      for (const g of [...(group.beforeGates ?? []), ...(group.afterGates ?? [])]) if (g.status.state === "Pending") gates.push(g.gateId);
    }
  }
  return gates;
}

/** What an idle run waits for, from its status: gates first, then the first Pending item's reason. */
function waitingLine(status: UpdateRunStatus): string {
  const gates = pendingGates(status);
  if (gates.length > 0) return `Waiting for approval of ${gates.map((id) => `'${id}'`).join(", ")} (add to \`approvals\`).`;
  for (const stage of status.stages) {
    if (stage.afterStageWaitStatus?.status.state === "Running") return `Waiting: stage '${stage.name}' after-stage wait is running.`;
    for (const member of stage.groups.flatMap((g) => g.members)) {
      if (member.status.state === "Pending" && member.message !== undefined) return `Waiting: ${member.name}: ${member.message}`;
    }
  }
  return `The run is ${status.status.state}.`;
}
