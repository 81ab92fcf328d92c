/**
 * The run journal: the engine's state made durable after every reconcile pass, beside the backend's
 * own state (issue 23: a log of each pass's changes, compacted into a snapshot; see `RunJournal`). Pulumi records a resource only when create returns, so a `pulumi up` killed mid-create
 * leaves no trace in the stack; the next create finds the journal and resumes the same run instead of
 * starting a second one — no cluster is upgraded twice and the status stays truthful.
 */
import fs from "node:fs";
import path from "node:path";
import type { UpdateRunEngine } from "../../engine/engine";
import type { MemberPlace, MemberRunState, RunState } from "../../engine/runState";
import type { RunEvent } from "../../model/status";
import { RecordLogError, RecordLogWriter, isFramed, parseRecords, readBytes } from "../../runtime/recordLog";
import { withoutHealthChecks } from "./healthChecks";
import { removeWebhookOutboxes } from "../../events/webhookOutbox";
import type { UpdateRunInputs } from "../../spec/runSpec";
import { JournalError } from "../runRecords";

export interface JournalEntry {
  /** The Pulumi resource id of the run this journal belongs to. */
  runId: string;
  /** Hash of the inputs that define the run (`RUN_IDENTITY_FIELDS`). */
  identity: string;
  engineState: RunState;
  /**
   * Events of changes `engineState` holds that may not have reached the event sinks when this was
   * written (`UpdateRunEngine.undeliveredEvents`): a resumed run hands them on first (docs/behaviour.md,
   * "Crashes: what the journal and the events promise").
   */
  undeliveredEvents?: RunEvent[];
  /**
   * Issue 24: the inputs the run was started with (`journaledInputs`), so that `pulumi import` can
   * adopt a run `fleet-update run` started (`src/pulumi/provider/importRun.ts`). Absent in journals written
   * before, and never holding a secret: no health check, no webhook.
   */
  inputs?: JournaledInputs;
}

/** A run's inputs as its journal keeps them: what defines the run and its controls, less anything that may hold a secret. */
export type JournaledInputs = Record<string, unknown>;

/**
 * What of a run's inputs its journal keeps: the backend as the run was given it (paths resolved),
 * members without their health checks (their URLs may hold secrets), strategy, update and controls;
 * never the webhook (its URL and token), nor the analysis (issue 31: its headers and URLs).
 */
export function journaledInputs(inputs: UpdateRunInputs): JournaledInputs {
  const { webhook: _secret, runName: _name, analysis: _analysis, ...rest } = inputs;
  return JSON.parse(JSON.stringify({ ...rest, members: inputs.members.map(({ healthCheck: _check, ...member }) => member) })) as JournaledInputs;
}

/** The entry's undelivered events, when it has any, to resume with (`RunChoice.undeliveredEvents`). */
export function undelivered(entry: JournalEntry): { undeliveredEvents?: RunEvent[] } {
  return entry.undeliveredEvents === undefined ? {} : { undeliveredEvents: entry.undeliveredEvents };
}

/**
 * The journal's format; a journal of another format is refused, never read as empty. Format 2 (issue
 * 23) is a log (`src/runtime/recordLog.ts`): a snapshot, then the changes of each pass; format 1, one
 * JSON object rewritten whole after every pass, is read and migrated at the first write.
 */
export const JOURNAL_FORMAT = 2;
const KIND = "fleet-update run journal";

/** Where the journals of runs over the fleet whose state is in `stateFile` live. */
export function journalDirectory(stateFile: string): string {
  return `${stateFile.replace(/\.json$/, "")}.runs`;
}

/** What `RunJournal.commit` records: the run, and the engine (with `trackChanges`) it reads the changes from. */
export interface JournaledRun {
  runId: string;
  identity: string;
  /** The inputs to keep with the run (`journaledInputs`). */
  inputs?: JournaledInputs;
  engine: Pick<UpdateRunEngine, "snapshot" | "undeliveredEvents" | "takeChanges" | "positionOf" | "live">;
}

/** The run's fields without its members (small: stages, groups, gates, waits; compared as text to see a change). */
function skeletonOf(run: Readonly<RunState>): string {
  // Issue 31: never the declared analysis (its headers may hold secrets); its progress is in the stages and members.
  return JSON.stringify(run, (key, value: unknown) => (key === "members" || key === "declaredAnalysis" ? undefined : value));
}

/**
 * What a run decides once, at its start, and that makes no event: its update (given, or generated
 * from its `autoUpgradeProfile`, docs/rules.md §18) and its image picks (§3.6). A write-ahead intent
 * carries them when the journal does not hold them yet, so that a process that dies after a start
 * resumes with them and never decides again from what is offered by then.
 */
