/**
 * The engine driver: our engine runs the update in this process over a `ClusterBackend` (the
 * simulated fleet, ARM), journaled before every upgrade it starts and after every pass, one driver
 * per run at a time (the journal's lease). The session itself is `session.ts`; which run a call takes
 * up is `runChoice.ts`; what the backend is, the `BackendOpener` (`openBackend.ts`, `openAzure.ts`).
 */
import { ApprovalRefusedError } from "../../engine/gates";
import { UpdateRunEngine } from "../../engine/engine";
import { driftOf } from "../../engine/drift";
import { appliedNodeImageVersions, failedMembers } from "../../engine/results";
import { summarize } from "../../engine/summary";
import { customImageVersions } from "../../model/update";
import type { UpdateRunInputs } from "../../spec/runSpec";
import { runIdentity } from "../../spec/identity";
import { withHealthChecks, withoutHealthChecks } from "./healthChecks";
import { httpProbe } from "../../runtime/httpProbe";
import { prometheusQuery } from "../../runtime/prometheusQuery";
import { removeJournalLeaseIfFree } from "./journalLease";
import { journaledInputs } from "./journal";
import type { BackendOpener, OpenBackend } from "./openBackend";
import { chooseSpecRun, chooseStackRun, specRunIdentity } from "./runChoice";
import { GateRefusedError, type DriveOptions, type PlanView, type RunSelection, type RunCall, type RunControls, type RunDriver, type RunEnd, type RunReport, type RunView, type StoredRun } from "../runDriver";
import { driveSession, firstMember, openSession, type RunChoice } from "./session";
import { pendingGates } from "../waiting";
import type { FieldIssue } from "../../model/issues";
import type { RunEvent } from "../../model/status";

/**
 * Issue 31: a refresh follows a member under verification as a run does, so it measures as a run
 * does (over HTTP), never failing a member for want of a probe or a Prometheus client.
 */
const MEASURING = { probe: httpProbe, queryMetric: prometheusQuery };

export class EngineDriver implements RunDriver {
  readonly executes = "here";
  readonly deleteBeforeReplace = false;

  constructor(private readonly opener: BackendOpener) {}

  get plansLocally(): boolean {
    return this.opener.plansLocally;
  }

  /** Everything is checked from the inputs (`spec/runSpec.ts`): the engine reads the clusters when it runs. */
  async check(_inputs: UpdateRunInputs): Promise<FieldIssue[]> {
    return [];
  }

  async open(inputs: UpdateRunInputs, selection: RunSelection): Promise<RunCall> {
    const identity = selection.by === "spec" ? specRunIdentity(inputs) : runIdentity(inputs as unknown as Record<string, unknown>);
    const choose = (journal: OpenBackend["journal"]): RunChoice =>
      selection.by === "spec" ? chooseSpecRun(inputs, identity, journal.read(), journal.file, selection.startNew) : chooseStackRun(inputs.runName, identity, journal.read(), selection.stored);
    // Issue 19: a refused run touches no file. Whether the journal holds another spec's run is
    // decided from a plain read first, before the backend is opened (opening takes leases and may
    // write the simulated fleet's state file); it is read again once the leases are ours.
    if (selection.by === "spec") choose(this.opener.journal(inputs.runName));
    const opened = this.opener.open(inputs.runName, customImageVersions(inputs.managedClusterUpdate));
    let choice: RunChoice;
    try {
      choice = choose(opened.journal);
    } catch (e) {
      opened.release();
      throw e;
    }
    return new EngineRunCall(inputs, opened, identity, choice);
  }

  async observe(inputs: UpdateRunInputs, stored: StoredRun): Promise<RunView> {
    if (stored.engineState === undefined) throw new Error(`update run ${inputs.runName}: no engine state to observe`);
    const { backend, clock, journal, releaseJournalLease, syncClock } = this.opener.open(inputs.runName, customImageVersions(inputs.managedClusterUpdate));
    try {
      const journaled = journal.read();
      const state = journaled?.runId === stored.id ? journaled.engineState : stored.engineState;
      const engine = UpdateRunEngine.resume(withHealthChecks(state, inputs.members, inputs.analysis), backend, MEASURING);
      const first = firstMember(engine);
      if (syncClock !== undefined && first !== undefined) await syncClock(first);
      await engine.observe(clock.now());
      return { ...viewOf(stored.id, engine), drift: await driftOf(engine.snapshot(), backend) };
    } finally {
      releaseJournalLease();
    }
  }

  async gates(inputs: UpdateRunInputs): Promise<Array<{ gateId: string; state: RunView["status"]["status"]["state"]; displayName: string }>> {
    const { engine, release } = this.journaledEngine(inputs);
    release();
    return engine.gates().map((g) => ({ gateId: g.gateId, state: g.state, displayName: g.displayName }));
  }

