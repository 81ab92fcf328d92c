/**
 * The engine's whole memory of one run: plain JSON (instants are epoch ms), so it can be stored
 * between `pulumi up`s and resumed. Aggregated states are kept here too, updated by `aggregate.ts`
 * after every change, so that every change is seen once and emitted as an event.
 *
 * Every object here is made by the functions at the end of this file, with all its fields, unset ones
 * `undefined`, always in the same order; a field is cleared by setting it to `undefined`, never with
 * `delete`. A run holds one member object per cluster (issue 13: 100,000): V8 then gives them all one
 * hidden class for the whole run. Adding fields as a member moved on gave each step and each order of
 * steps its own, so the engine's hot paths saw a dozen shapes, and `delete` made dictionaries.
 * `UpdateRunEngine.snapshot()` leaves the unset fields out, as JSON does.
 */
import type { ScheduledStartConfiguration } from "../model/strategy";
import type { MemberRef, UpgradeRequest } from "./backend";
import type { ExcludedMember } from "../model/run";
import type { ErrorDetail, UpdateState } from "../model/status";
import type { ManagedClusterUpdate } from "../model/update";
import type { AutoUpgradeProfile } from "../model/autoUpgrade";
import type { HealthCheck } from "../model/healthCheck";
import type { UpdateRunStrategy } from "../model/strategy";
import type { Analysis } from "../model/analysis";
import type { Labels } from "../model/member";
import type { AnalysisRunState } from "./analysis";

export interface Timed {
  state: UpdateState;
  startTime?: number;
  completedTime?: number;
  error?: ErrorDetail;
}

export interface MemberRunState extends Timed {
  name: string;
  clusterResourceId?: string;
  operationId?: string;
  message?: string;
  /** The upgrade asked of the backend (kept for following it, and for the record). */
  request?: UpgradeRequest;
  /** Running: when to poll the operation next. Pending: when it may be able to start. */
  checkAgainAt?: number;
  /**
   * Set just before the backend is asked to start the upgrade, cleared once the answer is recorded.
   * Found set after an interruption, it is the evidence that an earlier attempt of this run may have
   * started the upgrade: a cluster then found at target is reported Completed, not Skipped.
   */
  startRequestedAt?: number;
  /** Issue 5: the member's probe, run after its upgrade succeeds. */
  healthCheck?: HealthCheck;
  /**
   * Set once the member's upgrade has succeeded and its cluster check passed: the analyses after its
   * upgrade (issue 31; its `healthCheck` is one, the short form), with their measurements.
   */
  analysis?: AnalysisRunState[];
}

/** How the backend names a member's cluster: its resource id when the run was given one (ARM needs it), else its name. */
export function memberRef(member: Pick<MemberRunState, "name" | "clusterResourceId">): MemberRef {
  return member.clusterResourceId === undefined ? { name: member.name } : { name: member.name, clusterResourceId: member.clusterResourceId };
}

/** An approval gate (issue 5): NotStarted → Pending when reached → Completed once approved (or Skipped). */
export interface GateRunState extends Timed {
  /** Deterministic: `<stage>/before/<i>`, `<stage>/<group>/after/<i>` (`gateId` in the model). */
  gateId: string;
  displayName: string;
  /** Issue 22: a ScheduledStart gate's weekday and local time (absent: an approval gate). */
  scheduledStart?: ScheduledStartConfiguration;
  /** When a ScheduledStart gate opens: fixed when it is first reached (docs/rules.md §17). */
  absoluteStartTime?: number;
}

/** Gates and failure tolerance: what stages and groups both carry (absent in journals from before them). */
export interface Controlled {
  beforeGates?: GateRunState[];
  afterGates?: GateRunState[];
  /** Failures tolerated, resolved from "N" / "P%" at planning; undefined = unset (docs/behaviour.md). */
  maxAllowedFailures?: number;
}

export interface GroupRunState extends Timed, Controlled {
  name: string;
  /** Members updated at once (docs/rules.md §6, resolved from "N" / "P%"). */
  maxConcurrency: number;
  members: MemberRunState[];
}

