/**
 * The plan IS a simulation: the same engine on a virtual clock, against a simulated fleet built from
 * what is known now, with nothing failing and nobody acting. Everything the plan says about timing
 * comes from this run; nothing is estimated separately.
 */
import { simulatedWorld, type ClusterSnapshot, type FleetState } from "../simulation/simulatedWorld";
import type { RunState } from "../engine/runState";
import type { ClusterBackend, ClusterInfo, MemberRef, RegionOffer } from "../engine/backend";
import { decideStart } from "../engine/checks";
import { VirtualClock } from "../engine/clock";
import { drive, type RunAction } from "../engine/drive";
import { UpdateRunEngine } from "../engine/engine";
import { WindowTracker } from "../engine/priority";
import type { ExcludedMember } from "../model/run";
import type { ErrorDetail, RunEvent, UpdateRunStatus } from "../model/status";
import type { ManagedClusterUpdate } from "../model/update";
import { PendingPeriods } from "./pendingPeriods";
import { PLAN_RUN_NAME, type PlanWorld } from "./world";

export interface Prediction {
  /** The status tree at the horizon (or when the run settled). */
  status: UpdateRunStatus;
  pending: PendingPeriods;
  excludedMembers: ExcludedMember[];
  /** Every cluster of the world as it is when the run starts. */
  clustersAtStart: Map<string, ClusterInfo>;
  /** What each region of the world offers (with announced dates). */
  offers: Map<string, RegionOffer>;
  /** The clusters as the run leaves them. */
  clustersAtEnd: ClusterSnapshot[];
  /** The simulated fleet's state as the run leaves it: where a chained run's next run starts from. */
  fleetStateAtEnd: () => FleetState;
  /** The run's update: as given, or as generated at its start; undefined when none could be (`updateError`). */
  managedClusterUpdate?: ManagedClusterUpdate;
  /** Why the run's `autoUpgradeProfile` generated no update (docs/rules.md §18). */
  updateError?: ErrorDetail;
  /** The engine's state at the end (what the run's outputs are read from). */
  engineState: () => RunState;
}

export async function predict(world: PlanWorld): Promise<Prediction> {
  const clock = new VirtualClock(world.start);
  const fleet = simulatedWorld(world.fleet, clock, world.restoredState);
  const clustersAtStart = new Map<string, ClusterInfo>();
  for (const m of world.fleet.members) clustersAtStart.set(m.name, fleet.clusterNow({ name: m.name }));
  const offers = new Map<string, RegionOffer>();
  for (const region of Object.keys(world.fleet.regions)) offers.set(region, fleet.regionOfferNow(region));

  const pending = new PendingPeriods();
  const lookedAt = new Map<string, ClusterInfo>();
  const watched = watchedBackend(fleet, lookedAt);
  const options = { onEvent: (e: RunEvent) => pending.onEvent(e) };
  const engine = world.resumeFrom === undefined ? UpdateRunEngine.create({ name: PLAN_RUN_NAME, ...world.run }, watched, options) : UpdateRunEngine.resume(world.resumeFrom, watched, options);
  const reasons = new ReasonTracker(engine, lookedAt, pending, offers);
  await drive(engine, clock, { until: world.horizon, actions: controlActions(world), onPass: () => reasons.afterPass(clock.now()) });

  return {
    status: engine.status(),
    pending,
    excludedMembers: engine.excludedMembers,
    clustersAtStart,
    offers,
    clustersAtEnd: fleet.snapshot().clusters,
    fleetStateAtEnd: () => fleet.toState(),
    engineState: () => engine.snapshot(),
    ...(engine.live.managedClusterUpdate === undefined ? {} : { managedClusterUpdate: engine.live.managedClusterUpdate }),
    ...(engine.live.updateError === undefined ? {} : { updateError: engine.live.updateError }),
  };
}

/** The controls already decided, then the start, all at the start instant before the first pass (as a session applies them). */
function controlActions(world: PlanWorld): RunAction[] {
  const actions: RunAction[] = [];
  if (world.controls.skip.length > 0) actions.push({ at: world.start, skip: world.controls.skip });
  if (world.controls.approvals.length > 0) actions.push({ at: world.start, approve: world.controls.approvals });
  actions.push({ at: world.start, start: true });
  return actions;
}

/**
 * The simulated fleet as the engine gets it in `simulate` (`atOnce`), noting in `lookedAt` which
 * members the engine looked at in the current pass and what it saw: the engine reads a member's
 * cluster before every start decision. Every other call is the fleet's own.
 */
function watchedBackend(fleet: ReturnType<typeof simulatedWorld>, lookedAt: Map<string, ClusterInfo>): ClusterBackend {
  return {
    ...fleet.atOnce,
    getCluster: (member: MemberRef) => {
      const info = fleet.clusterNow(member);
      lookedAt.set(member.name, info);
      return info;
    },
  };
}

/**
 * After each pass, a member still Pending that the engine looked at again gets the reason the
 * engine's own start decision (`decideStart`) gives now: when it changed, a new Pending period begins.
 */
class ReasonTracker {
  private readonly windows = new WindowTracker();
  private selected: string[] | undefined;

  constructor(
    private readonly engine: UpdateRunEngine,
    /** Members the engine read in the current pass (`watchedBackend`), emptied after each. */
    private readonly lookedAt: Map<string, ClusterInfo>,
    private readonly pending: PendingPeriods,
    private readonly offers: Map<string, RegionOffer>,
  ) {}

  afterPass(now: number): void {
    const lookedAt = this.lookedAt;
    if (lookedAt.size === 0) return;
    for (const [member, cluster] of lookedAt) {
      const offer = this.offers.get(cluster.region);
      if (!this.pending.isPending(member) || offer === undefined) continue;
      // The run's image picks are made at its first pass and never change: read them once.
      this.selected ??= this.engine.status().nodeImageSelection.selectedNodeImageVersions.map((v) => v.version);
      // A member is looked at only once the run has its update (given, or generated at its start).
      const update = this.engine.live.managedClusterUpdate;
      if (update === undefined) continue;
      const decision = decideStart({ member, update, selectedNodeImageVersions: this.selected, cluster, offer, windows: this.windows, now });
      if (decision.kind === "pending") this.pending.reasonChanged(member, now, decision.message);
    }
    lookedAt.clear();
  }
}
