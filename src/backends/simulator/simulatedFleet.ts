/**
 * The embedded default backend: a fleet of simulated AKS clusters driven by a `Clock`. Upgrades take
 * `simulation.upgradeMinutes` of clock time and are settled lazily — every call first finishes the
 * operations whose end has passed — so the fleet needs no timers and a virtual clock can jump a week
 * ahead in one step. The simulator reads time only from the clock; instants are epoch ms.
 */
import {
  BackendError,
  clusterStoppedMessage,
  type ClusterBackend,
  type ClusterInfo,
  type MemberRef,
  type MetricAnswer,
  type MetricQuery,
  type NodePoolInfo,
  type OfferedVersion,
  type OperationState,
  type ProbeResult,
  type RegionOffer,
  type StartedOperation,
  type UpgradeRequest,
} from "../../engine/backend";
import type { Clock } from "../../engine/clock";
import { MinHeap } from "../../engine/minHeap";
import type { Fleet, Region, SimulatedCluster } from "../../model/fleet";
import { CLUSTER_STOPPED, NOT_FOUND, OPERATION_NOT_ALLOWED, UPGRADE_ABORTED } from "../../aks/errorCodes";
import { FLEET_STATE_FORMAT, initialClusterState, runningOperation, type ClusterState, type FleetState, type OperationRecord } from "./fleetState";
import { clusterSnapshot, operationLogEntry, toIsoInstant, type FleetSnapshot, type OperationLogEntry } from "./snapshot";
import { latestImagesByPart } from "../../aks/latestImages";
import { clusterSeries, evaluateSelector, type Series } from "./metrics";
import { shownProbeUrl } from "../../model/analysis";
import { applyUpgrade, checkUpgradeRequest, type ClusterVersions } from "../../aks/upgradeRules";

/** docs/rules.md §7: an upgrade takes 10 minutes unless the cluster's `simulation.upgradeMinutes` says otherwise. */
export const DEFAULT_UPGRADE_MINUTES = 10;

export interface SimulatedFleetOptions {
  /** Cluster state a previous run left (see `stateFile.ts`). Clusters it does not name start as described. */
  restoredState?: FleetState;
  /**
   * Called after every call that changed the state, with the clusters it changed (only those: issue
   * 23, a change costs what it changed, not the fleet) — the hook `stateFile.ts` persists with.
   */
  onStateChange?: (changed: FleetState) => void;
}

/** One `startUpgrade` call, accepted or refused, kept so tests can count and inspect them. */
export interface StartUpgradeCall {
  member: string;
  at: number;
  request: UpgradeRequest;
  outcome: { operationId: string } | { error: { code: string; message: string } };
}

/** One accepted upgrade of any cluster, for the fleet-wide operation log. */
export interface FleetOperationLogEntry extends OperationLogEntry {
  member: string;
}

/** A cluster's fixed description next to what it has become. */
interface ClusterEntry {
  description: SimulatedCluster;
  state: ClusterState;
  /**
   * What `getCluster` answers, built once and shared by every read until the state changes (`changedState`)
   * or `viewUntil` passes (an outside operation's end): a run reads each cluster a few times, and a
   * copy per read was most of what the engine kept between passes (issue 13). Frozen, so no reader
   * can change it for the others.
   */
  view: ClusterInfo | undefined;
  viewUntil: number;
}

export class SimulatedFleet implements ClusterBackend {
  private readonly fleet: Fleet;
  private readonly clock: Clock;
  private readonly onStateChange: ((state: FleetState) => void) | undefined;
  /** In fleet declaration order, which every listing keeps. */
  private readonly clusters = new Map<string, ClusterEntry>();
  private readonly startCalls: StartUpgradeCall[] = [];
  /** Each region's offer as the backend answers it (`regionOfferNow`). */
  private readonly offers = new Map<string, RegionOffer>();
  /** Operations not yet ended, so settling costs the running ones, not the whole fleet. */
  private readonly running = new Set<RunningOperation>();
  /** The same operations by when they end (entries no longer in `running` are skipped), so settling costs the ended ones only. */
  private readonly endings = new MinHeap<{ at: number; entry: RunningOperation }>((a, b) => a.at - b.at);
  /** The clusters the current call changed (and so `onStateChange` is due). */
  private readonly changed = new Set<string>();

