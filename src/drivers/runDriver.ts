/**
 * One run, two drivers. A `RunDriver` is everything the Pulumi resources, the CLI and the plan do
 * with a run, whoever executes it:
 * - the engine driver (`engineDriver.ts`): our engine in this process over a `ClusterBackend` (the
 *   simulated fleet, ARM), with the run's journal and its lease;
 * - the Fleet Manager driver (`fleetDriver.ts`): Fleet runs the rollout server-side; we create or
 *   attach, steer and follow.
 * `driverFor` (`driverFor.ts`) is the one place that looks at which backend a run is on. Callers word
 * their messages from what the driver reports (`RunReport.executes`), never from the backend.
 * docs/architecture.md "Drivers".
 */
import type { MemberDrift } from "../engine/drift";
import type { ClusterBackend } from "../engine/backend";
import type { FailedMember } from "../engine/results";
import type { RunState } from "../engine/runState";
import type { AnalysisRunState } from "../engine/analysis";
import type { RunSummary } from "../engine/summary";
import type { FieldIssue } from "../model/issues";
import type { ExcludedMember } from "../model/run";
import type { SkipTarget } from "../model/skip";
import type { RunEvent, UpdateRunStatus, UpdateState } from "../model/status";
import type { UpdateRunStrategy } from "../model/strategy";
import type { ManagedClusterUpdate } from "../model/update";
import type { Fleet } from "../model/fleet";
import type { FleetState } from "../backends/simulator/fleetState";
import type { UpdateRunInputs } from "../spec/runSpec";
import type { StopRequest } from "./stopRequest";

/** Who executes the run: our engine in this process, or Fleet Manager, which goes on without us. */
export type Executor = "here" | "server";

/**
 * What a Fleet Manager run's caller keeps between calls: its ARM id, the skips already sent, and
 * (issue 31) the analyses measured at the gates the client added, and why it halted the run. A killed
 * client's successor needs none of it to go on safely: Fleet's gates say what was approved, and the
 * instants Fleet reached them fix each analysis's schedule (`fleetAnalysis.ts`).
 */
export interface FleetRunRecord {
  id: string;
  skipsSent: SkipTarget[];
  analysis?: FleetGateAnalysis[];
  halt?: FleetAnalysisHalt;
}

/** Issue 31: the analysis of one of the client's gates, measured from the instant Fleet reached it. */
export interface FleetGateAnalysis {
  /** Our gate id (`canary/after/1`). */
  gateId: string;
  /** When Fleet reached the gate (ms; its status's `startTime`): the analyses' schedule starts there. */
  reachedAt: number;
  /** One per template (a stage's gate), or per member and template (a group's gate, `afterMember`). */
  analyses: Array<{ member?: string; analysis: AnalysisRunState }>;
  /** When this client's approval of the gate landed. */
  approvedAt?: number;
}

/** Issue 31: a run the client stopped because an analysis failed: which gate, when, and why. */
export interface FleetAnalysisHalt {
  gateId: string;
  at: number;
  code: string;
  message: string;
  /** An `afterMember` analysis: the members whose analysis failed. */
  members: string[];
}

/** What the caller stored of a run after an earlier call (Pulumi's state): its id and the driver's record. */
export interface StoredRun {
  id: string;
  engineState?: RunState;
  fleetRun?: FleetRunRecord;
}

/**
 * Which run a call takes up:
 * - `stack`: the caller stores the run (Pulumi): `stored` if given, else a journaled run of the same
 *   inputs (a create interrupted before Pulumi saw it), else a new run;
 * - `spec`: the journal is the only record (`fleet-update run`): the journal's run while the spec
 *   still describes it; one of another spec that is unfinished is refused unless `startNew`.
 */
export type RunSelection = { by: "stack"; stored?: StoredRun } | { by: "spec"; startNew: boolean };

export interface DriveOptions {
  /** The run's events as they happen (progress lines, sinks). */
  onEvent: (event: RunEvent) => void;
  /**
   * Events of a resumed run that may not have reached the sinks before the last process stopped
   * (default: to `onEvent`), delivered first; a sink that keeps events dedupes them.
   */
  onRedelivered?: (events: readonly RunEvent[]) => void;
  /**
   * On the engine driver, stop the run at that instant and follow the upgrades in flight to their
   * end; on Fleet Manager, stop following (the run goes on server-side).
   */
  stop?: StopRequest;
}

/**
 * Why a call on a run returned: the run ended; reached the state asked for; waits at a gate nobody
 * approved with nothing in flight (issue 5); `returnAfterMinutes`; the deadline; a stop of the client.
 */
export type RunEnd = "settled" | "asked" | "gate" | "returned" | "deadline" | "interrupted";

/**
 * The run as it stands: its status and what is derived from it. Less `id` and `executes`, these are
 * `UpdateRun`'s outputs, each described once, in `UpdateRunOutputsSchema` (src/pulumi/surface.ts).
 * `drift` is computed by `observe` (`pulumi refresh`) only, and never on Fleet Manager.
 */