  /** Approved in the run's journal; the next `fleet-update run` (or `pulumi up` on the simulated fleet) goes on from there. */
  async approve(inputs: UpdateRunInputs, gateIds: readonly string[]): Promise<string> {
    const { engine, entry, opened, release } = this.journaledEngine(inputs);
    try {
      try {
        engine.approve([...gateIds], opened.clock.now());
      } catch (e) {
        if (!(e instanceof ApprovalRefusedError)) throw e;
        throw new GateRefusedError([`${e.message} (its gates: ${engine.gates().map((g) => g.gateId).join(", ") || "none"})`]);
      }
      opened.journal.write({ ...entry, engineState: engine.snapshot() });
      return `approved ${gateIds.join(", ")} in ${opened.journal.file}; run the same \`fleet-update run\` command again to continue`;
    } finally {
      release();
    }
  }

  async planView(inputs: UpdateRunInputs): Promise<PlanView> {
    return this.opener.planView(inputs);
  }

  async forget(inputs: UpdateRunInputs, stored: StoredRun): Promise<void> {
    const journal = this.opener.journal(inputs.runName);
    if (journal.read()?.runId === stored.id) {
      journal.remove();
      removeJournalLeaseIfFree(journal);
    }
  }

  /**
   * The journaled run, for its gates. Its leases are taken, so a run being driven right now is
   * refused (`LeaseHeldError`): `fleet-update run` exits at an unapproved gate; approve, then run again.
   */
  private journaledEngine(inputs: UpdateRunInputs) {
    const opened = this.opener.open(inputs.runName, []);
    const entry = opened.journal.read();
    if (entry === undefined) {
      opened.release();
      throw new GateRefusedError([`no journal of run '${inputs.runName}' at ${opened.journal.file}: start the run first (fleet-update run), or list the gate ids under approvals in the run's spec`]);
    }
    return { engine: UpdateRunEngine.resume(entry.engineState, opened.backend), entry, opened, release: opened.release };
  }
}

class EngineRunCall implements RunCall {
  readonly executes = "here";
  readonly resumed: boolean;
  readonly id: string;
  readonly whereKept: string;
  readonly journalFile: string;
  private target: (event: RunEvent) => void = () => {};
  private readonly session;

  constructor(
    inputs: UpdateRunInputs,
    private readonly opened: OpenBackend,
    identity: string,
    private readonly choice: RunChoice,
  ) {
    // Events go where this call's `drive` says; the journal's undelivered ones are sent by `drive` first.
    const { undeliveredEvents: _later, ...chosen } = choice;
    this.session = openSession(opened, inputs, identity, chosen, (event) => this.target(event), journaledInputs(inputs));
    this.id = choice.id;
    this.resumed = this.session.resumed;
    this.whereKept = opened.journal.file;
    this.journalFile = opened.journal.file;
  }

  get excludedMembers() {
    return this.session.engine.excludedMembers;
  }

  latestStatus() {
    return this.session.engine.status();
  }

  engineState() {
    return this.session.engine.snapshot();
  }

  async drive(controls: RunControls, options: DriveOptions): Promise<RunReport> {
    this.target = options.onEvent;
    const undelivered = this.choice.undeliveredEvents ?? [];
    if (undelivered.length > 0) (options.onRedelivered ?? ((events) => events.forEach(options.onEvent)))(undelivered);
    let returnWhenIdleFor: number | undefined;
    try {
      ({ returnWhenIdleFor } = await driveSession(this.session, controls, options.stop));
    } finally {
      // The run's state is journaled: the next driver (the next `pulumi up`, the next command) may take the run.
      this.opened.releaseJournalLease();
    }
    const { engine, clock } = this.session;
    const view = viewOf(this.id, engine);
    return { ...view, end: endOf(engine, view, clock.now(), returnWhenIdleFor), busy: engine.busy };
  }

  leaveNow(): void {
    this.session.save();
  }

  release(): void {
    this.opened.release();
  }
}

/** The run as its engine has it, in the outputs' shape; the engine's state without health checks (their URLs may hold secrets). */
function viewOf(id: string, engine: UpdateRunEngine): RunView {
  const status = engine.status();
  const snapshot = engine.snapshot();
  return {
    id,
    executes: "here",
    status,
    summary: summarize(status),
    strategySnapshot: snapshot.strategy,
    selectedNodeImageVersions: snapshot.selectedNodeImageVersions ?? [],
    excludedMembers: snapshot.excludedMembers,
    failedMembers: failedMembers(snapshot),
    appliedNodeImageVersions: appliedNodeImageVersions(snapshot),
    drift: [],
    engineState: withoutHealthChecks(snapshot),
    ...(snapshot.autoUpgradeProfile === undefined || snapshot.managedClusterUpdate === undefined ? {} : { generatedUpdate: snapshot.managedClusterUpdate }),
  };
}

/**
 * Why the call returned: settled (finished, stopped, never started); or, with nothing in flight,
 * waiting at a gate nobody approved or (issue 5, `returnAfterMinutes`) for a step a long way off;
 * else the deadline came first.
 */
function endOf(engine: UpdateRunEngine, view: RunView, now: number, returnWhenIdleFor: number | undefined): RunEnd {
  if (engine.settled) return "settled";
  if (!engine.busy) {
    if (pendingGates(view.status).length > 0) return "gate";
    const next = engine.nextWakeAt;
    if (returnWhenIdleFor !== undefined && (next === undefined || next - now > returnWhenIdleFor)) return "returned";
  }
  return "deadline";
}