export interface WaitRunState extends Timed {
  /** When the wait ends, once it has started. */
  endsAt?: number;
}

export interface StageRunState extends Timed, Controlled {
  name: string;
  /** Cap on running members summed over the stage's groups; undefined = no cap. */
  maxConcurrency?: number;
  afterStageWaitInSeconds: number;
  groups: GroupRunState[];
  wait: WaitRunState;
  /** Issue 31: the stage's pre-checks and soak analyses, once started. */
  analysis?: AnalysisRunState[];
}

/**
 * Issue 31: the run's analysis as declared, and the labels of the members its queries may name.
 * Never stored (its headers and URLs may hold secrets): a resumed run is given it again from its
 * inputs (`src/drivers/engine/healthChecks.ts`), as the members' health checks.
 */
export interface RunAnalysis {
  spec: Analysis;
  labels: Record<string, Labels>;
}

/**
 * Where the run is in its life. `Halting`: no new member starts, in-flight upgrades are followed;
 * then `Halted`. The user-facing state (`RunState.state`) is derived from this and the tree.
 */
export type RunControl = "NotStarted" | "Running" | "Halting" | "Halted";

export interface RunState extends Timed {
  name: string;
  /**
   * What the run does to each member: as given, or generated from `autoUpgradeProfile` at the run's
   * start (`autoUpgrade.ts`, docs/rules.md §18); undefined until then.
   */
  managedClusterUpdate?: ManagedClusterUpdate;
  /** The channel the update is generated from, when the run was given one instead of an update. */
  autoUpgradeProfile?: AutoUpgradeProfile;
  /** Why the update could not be generated: the run failed at its start, nothing was touched (§18). */
  updateError?: ErrorDetail;
  /** The strategy as snapshotted when the run was created (docs/rules.md §1). */
  strategy: UpdateRunStrategy;
  /** Issue 31: the analysis as declared (in memory only: never stored, `RunAnalysis`). */
  declaredAnalysis?: RunAnalysis;
  excludedMembers: ExcludedMember[];
  control: RunControl;
  /** Why the run halted: a user stop, or a member failure (docs/rules.md §3.7, §3.8). */
  haltReason?: "stop" | "failure";
  /** Gate id → when its approval was received (epoch ms). Approvals may arrive before the gate is reached. */
  approvals?: Record<string, number>;
  /** Consistent/Custom node image picks, one per image family, once made (docs/rules.md §3.6). */
  selectedNodeImageVersions?: string[];
  stages: StageRunState[];
}

/**
 * The run's update, once it exists: given, or generated at the run's start (docs/rules.md §18). Asked
 * for only in a pass that starts members or picks images, which comes after the generation: a run
 * whose update could not be generated is Halted and starts nothing (`execute.ts` `reconcile`).
 */
export function runUpdate(run: RunState): ManagedClusterUpdate {
  return run.managedClusterUpdate as ManagedClusterUpdate;
}

/** Where a member sits in the run: its stage and group. */
export interface MemberPlace {
  stage: StageRunState;
  group: GroupRunState;
  member: MemberRunState;
}

export function isFinished(state: UpdateState): boolean {
  return state === "Completed" || state === "Skipped" || state === "Failed";
}

/** Completed or Skipped: a child that lets its parent complete. */
export function isDone(state: UpdateState): boolean {
  return state === "Completed" || state === "Skipped";
}


/** Every gate of the run, with where it sits. */
export function* allGates(run: RunState): Generator<{ gate: GateRunState; stage: StageRunState; group?: GroupRunState }> {
  for (const stage of run.stages) {
    for (const gate of [...(stage.beforeGates ?? []), ...(stage.afterGates ?? [])]) yield { gate, stage };
    for (const group of stage.groups) {
      for (const gate of [...(group.beforeGates ?? []), ...(group.afterGates ?? [])]) yield { gate, stage, group };
    }
  }
}

