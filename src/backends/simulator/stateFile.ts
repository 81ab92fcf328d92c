/**
 * Persisting the simulated fleet between runs, so that consecutive CLI runs see the clusters as the
 * last run left them. The file holds state only (see `fleetState.ts`): the fleet description stays the
 * source of regions, maintenance windows and simulation settings. A cluster the file names keeps the
 * file's versions and node pools; a cluster it does not name starts as described; clusters the file
 * names but the description no longer has are dropped at the next save.
 *
 * Issue 23: the file is a log (`src/runtime/recordLog.ts`): a snapshot, then one record per flush with
 * the clusters that changed, compacted into a new snapshot (temporary file, fsync, rename) once the
 * changes outgrow it. A torn last record (a kill mid-write) is dropped; any other damage refuses the
 * file. A format-1 file (one JSON object) is read, and replaced by a snapshot at the first write.
 */
import fs from "node:fs";
import { z } from "zod";
import { RecordLogError, RecordLogWriter, isFramed, parseRecords, readBytes, type LogContents } from "../../runtime/recordLog";
import type { Clock } from "../../engine/clock";
import type { Fleet } from "../../model/fleet";
import { formatPath } from "../../model/issues";
import { ClusterStateSchema, FleetStateSchema, type ClusterState, type FleetState } from "./fleetState";
import { SimulatedFleet } from "./simulatedFleet";

/** The state file exists but cannot be used; names the file and what is wrong with it. */
export class StateFileError extends Error {
  readonly filePath: string;
  constructor(filePath: string, problem: string) {
    super(`simulated fleet state file ${filePath}: ${problem} (delete it to start from the fleet description)`);
    this.name = "StateFileError";
    this.filePath = filePath;
  }
}

/** The file format of the state file (issue 23: a log of changes); format 1 was one whole JSON object. */
export const FLEET_STATE_FILE_FORMAT = 2;
const KIND = "fleet-update simulated fleet state";

type ClockAnchor = NonNullable<FleetState["clock"]>;

/** One record after the snapshot: the clusters a change touched, and the clock's anchor when it was (re)set. */
interface FleetStateDelta {
  clusters?: Record<string, ClusterState>;
  clock?: ClockAnchor;
}

const DeltaSchema = z.strictObject({
  clusters: z.record(z.string(), ClusterStateSchema).optional(),
  clock: FleetStateSchema.shape.clock,
});

/** What a read found: the state, and where a writer appends from (undefined for a format-1 file, which is migrated). */
interface ReadState {
  state: FleetState;
  log?: LogContents;
}

function parseFleetState(filePath: string, json: unknown, where: string): FleetState {
  const parsed = FleetStateSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    throw new StateFileError(filePath, `${where}${problems.join("; ")}`);
  }
  return parsed.data;
}

function readState(filePath: string): ReadState | undefined {
  const bytes = readBytes(filePath);
  if (bytes === undefined) return undefined;
  if (!isFramed(bytes)) {
    // Format 1: one JSON object, rewritten whole at every change. Read as it is; the first write
    // replaces it with a format-2 snapshot (migration on first use).
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString("utf8"));
    } catch (error) {
      throw new StateFileError(filePath, `not valid JSON (${(error as Error).message})`);
    }
    return { state: parseFleetState(filePath, json, "") };
  }
  let log: LogContents;
  try {
    log = parseRecords(filePath, bytes);
  } catch (error) {
    if (error instanceof RecordLogError) throw new StateFileError(filePath, error.problem);
    throw error;
  }
  const [head, ...deltas] = log.records as Array<{ kind?: unknown; format?: unknown; state?: unknown } | undefined>;
  if (head === undefined) throw new StateFileError(filePath, "no snapshot record (an empty or torn first record)");
  if (head?.kind !== KIND) throw new StateFileError(filePath, "not a simulated fleet's state file");
  if (head.format !== FLEET_STATE_FILE_FORMAT) throw new StateFileError(filePath, `format ${JSON.stringify(head.format)} is not one this version reads (${FLEET_STATE_FILE_FORMAT})`);
  const state = parseFleetState(filePath, head.state, "snapshot: ");
  deltas.forEach((record, i) => {
    const delta = DeltaSchema.safeParse(record);
    if (!delta.success) throw new StateFileError(filePath, `record ${i + 2}: ${delta.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join("; ")}`);
    applyDelta(state, delta.data);
  });
  return { state, log };
}

