/**
 * `UpdateRunEngine`: one update run, driven from outside. The caller owns time: it calls `reconcile`
 * at an instant and is told when to call again. Start, stop and skip are user actions at an instant.
 * The engine's state is plain JSON (`snapshot()`), and `UpdateRunEngine.resume` picks a run up where
 * a previous process left it.
 */
import type { SkipTarget } from "../model/skip";
import type { ManagedClusterUpdate } from "../model/update";
import type { ScheduledStartConfiguration } from "../model/strategy";
import type { RunEvent, UpdateRunStatus, UpdateState } from "../model/status";
import type { ClusterBackend } from "./backend";
import { EngineContext, type EngineOptions } from "./context";
import { approve, skipItems, startRun, stopRun } from "./control";
import { reconcile, type ReconcileResult } from "./execute";
import { planRun, type PlanInput } from "./plan";
import { allGates, fromSnapshot, isDone, type MemberRunState, type RunState } from "./runState";

/** Indexes of a member's stage, of its group in the stage, and of it in the group. */
export type MemberPosition = [stage: number, group: number, member: number];
import { renderStatus } from "./status";
import { appliedNodeImageVersions, failedMembers, type FailedMember } from "./results";

/** A JSON replacer leaving out the run's declared analysis (`RunState.declaredAnalysis`). */
export function withoutDeclaredAnalysis(key: string, value: unknown): unknown {
  return key === "declaredAnalysis" ? undefined : value;
}

export class UpdateRunEngine {
  private readonly ctx: EngineContext;
  private lastWake: number | undefined;
  private positions: Map<MemberRunState, MemberPosition> | undefined;

  private constructor(run: RunState, backend: ClusterBackend, options: EngineOptions) {
    this.ctx = new EngineContext(run, backend, options);
  }

  /** A new run, NotStarted. Throws `ValidationError` when the members and strategy disagree. */
  static create(input: PlanInput, backend: ClusterBackend, options: EngineOptions = {}): UpdateRunEngine {
    return new UpdateRunEngine(planRun(input), backend, options);
  }

  /** A run from a snapshot taken earlier, possibly by another process. */
  static resume(snapshot: RunState, backend: ClusterBackend, options: EngineOptions = {}): UpdateRunEngine {
    // Made again with all their fields (`runState.ts`): a snapshot leaves the unset ones out.
    return new UpdateRunEngine(fromSnapshot(structuredClone(snapshot)), backend, options);
  }

  start(now: number): void {
    startRun(this.ctx, now);
  }

  stop(now: number): void {
    stopRun(this.ctx, now);
  }

  /** Throws `SkipRefusedError` (and changes nothing) when an item is unknown or running. */
  skip(targets: readonly SkipTarget[], now: number): void {
    skipItems(this.ctx, targets, now);
  }

  /** Approve gates by id; throws `ApprovalRefusedError` (and changes nothing) when an id is unknown. */
  approve(gateIds: readonly string[], now: number): void {
    approve(this.ctx, gateIds, now);
  }

  /**
   * Gate ids of the run, with their state: what `approve` takes. A ScheduledStart gate also carries its
   * configuration and, once reached, the instant it opens (Fleet's gate resource shows both).
   */
  gates(): Array<{ gateId: string; displayName: string; state: UpdateState; scheduledStart?: ScheduledStartConfiguration; absoluteStartTime?: number }> {
    return [...allGates(this.ctx.run)].map(({ gate }) => ({
      gateId: gate.gateId,
      displayName: gate.displayName,
      state: gate.state,
      ...(gate.scheduledStart === undefined ? {} : { scheduledStart: gate.scheduledStart }),
      ...(gate.absoluteStartTime === undefined ? {} : { absoluteStartTime: gate.absoluteStartTime }),
    }));
  }

  /** Look at the world at `now`, act, and say when to look again. */
  async reconcile(now: number): Promise<ReconcileResult> {
    const result = await reconcile(this.ctx, now);
    this.lastWake = result.nextWakeAt;
    return result;
  }