// The constructors of the run's objects: every field, in one order (see the top of this file). Each
// takes its children already made; `fromSnapshot` makes a whole run again from a snapshot, which
// leaves the unset fields out.

export function memberRunState(m: Pick<MemberRunState, "name"> & Partial<MemberRunState>): MemberRunState {
  return {
    name: m.name,
    clusterResourceId: m.clusterResourceId,
    healthCheck: m.healthCheck,
    // Written out, not `...timedFields(m)`: a run makes one per cluster, and a spread costs a call each.
    state: m.state ?? "NotStarted",
    startTime: m.startTime,
    completedTime: m.completedTime,
    error: m.error,
    operationId: m.operationId,
    message: m.message,
    request: m.request,
    checkAgainAt: m.checkAgainAt,
    startRequestedAt: m.startRequestedAt,
    analysis: m.analysis,
  };
}

/** What every item with a state has, in this order: state, then its times and error. */
function timedFields(t: Partial<Timed>): Timed {
  return { state: t.state ?? "NotStarted", startTime: t.startTime, completedTime: t.completedTime, error: t.error };
}

/** Gates and failure tolerance, in this order (stages and groups). */
function controlFields(c: Controlled): Controlled {
  return { beforeGates: c.beforeGates, afterGates: c.afterGates, maxAllowedFailures: c.maxAllowedFailures };
}

export function gateRunState(g: Pick<GateRunState, "gateId" | "displayName"> & Partial<GateRunState>): GateRunState {
  return {
    gateId: g.gateId,
    displayName: g.displayName,
    ...timedFields(g),
    scheduledStart: g.scheduledStart,
    absoluteStartTime: g.absoluteStartTime,
  };
}

export function groupRunState(g: Pick<GroupRunState, "name" | "maxConcurrency" | "members"> & Partial<GroupRunState>): GroupRunState {
  return { name: g.name, ...timedFields(g), maxConcurrency: g.maxConcurrency, ...controlFields(g), members: g.members };
}

export function waitRunState(w: Partial<WaitRunState> = {}): WaitRunState {
  return { ...timedFields(w), endsAt: w.endsAt };
}

export function stageRunState(s: Pick<StageRunState, "name" | "afterStageWaitInSeconds" | "groups"> & Partial<StageRunState>): StageRunState {
  return {
    name: s.name,
    ...timedFields(s),
    maxConcurrency: s.maxConcurrency,
    ...controlFields(s),
    afterStageWaitInSeconds: s.afterStageWaitInSeconds,
    groups: s.groups,
    wait: s.wait ?? waitRunState(),
    analysis: s.analysis,
  };
}

export function runState(r: Pick<RunState, "name" | "strategy" | "excludedMembers" | "stages"> & Partial<RunState>): RunState {
  return {
    name: r.name,
    ...timedFields(r),
    managedClusterUpdate: r.managedClusterUpdate,
    autoUpgradeProfile: r.autoUpgradeProfile,
    updateError: r.updateError,
    strategy: r.strategy,
    declaredAnalysis: r.declaredAnalysis,
    excludedMembers: r.excludedMembers,
    control: r.control ?? "NotStarted",
    haltReason: r.haltReason,
    approvals: r.approvals,
    selectedNodeImageVersions: r.selectedNodeImageVersions,
    stages: r.stages,
  };
}

/** A run read back from a snapshot, every object made again with all its fields. */
export function fromSnapshot(snapshot: RunState): RunState {
  const gates = (list: GateRunState[] | undefined) => list?.map(gateRunState);
  return runState({
    ...snapshot,
    stages: snapshot.stages.map((stage) =>
      stageRunState({
        ...stage,
        beforeGates: gates(stage.beforeGates),
        afterGates: gates(stage.afterGates),
        wait: waitRunState(stage.wait),
        groups: stage.groups.map((group) => groupRunState({ ...group, beforeGates: gates(group.beforeGates), afterGates: gates(group.afterGates), members: group.members.map(memberRunState) })),
      }),
    ),
  });
}
