/**
 * A simulated cluster as ARM shows it: the simulated fleet's state (settled at the instant of the
 * request) plus what ARM derives from it — the upgrade running now and how far it got (`progress.ts`),
 * a failed or aborted last upgrade, an operation started outside the fleet, deletions and aborts
 * (`lifecycle.ts`), tags. Read-only: every change goes through `SimulatedFleet` or `Lifecycle`. Also
 * which cluster a route addresses, checked against the scope served (`viewCluster`).
 */
import { ownValue } from "../../model/values";
import type { Clock } from "../../engine/clock";
import type { Fleet, Region, SimulatedCluster } from "../../model/fleet";
import type { SimulatedFleet } from "../../backends/simulator";
import { runningOperation, type ClusterState, type OperationRecord } from "../../backends/simulator/fleetState";
import { armCall, ArmError, resourceNotFound } from "../core/armErrors";
import { checkSubscription, findMember, MANAGED_CLUSTERS } from "../core/context";
import type { ArmLifecycle, ArmRequest, ArmScope, EmulatorContext, LifecycleOperation } from "../ports";
import { progressAt, type Progress } from "./progress";

export interface ClusterView {
  name: string;
  description: SimulatedCluster;
  region: Region;
  /** The cluster's region, ARM's `location`. */
  location: string;
  /** What the cluster shows now: mid-upgrade, the parts moved so far; deleted pools left out. */
  state: ClusterState;
  /** The upgrade running now, and how far it got. */
  running?: OperationRecord;
  progress?: Progress;
  /** The latest upgrade, when it failed (the cluster stays `Failed` until the next one). */
  failed?: OperationRecord;
  /** The latest upgrade, when it was aborted (`Canceled` until the next one). */
  canceled?: OperationRecord;
  /** An abort whose cancellation is still under way (`Canceling`). */
  canceling?: LifecycleOperation;
  /** The cluster's deletion, under way (`Deleting`). */
  deleting?: LifecycleOperation;
  /** Pools being deleted (`Deleting`). */
  deletingPools: Set<string>;
  /** Pools an agent pool PUT is updating (`Updating`, or `Stopping` / `Starting`), by name. */
  updatingPools: Map<string, LifecycleOperation>;
  /** Pools stopped or started through an agent pool PUT: their `powerState.code` (else the cluster's). */
  poolPower: Map<string, "Running" | "Stopped">;
  /** The `major.minor` alias `kubernetesVersion` was written as, if it was (AKS keeps showing it). */
  versionAlias?: string;
  /** An operation started outside the fleet (`simulation.busyUntil`) is running. */
  busyElsewhere: boolean;
  tags: Record<string, string>;
  /** Simulated instant the view was taken at. */
  now: number;
}

/** What reading a cluster needs from the emulator. */
export interface ViewSource {
  sim: SimulatedFleet;
  fleet: Fleet;
  clock: Clock;
  lifecycle: ArmLifecycle;
}

/** Whether the cluster's deletion has finished: it no longer exists. */
export function isDeleted(source: ViewSource, name: string): boolean {
  const deletion = source.lifecycle.deletion(name);
  return deletion !== undefined && source.clock.now() >= deletion.endAt;
}