  constructor(fleet: Fleet, clock: Clock, options: SimulatedFleetOptions = {}) {
    this.fleet = fleet;
    this.clock = clock;
    this.onStateChange = options.onStateChange;
    const restored = options.restoredState?.clusters ?? {};
    for (const description of fleet.members) {
      const state = Object.hasOwn(restored, description.name) ? restored[description.name] : undefined;
      const entry: ClusterEntry = { description, state: state ? structuredClone(state) : initialClusterState(description), view: undefined, viewUntil: Number.NEGATIVE_INFINITY };
      this.clusters.set(description.name, entry);
      for (const op of entry.state.operations) if (op.result === undefined) this.track({ entry, op });
    }
  }

  // The backend's calls, each answering with a promise as `ClusterBackend` callers expect; the
  // `…Now` methods behind them answer at once and throw what they refuse.
  async getCluster(member: MemberRef): Promise<ClusterInfo> {
    return this.clusterNow(member);
  }

  async getRegionOffer(region: string): Promise<RegionOffer> {
    return this.regionOfferNow(region);
  }

  async startUpgrade(member: MemberRef, request: UpgradeRequest): Promise<StartedOperation> {
    return this.startUpgradeNow(member, request);
  }

  async getOperation(member: MemberRef, operationId: string): Promise<OperationState> {
    return this.operationNow(member, operationId);
  }

  async findStartedUpgrade(member: MemberRef, request: UpgradeRequest, since: number): Promise<StartedOperation | undefined> {
    return this.startedUpgradeNow(member, request, since);
  }

  async probe(member: MemberRef, url: string): Promise<ProbeResult> {
    return this.probeNow(member, url);
  }

  async queryMetric(query: MetricQuery): Promise<MetricAnswer> {
    return this.queryMetricNow(query);
  }

  /**
   * This fleet as a backend whose calls answer with the value itself (`Answer` in `engine/backend.ts`):
   * what `simulate` and `plan` give the engine, which then spends no promise on a call (issue 13).
   */
  readonly atOnce: ClusterBackend = {
    getCluster: (member) => this.clusterNow(member),
    getRegionOffer: (region) => this.regionOfferNow(region),
    startUpgrade: (member, request) => this.startUpgradeNow(member, request),
    getOperation: (member, operationId) => this.operationNow(member, operationId),
    findStartedUpgrade: (member, request, since) => this.startedUpgradeNow(member, request, since),
    probe: (member, url) => this.probeNow(member, url),
    queryMetric: (query) => this.queryMetricNow(query),
  };

  clusterNow(member: MemberRef): ClusterInfo {
    return this.answer((now) => {
      const entry = this.cluster(member.name);
      if (entry.view === undefined || now >= entry.viewUntil) this.buildView(entry, now);
      return entry.view as ClusterInfo;
    });
  }

  regionOfferNow(region: string): RegionOffer {
    return this.answer(() => {
      // What a region offers is described once and never changes: every read shares one frozen answer.
      let offer = this.offers.get(region);
      if (offer === undefined) {
        const described = this.region(region);
        offer = Object.freeze({
          kubernetesVersions: Object.freeze(described.kubernetesVersions.map(offeredVersion)),
          nodeImages: Object.freeze(described.nodeImages.map(offeredVersion)),
        }) as RegionOffer;
        this.offers.set(region, offer);
      }
      return offer;
    });
  }

  startUpgradeNow(member: MemberRef, request: UpgradeRequest): StartedOperation {
    return this.answer((now) => {
      // One copy, kept by the call record and (unless Latest settles other images) by the operation.
      const asked = copyRequest(request);
      try {
        const op = this.acceptUpgrade(this.cluster(member.name), asked, request.latestNodeImages === true, now);
        this.startCalls.push({ member: member.name, at: now, request: asked, outcome: { operationId: op.operationId } });
        return { operationId: op.operationId, checkAgainAt: op.endAt, startedAt: op.startAt };
      } catch (error) {
        if (error instanceof BackendError) this.startCalls.push({ member: member.name, at: now, request: asked, outcome: { error: { code: error.code, message: error.message } } });
        throw error;
      }
    });
  }

  operationNow(member: MemberRef, operationId: string): OperationState {
    return this.answer(() => {
      const op = this.cluster(member.name).state.operations.find((o) => o.operationId === operationId);
      if (op === undefined) {
        throw new BackendError(NOT_FOUND, `The Resource 'Microsoft.ContainerService/managedClusters/${member.name}/operations/${operationId}' was not found.`);
      }
      if (op.result === undefined) return { status: "InProgress", checkAgainAt: op.endAt };
      // The operation log's own times (docs/rules.md §20).
      const times = { startedAt: op.startAt, endedAt: op.endAt };
      if (op.result === "Failed") return { status: "Failed", error: { ...(op.failWith ?? { code: "UpgradeFailed", message: "the upgrade failed" }) }, ...times };
      if (op.result === "Canceled") return { status: "Failed", error: { code: UPGRADE_ABORTED, message: `the upgrade of managed cluster ${member.name} was aborted before it reached its target` }, ...times };
      return { status: "Succeeded", ...times };
    });
  }