function startDecisionsOf(run: Readonly<RunState>): string {
  return JSON.stringify({ managedClusterUpdate: run.managedClusterUpdate, selectedNodeImageVersions: run.selectedNodeImageVersions });
}

/** A member as stored: without its health check (its URL may hold a secret). */
function memberJson(member: MemberRunState): string {
  return JSON.stringify(member, (key, value: unknown) => (key === "healthCheck" ? undefined : value));
}

/**
 * A run's journal file. The engine's state is made durable at the end of every pass (`commit`: the
 * members that changed, the run's other fields when they changed, and the undelivered events, in one
 * record) and before every start (`intent`: that member's write-ahead intent). The first commit of an
 * engine in a process, and every compaction, writes the whole state as a snapshot.
 */
export class RunJournal {
  /**
   * Called before every write: what the journal's instants and operations depend on is made durable
   * first (the simulated fleet: its clock anchor and its changes, `FileBackedFleet.flush`).
   */
  beforeWrite: (() => void) | undefined;
  /**
   * Keep intents in memory until `syncIntents` (or the next commit) instead of writing each at once:
   * for a backend whose changes become durable only when the journal's `beforeWrite` makes them so
   * (the simulated fleet, which calls `syncIntents` before it flushes). Off: each intent is written
   * before the backend is asked (ARM, where the request is real at once).
   */
  deferIntents = false;
  private readonly writer: RecordLogWriter;
  /** The engine whose changes the file holds up to now (appends are deltas of its state). */
  private bound: JournaledRun["engine"] | undefined;
  private lastSkeleton: string | undefined;
  /** `startDecisionsOf` the run as the journal holds it. */
  private lastDecisions: string | undefined;
  private deferred: string[] = [];
  /**
   * Issue 30: the events of changes the journal holds that have not gone out yet and that its intent
   * records must carry on. A snapshot written for an intent (the first write of an engine, mid-pass)
   * holds that pass's changes so far, whose events go out only at the pass's end; a commit's go out
   * right after it, so a commit empties this.
   */
  private heldEvents = "";

  /** `compaction`: when the log is compacted (`RecordLogOptions`; tests make it small). */
  constructor(
    readonly file: string,
    compaction: { compactFactor?: number; compactMinBytes?: number } = {},
  ) {
    this.writer = new RecordLogWriter(file, { fsync: false, ...compaction });
  }

  static beside(stateFile: string, runName: string): RunJournal {
    return RunJournal.in(journalDirectory(stateFile), runName);
  }

  static in(directory: string, runName: string): RunJournal {
    const safe = runName.replace(/[^A-Za-z0-9._-]/g, "_");
    return new RunJournal(path.join(directory, `${safe}.json`));
  }

  /** Bytes this journal wrote (bench). */
  get bytesWritten(): number {
    return this.writer.written;
  }

  /**
   * The entry, or undefined when there is no journal. A journal that does not parse, or of another
   * format, throws `JournalError`: taken as empty, it would start the run again from nothing.
   * (Journals written before the format was recorded are format 1.) A torn last record (a kill in
   * the middle of a write) is left out: it was never acknowledged.
   */
  read(): JournalEntry | undefined {
    let bytes: Buffer | undefined;
    try {
      bytes = readBytes(this.file);
    } catch (e) {
      throw new JournalError(`run journal ${this.file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); nothing was changed`);
    }
    if (bytes === undefined) return undefined;
    return isFramed(bytes) ? this.readLog(bytes) : this.readWhole(bytes.toString("utf8"));
  }