export async function readCluster(source: ViewSource, description: SimulatedCluster): Promise<ClusterView> {
  const { sim, fleet, clock, lifecycle } = source;
  const name = description.name;
  // getCluster settles the operations that have ended, so toState() below is current.
  const info = await armCall(() => sim.getCluster({ name }));
  const settled = ownValue(sim.toState().clusters, name);
  const region = ownValue(fleet.regions, description.region);
  if (settled === undefined || region === undefined) throw new Error(`simulated fleet has no state for '${name}'`);
  const now = clock.now();
  const running = runningOperation(settled);
  const progress = running === undefined ? undefined : progressAt(settled, running, now);
  const poolDeletions = lifecycle.poolDeletions(name);
  const deleted = new Set(poolDeletions.filter((d) => now >= d.endAt).map((d) => d.pool as string));
  const state: ClusterState = {
    ...settled,
    kubernetesVersion: progress?.kubernetesVersion ?? settled.kubernetesVersion,
    nodePools: (progress?.nodePools ?? settled.nodePools).filter((pool) => !deleted.has(pool.name)),
  };
  const last = settled.operations.at(-1);
  const abort = lifecycle.abort(name);
  const deletion = lifecycle.deletion(name);
  const view: ClusterView = {
    name,
    description,
    region,
    location: description.region,
    state,
    deletingPools: new Set(poolDeletions.filter((d) => now < d.endAt).map((d) => d.pool as string)),
    updatingPools: new Map(lifecycle.poolUpdates(name).filter((u) => now < u.endAt).map((u) => [u.pool as string, u])),
    poolPower: poolPowers(lifecycle.poolUpdates(name)),
    busyElsewhere: info.activeOperation !== undefined && info.activeOperation.operationId === undefined,
    tags: lifecycle.tags(name),
    now,
  };
  const alias = lifecycle.versionAlias(name);
  if (alias !== undefined) view.versionAlias = alias;
  if (running !== undefined) view.running = running;
  if (progress !== undefined) view.progress = progress;
  if (running === undefined && last?.result === "Failed") view.failed = last;
  if (running === undefined && last?.result === "Canceled") view.canceled = last;
  if (abort !== undefined && now < abort.endAt) view.canceling = abort;
  if (deletion !== undefined && now < deletion.endAt) view.deleting = deletion;
  return view;
}

/** Whether an operation, running or ended, touches `pool` (Full and NodeImageOnly do; ControlPlaneOnly never). */
export function touchesPool(op: OperationRecord, pool: string): boolean {
  if (op.request.type === "Full") return true;
  if (op.request.type === "NodeImageOnly") return Object.hasOwn(op.request.nodeImageVersions, pool);
  return false;
}

/** Something is in flight on the cluster: writes are refused (409), as AKS does. */
export function isBusy(view: ClusterView): boolean {
  return view.running !== undefined || view.busyElsewhere || view.canceling !== undefined || view.deleting !== undefined || view.deletingPools.size > 0 || view.updatingPools.size > 0;
}

/** Each pool's power as its latest stop or start left it (from that operation's start, as AKS shows it). */
function poolPowers(updates: readonly LifecycleOperation[]): Map<string, "Running" | "Stopped"> {
  const out = new Map<string, "Running" | "Stopped">();
  for (const u of updates) if (u.power !== undefined) out.set(u.pool as string, u.power);
  return out;
}

/**
 * The member a cluster route names, checked against the configured scope and, when the member
 * declares a `clusterResourceId`, against that id's subscription and resource group.
 */
export function resolveMember(ctx: EmulatorContext, request: ArmRequest): { member: SimulatedCluster; scope: ArmScope } {
  const subscriptionId = request.params.subscriptionId ?? "";
  const resourceGroup = request.params.resourceGroup ?? "";
  const name = request.params.cluster ?? "";
  checkSubscription(ctx, subscriptionId);
  if (ctx.resourceGroup !== undefined && ctx.resourceGroup.toLowerCase() !== resourceGroup.toLowerCase()) {
    throw new ArmError(404, "ResourceGroupNotFound", `Resource group '${resourceGroup}' could not be found.`);
  }
  const member = findMember(ctx.fleet, name);
  if (member === undefined || !declaredIn(member, subscriptionId, resourceGroup) || isDeleted(ctx, member.name)) throw resourceNotFound(MANAGED_CLUSTERS, name, resourceGroup);
  return { member, scope: { subscriptionId, resourceGroup } };
}

function declaredIn(member: SimulatedCluster, subscriptionId: string, resourceGroup: string): boolean {
  if (member.clusterResourceId === undefined) return true;
  const [, , sub = "", , rg = ""] = member.clusterResourceId.split("/");
  return sub.toLowerCase() === subscriptionId.toLowerCase() && rg.toLowerCase() === resourceGroup.toLowerCase();
}

/** The addressed cluster as ARM shows it now. */
export async function viewCluster(ctx: EmulatorContext, request: ArmRequest): Promise<{ view: ClusterView; scope: ArmScope }> {
  const { member, scope } = resolveMember(ctx, request);
  return { view: await readCluster(ctx, member), scope };
}