export interface RunView {
  id: string;
  executes: Executor;
  status: UpdateRunStatus;
  summary: RunSummary;
  strategySnapshot: UpdateRunStrategy;
  selectedNodeImageVersions: string[];
  excludedMembers: ExcludedMember[];
  failedMembers: FailedMember[];
  appliedNodeImageVersions: Array<{ version: string }>;
  drift: MemberDrift[];
  /** Engine driver only (plain JSON, without the members' health checks). */
  engineState?: RunState;
  /** Fleet Manager driver only. */
  fleetRun?: FleetRunRecord;
  generatedUpdate?: ManagedClusterUpdate;
}

/** How one call (`RunCall.drive`) ended. */
export interface RunReport extends RunView {
  end: RunEnd;
  /** Upgrades in flight when the call returned (they go on on the clusters). */
  busy: boolean;
}

/** The user's steering, applied on every call (docs/rules.md §3.8, §3.9; issue 5). */
export type RunControls = Pick<UpdateRunInputs, "state" | "skip" | "approvals" | "timeoutMinutes" | "returnAfterMinutes">;

/** One call on a run, opened: the run is chosen and its leases are held until `drive` returns or `release`. */
export interface RunCall {
  /** The run's id, once known (a Fleet Manager run's is known after it was created or attached to). */
  readonly id: string | undefined;
  /**
   * Whether this continues a run created earlier; undefined when it is known only once driven (a
   * Fleet Manager run is created or attached to by `drive`).
   */
  readonly resumed: boolean | undefined;
  /** Where the run is kept, for the user: the journal's file, or the fleet. */
  readonly whereKept: string;
  /** The run's journal (engine driver): a webhook keeps its outbox beside it (`src/events/webhookOutbox.ts`). */
  readonly journalFile: string | undefined;
  readonly executes: Executor;
  /** Members left out of the run, when known before it is driven. */
  readonly excludedMembers: readonly ExcludedMember[];
  /** The run's latest status, for a live view. */
  latestStatus(): UpdateRunStatus | undefined;
  /** The engine's state (engine driver), from which the run's plan is computed. */
  engineState(): RunState | undefined;
  /**
   * Apply the controls and drive (or follow) the run until it settles, reaches the state asked for,
   * waits, returns early or meets its deadline. Releases the run's lease when it returns.
   */
  drive(controls: RunControls, options: DriveOptions): Promise<RunReport>;
  /** Leave at once (a second Ctrl-C, the Pulumi engine gone): keep what is known so the next call resumes. */
  leaveNow(): void;
  /** Give the call up without driving (a command that refuses the run after opening it). */
  release(): void;
}

/** A gate as listed: our id, its state, its name for people. */
export interface GateView {
  gateId: string;
  state: UpdateState;
  displayName: string;
}

/** A list or approval of gates that cannot be done; each line says why. Nothing was changed. */
export class GateRefusedError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join("\n"));
    this.name = "GateRefusedError";
  }
}

/**
 * What a plan of the run reads: the simulated fleet as its files describe it now (local, cheap:
 * planned even at `pulumi preview`; read, never written), or the members' clusters through a
 * read-only backend.
 */
export type PlanView =
  | {
      reads: "fleetFile";
      inputs: UpdateRunInputs;
      /** The fleet file as the run names it, for messages. */
      fleetFile: string;
      /** The fleet file's regions and clusters. */
      fleet: Fleet;
      /** The clusters as the state file has them, when there is one. */
      state?: FleetState;
    }
  | { reads: "clusters"; inputs: UpdateRunInputs; backend: ClusterBackend };

export interface RunDriver {
  readonly executes: Executor;
  /**
   * Whether a replaced run must be deleted before its successor is created: a Fleet Manager run is
   * named after the resource, so two cannot exist at once.
   */
  readonly deleteBeforeReplace: boolean;
  /** Whether a plan reads only local files (then `pulumi preview` shows it). */
  readonly plansLocally: boolean;
  /**
   * What can be checked only by reading the world (a Fleet Manager run: the fleet's members), by
   * field path. Throws when the world cannot be read.
   */
  check(inputs: UpdateRunInputs): Promise<FieldIssue[]>;
  /** Choose the run and take its leases; a refusal throws before anything is touched. */
  open(inputs: UpdateRunInputs, selection: RunSelection): Promise<RunCall>;
  /** The run's statuses read again, starting nothing (`pulumi refresh`). */
  observe(inputs: UpdateRunInputs, stored: StoredRun): Promise<RunView>;
  /** The run's gates (`fleet-update gate list`). Throws `GateRefusedError` when there is no run. */
  gates(inputs: UpdateRunInputs): Promise<GateView[]>;
  /**
   * Approve the named gates, all or nothing (`fleet-update gate approve`); returns what to tell the
   * user. Throws `GateRefusedError` naming each refused id.
   */
  approve(inputs: UpdateRunInputs, gateIds: readonly string[]): Promise<string>;
  /** What a plan of this run reads (`plan/`). */
  planView(inputs: UpdateRunInputs): Promise<PlanView>;
  /** Forget the run (`pulumi destroy`): its journal, or the fleet's run record. Clusters are never touched. */
  forget(inputs: UpdateRunInputs, stored: StoredRun): Promise<void>;
}