  /** Format 1: one JSON object. */
  private readWhole(text: string): JournalEntry {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new JournalError(`run journal ${this.file}: not valid JSON (${(e as Error).message}); nothing was changed. Restore it, or remove it to forget the run`);
    }
    const entry = parsed as Partial<JournalEntry> & { format?: unknown };
    const format = entry?.format ?? 1;
    if (format !== 1) {
      throw new JournalError(`run journal ${this.file}: format ${JSON.stringify(format)} is not one this version reads (1, ${JOURNAL_FORMAT}); nothing was changed. Use the fleet-update version that wrote it`);
    }
    return this.checked(entry);
  }

  private checked(entry: Partial<JournalEntry> | undefined): JournalEntry {
    if (entry === undefined || entry === null || typeof entry.runId !== "string" || typeof entry.identity !== "string" || typeof entry.engineState !== "object" || entry.engineState === null || !Array.isArray(entry.engineState.stages)) {
      throw new JournalError(`run journal ${this.file}: not a run journal (runId, identity and engineState are required); nothing was changed`);
    }
    const { runId, identity, engineState, undeliveredEvents, inputs } = entry as JournalEntry;
    return { runId, identity, engineState, ...(undeliveredEvents === undefined ? {} : { undeliveredEvents }), ...(inputs === undefined || inputs === null || typeof inputs !== "object" ? {} : { inputs }) };
  }

  /** Format 2: the snapshot, with every good record after it applied in order. */
  private readLog(bytes: Buffer): JournalEntry {
    let records: unknown[];
    try {
      ({ records } = parseRecords(this.file, bytes));
    } catch (e) {
      if (!(e instanceof RecordLogError)) throw e;
      throw new JournalError(`run journal ${e.message}. Restore it, or remove it to forget the run`);
    }
    const [head, ...changes] = records as Array<(Partial<JournalEntry> & { kind?: unknown; format?: unknown }) | undefined>;
    if (head === undefined) throw new JournalError(`run journal ${this.file}: no snapshot record (its first record is torn); nothing was changed. Remove it to forget the run`);
    if (head?.kind !== KIND) throw new JournalError(`run journal ${this.file}: not a run journal; nothing was changed`);
    if (head.format !== JOURNAL_FORMAT) {
      throw new JournalError(`run journal ${this.file}: format ${JSON.stringify(head.format)} is not one this version reads (1, ${JOURNAL_FORMAT}); nothing was changed. Use the fleet-update version that wrote it`);
    }
    const entry = this.checked(head);
    changes.forEach((change, i) => applyChange(this.file, entry, change, i + 2));
    if (entry.undeliveredEvents !== undefined && entry.undeliveredEvents.length === 0) delete entry.undeliveredEvents;
    return entry;
  }

  /**
   * Replace the journal with this entry (a snapshot). Members' health checks are left out (their URLs
   * may hold secrets): a resumed run takes them from its inputs.
   */
  write(entry: JournalEntry): void {
    this.beforeWrite?.();
    this.writeSnapshot(entry);
    this.bound = undefined;
  }

  private writeSnapshot(entry: JournalEntry): void {
    this.heldEvents = "";
    const { undeliveredEvents, runId, identity, inputs } = entry;
    const written = { kind: KIND, format: JOURNAL_FORMAT, runId, identity, ...(inputs === undefined ? {} : { inputs }), engineState: withoutHealthChecks(entry.engineState), ...(undeliveredEvents === undefined || undeliveredEvents.length === 0 ? {} : { undeliveredEvents }) };
    this.deferred = [];
    this.writer.compact(JSON.stringify(written));
  }

  /**
   * The end of a pass (or any moment the state must be durable): what changed since the last commit,
   * in one record, after the intents kept in memory (group commit). The first commit of an engine, or
   * one that finds the log has outgrown its snapshot, writes a snapshot instead.
   */
  commit(run: JournaledRun): void {
    this.beforeWrite?.();
    const { engine } = run;
    if (this.bound !== engine || !this.writer.isOpen || this.writer.compactionDue) {
      this.snapshotOf(run);
      return;
    }
    const members = engine.takeChanges().map(({ at, member }) => `[${at[0]},${at[1]},${at[2]},${memberJson(member)}]`);
    const skeleton = skeletonOf(engine.live);
    const runPart = skeleton === this.lastSkeleton ? "" : `,"run":${skeleton}`;
    this.lastSkeleton = skeleton;
    this.lastDecisions = startDecisionsOf(engine.live);
    const record = `{"t":"pass","members":[${members.join(",")}]${runPart},"events":${JSON.stringify(engine.undeliveredEvents())}}`;
    this.writer.append([...this.deferred, record]);
    this.deferred = [];
    this.heldEvents = "";
  }

  /**
   * Before the backend is asked to start `place`'s member: its write-ahead intent (`startRequestedAt`,
   * `request`), alone — the pass's other changes wait for its commit. Written at once, or with
   * `deferIntents` kept until `syncIntents`. The first write of an engine is a snapshot instead: it
   * holds the pass's changes so far, and the intents after it carry on their undelivered events
   * (`heldEvents`), which a reader would otherwise take as delivered.
   */
  intent(run: JournaledRun, place: MemberPlace): void {
    if (this.bound !== run.engine || !this.writer.isOpen) {
      this.beforeWrite?.();
      this.snapshotOf(run);
      const events = run.engine.undeliveredEvents();
      this.heldEvents = events.length === 0 ? "" : JSON.stringify(events);
      return;
    }
    const { member } = place;
    const at = run.engine.positionOf(member);
    const decisions = startDecisionsOf(run.engine.live);
    const decided = decisions === this.lastDecisions ? "" : `,"decided":${decisions}`;
    this.lastDecisions = decisions;
    const held = this.heldEvents === "" ? "" : `,"events":${this.heldEvents}`;
    this.deferred.push(`${JSON.stringify({ t: "intent", at, startRequestedAt: member.startRequestedAt, request: member.request }).slice(0, -1)}${decided}${held}}`);
    if (!this.deferIntents) this.syncIntents();
  }

  /** Write the intents kept in memory (one write). */
  syncIntents(): void {
    if (this.deferred.length === 0 || !this.writer.isOpen) return;
    this.writer.append(this.deferred);
    this.deferred = [];
  }

  private snapshotOf(run: JournaledRun): void {
    const { engine } = run;
    engine.takeChanges();
    this.lastSkeleton = skeletonOf(engine.live);
    this.lastDecisions = startDecisionsOf(engine.live);
    this.writeSnapshot({ runId: run.runId, identity: run.identity, ...(run.inputs === undefined ? {} : { inputs: run.inputs }), engineState: engine.snapshot(), undeliveredEvents: engine.undeliveredEvents() });
    this.bound = engine;
  }

  /** Forget the run: its journal and its webhooks' outboxes (`src/events/webhookOutbox.ts`). */
  remove(): void {
    this.writer.close();
    this.bound = undefined;
    this.deferred = [];
    fs.rmSync(this.file, { force: true });
    removeWebhookOutboxes(this.file);
  }
}