  /**
   * The first operation accepted at or after `since` that asks for what `request` asks (`sameUpgrade`).
   */
  startedUpgradeNow(member: MemberRef, request: UpgradeRequest, since: number): StartedOperation | undefined {
    return this.answer(() => {
      const op = this.cluster(member.name).state.operations.find((o) => o.startAt >= since && sameUpgrade(o.request, request));
      return op === undefined ? undefined : { operationId: op.operationId, checkAgainAt: op.endAt, startedAt: op.startAt };
    });
  }

  /** Issue 5: the simulated probe answers from `simulation.healthy` (a probe for no member, a stage's: 200). */
  probeNow(member: MemberRef, url: string): ProbeResult {
    return this.answer(() => {
      const entry = member.name === "" ? undefined : this.cluster(member.name);
      const shown = shownProbeUrl(url);
      return entry?.description.simulation?.healthy === false
        ? { ok: false, detail: `GET ${shown} answered 503 (simulated: healthy is false)`, status: 503 }
        : { ok: true, detail: `GET ${shown} answered 200 (simulated)`, status: 200 };
    });
  }

  /** Issue 31: a query over the clusters' declared metrics at the fleet's now (instant selectors only). */
  queryMetricNow(query: MetricQuery): MetricAnswer {
    // A past instant (`at`) is answered from the clusters' history, as Prometheus answers from its samples.
    return this.answer((now) => evaluateSelector(query.query, this.seriesNow(Math.min(query.at ?? now, now))));
  }

  /** Issue 31: every cluster's series now (what the emulator's `/metrics` serves). */
  series(): Series[] {
    return this.answer((now) => this.seriesNow(now));
  }

  private seriesNow(now: number): Series[] {
    const out: Series[] = [];
    for (const { description, state } of this.clusters.values()) out.push(...clusterSeries(description, state, now));
    return out;
  }

  /** docs/rules.md §7 `clusters`: every cluster's versions and operation log, in declaration order. */
  snapshot(): FleetSnapshot {
    return this.answer(() => ({ clusters: [...this.clusters].map(([name, { state }]) => clusterSnapshot(name, state)) }));
  }

  /** Every accepted upgrade of every cluster, by start time (ties in declaration order). */
  operationLog(): FleetOperationLogEntry[] {
    return this.answer(() =>
      [...this.clusters]
        .flatMap(([member, { state }]) => state.operations.map((op) => ({ op, member })))
        .sort((a, b) => a.op.startAt - b.op.startAt)
        .map(({ op, member }) => ({ member, ...operationLogEntry(op) })),
    );
  }

  /**
   * ARM's abort: end the operation running on the cluster now, as `Canceled`. What it had done by then
   * stays — `progress`, the versions the cluster shows at this instant (default: unchanged, as when an
   * upgrade fails) — and the rest is never applied. Returns the aborted operation; undefined when none runs.
   */
  abortOperation(member: MemberRef, progress?: ClusterVersions): OperationRecord | undefined {
    return this.answer((now) => {
      const cluster = this.cluster(member.name);
      const { state } = cluster;
      const op = runningOperation(state);
      if (op === undefined) return undefined;
      for (const entry of this.running) if (entry.op === op) this.running.delete(entry);
      op.result = "Canceled";
      op.endAt = now;
      if (progress !== undefined) Object.assign(state, { kubernetesVersion: progress.kubernetesVersion, nodePools: progress.nodePools.map((p) => ({ ...p })) });
      this.changedState(cluster);
      return structuredClone(op);
    });
  }

  /** Whether an upgrade is under way on any cluster at `now` (read-only: settles nothing). */
  hasOperationRunning(now: number): boolean {
    for (const entry of this.running) if (entry.op.endAt > now) return true;
    return false;
  }

  /** Every `startUpgrade` call made to this instance, refused ones included, in call order. */
  startUpgradeCalls(): StartUpgradeCall[] {
    return structuredClone(this.startCalls);
  }

  /** The clusters' state as it is now, to persist. Does not settle ended operations. */
  toState(): FleetState {
    const clusters: Record<string, ClusterState> = {};
    for (const [name, { state }] of this.clusters) clusters[name] = structuredClone(state);
    return { format: FLEET_STATE_FORMAT, clusters };
  }