function applyDelta(state: FleetState, delta: FleetStateDelta): void {
  if (delta.clock !== undefined) state.clock = delta.clock;
  if (delta.clusters !== undefined) for (const [name, cluster] of Object.entries(delta.clusters)) state.clusters[name] = cluster;
}

/** The state saved at `filePath` (its snapshot and the changes after it), or `undefined` when there is no such file. */
export function readFleetState(filePath: string): FleetState | undefined {
  return readState(filePath)?.state;
}

/**
 * The state file as a log (issue 23): changes are recorded in memory (`record`, `setClock`) and made
 * durable by `flush`, all of them in one append and one fsync; the file is compacted into a snapshot
 * when the changes outgrow it. A format-1 file, or none, gets a snapshot at the first flush.
 */
export class FleetStateStore {
  private readonly writer: RecordLogWriter;
  private pending: FleetStateDelta = {};
  private hasPending = false;
  /** Run before the changes are made durable: what must be durable first (the runs' write-ahead intents). */
  readonly beforeFlush = new Map<string, () => void>();

  constructor(
    readonly filePath: string,
    /** The whole state now, for a snapshot. */
    private readonly whole: () => FleetState,
    read: ReadState | undefined,
  ) {
    this.writer = new RecordLogWriter(filePath, { fsync: true });
    if (read?.log !== undefined) this.writer.openExisting(read.log);
  }

  /** Open the state file: the state it holds (or undefined), and a store that appends to it. */
  static open(filePath: string, whole: () => FleetState): { saved: FleetState | undefined; store: FleetStateStore } {
    const read = readState(filePath);
    return { saved: read?.state, store: new FleetStateStore(filePath, whole, read) };
  }

  /** Clusters changed (`SimulatedFleet`'s `onStateChange`). */
  record(changed: FleetState): void {
    this.pending.clusters = { ...this.pending.clusters, ...changed.clusters };
    this.hasPending = true;
  }

  setClock(clock: ClockAnchor): void {
    this.pending.clock = clock;
    this.hasPending = true;
  }

  get dirty(): boolean {
    return this.hasPending;
  }

  /** Bytes this store wrote (bench). */
  get bytesWritten(): number {
    return this.writer.written;
  }

  /** Make the recorded changes durable: one append and one fsync, or a compaction when due. */
  flush(): void {
    if (!this.hasPending && this.writer.isOpen) return;
    for (const hook of this.beforeFlush.values()) hook();
    if (!this.writer.isOpen || this.writer.compactionDue || !fs.existsSync(this.filePath)) {
      this.writer.compact(JSON.stringify({ kind: KIND, format: FLEET_STATE_FILE_FORMAT, state: this.whole() }));
    } else {
      this.writer.append([JSON.stringify(this.pending)]);
    }
    this.pending = {};
    this.hasPending = false;
  }

  close(): void {
    this.writer.close();
  }
}

/** Replace the state file with a snapshot of `state` (temporary file, fsync, rename). */
export function writeFleetState(filePath: string, state: FleetState): void {
  const store = new FleetStateStore(filePath, () => state, undefined);
  try {
    store.flush();
  } finally {
    store.close();
  }
}

/** Forget everything the simulated clusters went through: the next load starts from the description. */
export function resetFleetState(filePath: string): void {
  fs.rmSync(filePath, { force: true });
}

/**
 * A simulated fleet that starts from the state saved at `filePath` (if any) and, unless `autoSave` is
 * false, saves it there after every call that changes it.
 */
export function loadSimulatedFleet(fleet: Fleet, clock: Clock, filePath: string, { autoSave = true }: { autoSave?: boolean } = {}): SimulatedFleet {
  let simulated: SimulatedFleet | undefined;
  const { saved, store } = FleetStateStore.open(filePath, () => (simulated as SimulatedFleet).toState());
  const onStateChange = autoSave
    ? (changed: FleetState) => {
        store.record(changed);
        store.flush();
      }
    : undefined;
  simulated = new SimulatedFleet(fleet, clock, { restoredState: saved, onStateChange });
  if (!autoSave) store.close();
  return simulated;
}

/** Save the fleet's current state to `filePath`. */
export function saveSimulatedFleet(simulated: SimulatedFleet, filePath: string): void {
  writeFleetState(filePath, simulated.toState());
}