type Change = { t: "intent"; at: unknown; startRequestedAt?: unknown; request?: unknown; decided?: unknown; events?: unknown } | { t: "pass"; members: unknown; run?: unknown; events: unknown };

/** Apply one record after the snapshot; anything that does not fit the run refuses the journal. */
function applyChange(file: string, entry: JournalEntry, raw: unknown, n: number): void {
  const refuse = (why: string): never => {
    throw new JournalError(`run journal ${file}: record ${n} does not fit the run (${why}); nothing was changed. Restore it, or remove it to forget the run`);
  };
  const change = raw as Change;
  const state = entry.engineState;
  const memberAt = (at: unknown): MemberRunState[] => {
    if (!Array.isArray(at) || at.length < 3 || !at.slice(0, 3).every((x) => Number.isInteger(x))) return refuse("a member position is not three indexes");
    const members = state.stages[at[0] as number]?.groups[at[1] as number]?.members;
    if (members === undefined || members[at[2] as number] === undefined) return refuse(`no member at ${JSON.stringify(at.slice(0, 3))}`);
    return members;
  };
  if (change?.t === "intent") {
    const members = memberAt(change.at);
    const i = (change.at as number[])[2] as number;
    const member = members[i] as MemberRunState;
    if (typeof change.startRequestedAt !== "number" || typeof change.request !== "object" || change.request === null) refuse("an intent without its instant and request");
    members[i] = { ...member, startRequestedAt: change.startRequestedAt as number, request: change.request as MemberRunState["request"] };
    if (change.decided !== undefined) {
      const decided = change.decided as Partial<Pick<RunState, "managedClusterUpdate" | "selectedNodeImageVersions">> | null;
      if (typeof decided !== "object" || decided === null) return refuse("an intent's start decisions are not a mapping");
      if (decided.managedClusterUpdate !== undefined) state.managedClusterUpdate = decided.managedClusterUpdate;
      if (decided.selectedNodeImageVersions !== undefined) state.selectedNodeImageVersions = decided.selectedNodeImageVersions;
    }
    // An intent comes after the last pass's events went out, unless it carries on those of a snapshot
    // written earlier in its own pass (`RunJournal.heldEvents`).
    if (change.events !== undefined && !Array.isArray(change.events)) return refuse("an intent's events are not a list");
    entry.undeliveredEvents = (change.events as RunEvent[] | undefined) ?? [];
    return;
  }
  if (change?.t !== "pass" || !Array.isArray(change.members) || !Array.isArray(change.events)) return refuse("not a journal record");
  if (change.run !== undefined) {
    const run = change.run as RunState;
    if (typeof run !== "object" || run === null || !Array.isArray(run.stages) || run.stages.length !== state.stages.length) refuse("the run's stages differ");
    run.stages.forEach((stage, s) => {
      const before = state.stages[s] as RunState["stages"][number];
      if (!Array.isArray(stage?.groups) || stage.groups.length !== before.groups.length) refuse("a stage's groups differ");
      stage.groups.forEach((group, g) => {
        group.members = (before.groups[g] as (typeof before.groups)[number]).members;
      });
    });
    entry.engineState = run;
  }
  for (const item of change.members as unknown[]) {
    const members = memberAt(item);
    const [, , i, member] = item as [number, number, number, MemberRunState];
    if (typeof member !== "object" || member === null || member.name !== members[i]?.name) refuse("a member's name differs from the one at its place");
    members[i] = member;
  }
  entry.undeliveredEvents = change.events as RunEvent[];
}