  /** Run one call: settle what has ended, answer, then report any state change (even if the call threw). */
  private answer<T>(respond: (now: number) => T): T {
    const now = this.clock.now();
    try {
      this.settleEndedOperations(now);
      return respond(now);
    } finally {
      if (this.changed.size > 0) {
        // Copied only for a listener (a state file): `simulate` has none, and pays nothing here.
        if (this.onStateChange !== undefined) {
          const clusters: Record<string, ClusterState> = {};
          for (const name of this.changed) clusters[name] = structuredClone((this.clusters.get(name) as ClusterEntry).state);
          this.onStateChange({ format: FLEET_STATE_FORMAT, clusters });
        }
        this.changed.clear();
      }
    }
  }

  private settleEndedOperations(now: number): void {
    // Each operation changes only its own cluster: the order they are settled in changes nothing.
    for (;;) {
      const next = this.endings.peek();
      if (next === undefined || next.at > now) return;
      this.endings.pop();
      if (!this.running.delete(next.entry)) continue;
      this.finish(next.entry.entry, next.entry.op);
    }
  }

  private track(entry: RunningOperation): void {
    this.running.add(entry);
    this.endings.push({ at: entry.op.endAt, entry });
  }

  /** End an operation: apply its request, or — when it was set to fail — change nothing. */
  private finish(entry: ClusterEntry, op: OperationRecord): void {
    if (op.failWith !== undefined) {
      op.result = "Failed";
    } else {
      Object.assign(entry.state, applyUpgrade(entry.state, op.request));
      op.result = "Succeeded";
    }
    this.changedState(entry);
  }

  /** The cluster's state changed: the next read builds its view again, and the state is reported. */
  private changedState(entry: ClusterEntry): void {
    entry.view = undefined;
    if (this.onStateChange !== undefined) this.changed.add(entry.description.name);
  }

  /** The cluster as `getCluster` answers it at `now`, kept in `entry.view` until something changes it. */
  private buildView(entry: ClusterEntry, now: number): void {
    const { description, state } = entry;
    const active = activeOperation(description, state, now);
    // Every field present, unset ones undefined, in one order: every view has one hidden class.
    const info: ClusterInfo = {
      region: description.region,
      kubernetesVersion: state.kubernetesVersion,
      nodePools: Object.freeze(state.nodePools.map((pool) => Object.freeze({ name: pool.name, orchestratorVersion: pool.orchestratorVersion, nodeImageVersion: pool.nodeImageVersion }))) as NodePoolInfo[],
      // Shared, not copied: the description never changes, and a stable object lets the engine cache
      // window computations per member.
      maintenanceConfigurations: description.maintenanceConfigurations,
      activeOperation: active === undefined ? undefined : Object.freeze(active),
      provisioningState: provisioningState(description, state),
      powerState: description.simulation?.powerState ?? "Running",
      autoUpgrade: description.autoUpgradeProfile,
    };
    entry.view = Object.freeze(info);
    // An operation started outside the fleet ends by time alone: the view holds until then.
    const busyUntil = description.simulation?.busyUntil;
    entry.viewUntil = active !== undefined && active.operationId === undefined && busyUntil !== undefined ? Date.parse(busyUntil) : Number.POSITIVE_INFINITY;
  }

  /**
   * Check the request against the power state, the busy rule and the AKS rules, then record the new
   * operation. `request` is this fleet's own copy, never changed afterwards; `latest`: it asks for the
   * newest images (`latestNodeImages`, which the copy leaves out).
   */
  private acceptUpgrade(cluster: ClusterEntry, request: UpgradeRequest, latest: boolean, now: number): OperationRecord {
    const { description, state } = cluster;
    const name = description.name;
    if (description.simulation?.powerState === "Stopped") throw new BackendError(CLUSTER_STOPPED, clusterStoppedMessage(name));
    const active = activeOperation(description, state, now);
    if (active !== undefined) throw new BackendError(OPERATION_NOT_ALLOWED, busyMessage(name, active));
    checkUpgradeRequest({ name, regionName: description.region, region: this.region(description.region), ...state }, request, now);

    const simulation = description.simulation;
    const minutes = simulation?.upgradeMinutes ?? DEFAULT_UPGRADE_MINUTES;
    const startAt = now;
    const endAt = now + Math.round(minutes * 60_000);
    // Latest: a pool re-imaged later in the upgrade takes the newest image then (latestImages.ts). The
    // offers are known ahead, so the images are settled now and recorded as what the operation applies.
    const applied =
      latest ? { ...request, nodeImageVersions: latestImagesByPart(state.nodePools, request, this.region(description.region), startAt, endAt) } : request;
    const fail = simulation?.fail;
    const failedSoFar = fail === undefined ? 0 : state.operations.filter((o) => o.result === "Failed").length;
    const failWith = fail !== undefined && (fail.attempts === undefined || failedSoFar < fail.attempts) ? { code: fail.code, message: fail.message } : undefined;
    // Every field present (`result` is set when it ends): every operation record has one hidden class.
    const op: OperationRecord = { operationId: `op-${name}-${state.nextOperationNumber}`, request: applied, startAt, endAt, failWith, result: undefined };
    state.nextOperationNumber += 1;
    state.operations.push(op);
    this.track({ entry: cluster, op });
    this.changedState(cluster);
    return op;
  }