  /** When the last reconcile pass said to look again (undefined: only a user action moves the run). */
  get nextWakeAt(): number | undefined {
    return this.lastWake;
  }

  /** Follow in-flight upgrades and recompute states without starting anything. */
  async observe(now: number): Promise<void> {
    await reconcile(this.ctx, now, "observe");
  }

  get state(): UpdateState {
    return this.ctx.run.state;
  }

  /** An upgrade is in flight. */
  get busy(): boolean {
    return this.ctx.inFlight.size > 0;
  }

  /** Nothing more will happen without a user action: finished, stopped, or never started. */
  get settled(): boolean {
    const { control } = this.ctx.run;
    return this.ctx.inFlight.size === 0 && (control === "NotStarted" || control === "Halted" || isDone(this.ctx.run.state));
  }

  status(): UpdateRunStatus {
    return renderStatus(this.ctx.run);
  }

  /**
   * Issue 23 (with `EngineOptions.trackChanges`): the members changed since the last call, each with
   * where it sits (indexes of its stage, group and place in the group), as live objects to serialize
   * at once; the set starts again empty. Everything else the run holds (stages, groups, gates, waits,
   * the run's own fields) is small and read from `run` by the caller.
   */
  takeChanges(): Array<{ at: MemberPosition; member: MemberRunState }> {
    const changed = this.ctx.changedMembers;
    if (changed === undefined) throw new Error("takeChanges needs EngineOptions.trackChanges");
    const out = [...changed].map((member) => ({ at: this.positionOf(member), member }));
    changed.clear();
    return out;
  }

  /** Where a member sits: indexes of its stage, its group in the stage, and itself in the group. */
  positionOf(member: MemberRunState): MemberPosition {
    if (this.positions === undefined) {
      const positions = new Map<MemberRunState, MemberPosition>();
      this.ctx.run.stages.forEach((stage, s) => stage.groups.forEach((group, g) => group.members.forEach((m, i) => positions.set(m, [s, g, i]))));
      this.positions = positions;
    }
    const at = this.positions.get(member);
    if (at === undefined) throw new Error(`member ${member.name} is not in the run`);
    return at;
  }

  /** The run's live state (read only): the journal serializes parts of it (issue 23). */
  get live(): Readonly<RunState> {
    return this.ctx.run;
  }

  /**
   * The run as plain JSON: fields cleared by setting them undefined (`runState.ts`) are left out, and
   * so is the declared analysis (issue 31: it may hold secrets; a resumed run is given it again).
   */
  snapshot(): RunState {
    return JSON.parse(JSON.stringify(this.ctx.run, withoutDeclaredAnalysis)) as RunState;
  }

  /**
   * The events of changes the state already holds that have not gone to `onEvent` yet (they go at
   * the end of the pass, after `checkpoint`). A journal keeps them beside the state, so that a process
   * that dies in between hands them to the next one (docs/behaviour.md, "Crashes").
   */
  undeliveredEvents(): RunEvent[] {
    return this.ctx.transitions.pending();
  }

  /**
   * What the run leaves for the next one (`results.ts`), read from the live state, not a copy of it;
   * with an `autoUpgradeProfile`, the update its channel generated (docs/rules.md §18).
   */
  results(): { failedMembers: FailedMember[]; appliedNodeImageVersions: Array<{ version: string }>; generatedUpdate?: ManagedClusterUpdate } {
    const run = this.ctx.run;
    const generated = run.autoUpgradeProfile === undefined ? undefined : run.managedClusterUpdate;
    return { failedMembers: failedMembers(run), appliedNodeImageVersions: appliedNodeImageVersions(run), ...(generated === undefined ? {} : { generatedUpdate: generated }) };
  }

  /** Members left out of the run because their group is in no stage (docs/rules.md §2 warning). */
  get excludedMembers(): RunState["excludedMembers"] {
    return this.ctx.run.excludedMembers;
  }
}