  private cluster(name: string): ClusterEntry {
    const entry = this.clusters.get(name);
    if (entry === undefined) {
      throw new BackendError(NOT_FOUND, `The Resource 'Microsoft.ContainerService/managedClusters/${name}' was not found: the simulated fleet has no member '${name}'.`);
    }
    return entry;
  }

  private region(name: string): Region {
    const region = Object.hasOwn(this.fleet.regions, name) ? this.fleet.regions[name] : undefined;
    if (region === undefined) {
      throw new BackendError(NOT_FOUND, `The location '${name}' is not part of the simulated fleet (regions: ${Object.keys(this.fleet.regions).join(", ")}).`);
    }
    return region;
  }
}

type ActiveOperation = NonNullable<ClusterInfo["activeOperation"]>;

/** Upgrading while an upgrade runs; Failed after one on a cluster simulated as unhealthy; else Succeeded. */
function provisioningState(description: SimulatedCluster, state: ClusterState): string {
  if (runningOperation(state) !== undefined) return "Upgrading";
  if (description.simulation?.healthy === false && state.operations.some((o) => o.result === "Succeeded")) return "Failed";
  return "Succeeded";
}

/** The cluster's own running upgrade, or else an operation started elsewhere (`simulation.busyUntil`). */
function activeOperation(description: SimulatedCluster, state: ClusterState, now: number): ActiveOperation | undefined {
  const running = runningOperation(state);
  if (running !== undefined) return { operationId: running.operationId, expectedEndAt: running.endAt };
  const busyUntil = description.simulation?.busyUntil;
  if (busyUntil !== undefined && now < Date.parse(busyUntil)) return { expectedEndAt: Date.parse(busyUntil) };
  return undefined;
}

/** Worded after ARM's 409 for a cluster that is busy. */
function busyMessage(cluster: string, active: ActiveOperation): string {
  const which = active.operationId !== undefined ? `upgrade operation (${active.operationId})` : "operation started outside the fleet";
  const until = active.expectedEndAt !== undefined ? `, expected to end at ${toIsoInstant(active.expectedEndAt)}` : "";
  return `Operation is not allowed because there's an in progress ${which} on managed cluster '${cluster}'${until}. Please wait for it to finish before starting another operation.`;
}

function offeredVersion(offer: { version: string; availableAt?: string; isPreview?: boolean }): OfferedVersion {
  return Object.freeze({
    version: offer.version,
    ...(offer.availableAt === undefined ? {} : { availableAt: Date.parse(offer.availableAt) }),
    ...(offer.isPreview === true ? { isPreview: true as const } : {}),
  });
}

/**
 * Whether an accepted operation's request asks for the upgrade `request` asks: type, version, and
 * every pool it re-images (Latest may re-image more pools, at newer images: `latestImages.ts`).
 */
function sameUpgrade(applied: UpgradeRequest, request: UpgradeRequest): boolean {
  if (applied.type !== request.type || applied.kubernetesVersion !== request.kubernetesVersion) return false;
  return Object.keys(request.nodeImageVersions).every((pool) => Object.hasOwn(applied.nodeImageVersions, pool));
}

/** A copy the caller cannot change afterwards, without `undefined` fields (it is persisted as JSON). */
function copyRequest(request: UpgradeRequest): UpgradeRequest {
  const copy: UpgradeRequest = { type: request.type, nodeImageVersions: { ...request.nodeImageVersions } };
  if (request.kubernetesVersion !== undefined) copy.kubernetesVersion = request.kubernetesVersion;
  return copy;
}

interface RunningOperation {
  entry: ClusterEntry;
  op: OperationRecord;
}
