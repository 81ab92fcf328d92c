/**
 * `ClusterBackend` over ARM with `@azure/arm-containerservice` (api-version 2026-06-01) and
 * `@azure/identity`.
 *
 * An upgrade is a short sequence of ARM long-running operations: the cluster PUT for versions
 * (ControlPlaneOnly: control plane only; Full: control plane and every pool), then, for images,
 * `upgradeNodeImageVersion` per pool still behind. One operation runs on a cluster at a time. The
 * backend follows an upgrade by reading the cluster: while it is busy the upgrade is in progress;
 * once idle, the next step still missing is started, until nothing is — so following resumes from
 * the cluster itself after any restart, and never redoes a step that is done.
 *
 * ARM throttles a subscription (reads: 250 at once, then 25 a second); the SDK waits out a 429's
 * `Retry-After` and retries. To keep reads few, `startUpgrade` reuses the engine's read of the cluster
 * made just before it, and the newest node images are read once per family per region offer, not per
 * pool per cluster read. A stopped cluster is refused (`ClusterStopped`) before anything is written.
 */
import { ContainerServiceClient, type ManagedCluster, type MaintenanceConfiguration } from "@azure/arm-containerservice";
import type { TokenCredential } from "@azure/core-auth";
import { BackendError, CLUSTER_STOPPED, clusterStoppedMessage, OPERATION_NOT_ALLOWED, type ClusterBackend, type ClusterInfo, type MemberRef, type OperationState, type RegionOffer, type StartedOperation, type UpgradeRequest } from "../../engine/backend";
import type { Clock } from "../../engine/clock";
import { compareDotted, compareImageVersions, imageFamily } from "../../model/nodeImage";
import { parseManagedClusterId, type ManagedClusterId } from "./armIds";
import { clusterInfo, isBusy } from "./convert";
import { credentialProblem } from "./credentials";
import { armError } from "./errors";

export interface AzureBackendOptions {
  credential: TokenCredential;
  /** The clock the engine runs on, for polling hints. */
  clock: Clock;
  /** ARM endpoint; default Azure public cloud. Point it at the ARM emulator in tests. */
  endpoint?: string;
  /** Extra CA certificates (PEM) to trust, e.g. the emulator's self-signed one. */
  trustedCaPem?: string;
  /** Poll every this many ms during an upgrade's first minutes (default 15 s)… */
  initialPollMs?: number;
  /** …and every this many ms after (default 60 s): about one read a minute per upgrade. */
  steadyPollMs?: number;
  /** How long the initial polling lasts (default 5 minutes). */
  initialPhaseMs?: number;
  /** SDK retry settings (the SDK retries throttling and transient failures itself). */
  maxRetries?: number;
}

/** The steps of an upgrade still missing on a cluster, in the order they run. */
type Step = { kind: "versions"; controlPlaneOnly: boolean } | { kind: "image"; pool: string; version: string };

interface Followed {
  startedAt: number;
  steps: number;
}

const MAX_STEPS = 50;

/**
 * `startUpgrade` reuses the cluster as `getCluster` read it at most this long ago (clock time) instead
 * of reading it again: the engine always reads a member's cluster just before starting it. A change in
 * between is caught by ARM (`If-Match` → 412, re-read; busy → 409).
 */
const REUSE_READ_MS = 60_000;

/** A node pool whose upgrade profile tells the newest image of its family in its region. */
interface ImageSource {
  id: ManagedClusterId;
  pool: string;
}

export class AzureBackend implements ClusterBackend {
  private readonly clients = new Map<string, ContainerServiceClient>();
  /** Latest node image per family seen in each region (from agent pool upgrade profiles). */
  private readonly latestImages = new Map<string, Map<string, string>>();
  /** Per region, per image family: the pool of that family read last (see `getRegionOffer`). */
  private readonly imageSources = new Map<string, Map<string, ImageSource>>();
  /** The cluster as `getCluster` last read it, per cluster id, for the `startUpgrade` that follows. */
  private readonly lastRead = new Map<string, { cluster: ManagedCluster; at: number }>();
  private readonly followed = new Map<string, Followed>();

  constructor(private readonly options: AzureBackendOptions) {}

  async getCluster(member: MemberRef): Promise<ClusterInfo> {
    const id = this.idOf(member);
    const readAt = this.options.clock.now();
    const cluster = await this.call(() => this.client(id).managedClusters.get(id.resourceGroup, id.name));
    const configs: MaintenanceConfiguration[] = [];
    await this.call(async () => {
      for await (const config of this.client(id).maintenanceConfigurations.listByManagedCluster(id.resourceGroup, id.name)) configs.push(config);
    });
    const info = clusterInfo(cluster, configs);
    this.noteImageSources(id, cluster, info.region);
    this.rememberRead(id, cluster, readAt);
    return info;
  }

  async getRegionOffer(region: string): Promise<RegionOffer> {
    const anyClient = this.clients.values().next().value as ContainerServiceClient | undefined;
    if (anyClient === undefined) throw new BackendError("NotReady", "no cluster has been read yet, so no subscription is known to list versions with");
    const listed = await this.call(() => anyClient.managedClusters.listKubernetesVersions(region));
    const kubernetesVersions = (listed.values ?? []).flatMap((minor) => Object.keys(minor.patchVersions ?? {})).map((version) => ({ version }));
    await this.learnLatestImages(region);
    const nodeImages = [...(this.latestImages.get(region)?.values() ?? [])].map((version) => ({ version }));
    return { kubernetesVersions, nodeImages };
  }

  async startUpgrade(member: MemberRef, request: UpgradeRequest): Promise<StartedOperation> {
    const id = this.idOf(member);
    const now = this.options.clock.now();
    const cluster = this.takeRecentRead(id, now) ?? (await this.call(() => this.client(id).managedClusters.get(id.resourceGroup, id.name)));
    checkStartable(id, cluster);
    const step = nextStep(cluster, request);
    const operationId = step === undefined ? `noop-${id.name}-${now}` : await this.run(id, cluster, request, step);
    this.followed.set(operationId, { startedAt: now, steps: 1 });
    return { operationId, checkAgainAt: this.nextPoll(now, now) };
  }

  async getOperation(member: MemberRef, operationId: string, request?: UpgradeRequest): Promise<OperationState> {
    const id = this.idOf(member);
    const now = this.options.clock.now();
    const followed = this.followed.get(operationId) ?? { startedAt: now, steps: 1 };
    this.followed.set(operationId, followed);
    const cluster = await this.call(() => this.client(id).managedClusters.get(id.resourceGroup, id.name));
    const pools = cluster.agentPoolProfiles ?? [];
    if (isBusy(cluster.provisioningState) || pools.some((p) => isBusy(p.provisioningState))) {
      return { status: "InProgress", checkAgainAt: this.nextPoll(followed.startedAt, now) };
    }
    const failedPool = pools.find((p) => p.provisioningState === "Failed");
    if (cluster.provisioningState === "Failed" || failedPool !== undefined) {
      return { status: "Failed", error: { code: "UpgradeFailed", message: `managed cluster ${id.name}${failedPool === undefined ? "" : ` (node pool ${failedPool.name})`} ended in provisioningState Failed` } };
    }
    const step = request === undefined ? undefined : nextStep(cluster, request);
    if (step === undefined) return { status: "Succeeded" };
    if (++followed.steps > MAX_STEPS) return { status: "Failed", error: { code: "UpgradeNotConverging", message: `managed cluster ${id.name} did not reach the target after ${MAX_STEPS} steps` } };
    // Stopped between two steps: the next one cannot start.
    if (cluster.powerState?.code === "Stopped") return { status: "Failed", error: { code: CLUSTER_STOPPED, message: clusterStoppedMessage(id.name) } };
    await this.run(id, cluster, request as UpgradeRequest, step);
    return { status: "InProgress", checkAgainAt: this.nextPoll(followed.startedAt, now) };
  }

  /** Start one step as an ARM long-running operation; returns its operation id. */
  private async run(id: ManagedClusterId, cluster: ManagedCluster, request: UpgradeRequest, step: Step): Promise<string> {
    const client = this.client(id);
    if (step.kind === "image") {
      const poller = client.agentPools.upgradeNodeImageVersion(id.resourceGroup, id.name, step.pool);
      return operationIdOf(poller, `${id.name}-${step.pool}`);
    }
    // Versions: PUT the whole cluster with If-Match; a concurrent change (412) is re-read and retried.
    let current = cluster;
    for (let attempt = 0; ; attempt++) {
      const body = withVersions(current, request.kubernetesVersion as string, !step.controlPlaneOnly);
      const poller = client.managedClusters.createOrUpdate(id.resourceGroup, id.name, body, current.eTag === undefined ? {} : { ifMatch: current.eTag });
      try {
        return await operationIdOf(poller, id.name);
      } catch (e) {
        const error = armError(e);
        if (attempt < 3 && (error.status === 412 || error.code === "EtagMismatch" || error.code === "PreconditionFailed")) {
          current = await this.call(() => client.managedClusters.get(id.resourceGroup, id.name));
          checkStartable(id, current);
          continue;
        }
        throw error.toBackendError();
      }
    }
  }

  /** Remember, per image family in the region, a pool of that family to read the newest image from. */
  private noteImageSources(id: ManagedClusterId, cluster: ManagedCluster, region: string): void {
    const sources = this.imageSources.get(region) ?? new Map<string, ImageSource>();
    this.imageSources.set(region, sources);
    for (const pool of cluster.agentPoolProfiles ?? []) sources.set(imageFamily(pool.nodeImageVersion ?? ""), { id, pool: pool.name });
  }

  /**
   * Record the newest image per family in the region, from the upgrade profile of one pool per family
   * (the one read last): one read per family each time the engine reads the region's offer (once per
   * reconcile pass), not one per pool every time a cluster is read. A source gone meanwhile (404) is
   * dropped; what was learned from it stays.
   */
  private async learnLatestImages(region: string): Promise<void> {
    const known = this.latestImages.get(region) ?? new Map<string, string>();
    this.latestImages.set(region, known);
    const sources = this.imageSources.get(region) ?? new Map<string, ImageSource>();
    for (const [key, { id, pool }] of [...sources]) {
      let latest: string | undefined;
      try {
        latest = (await this.call(() => this.client(id).agentPools.getUpgradeProfile(id.resourceGroup, id.name, pool))).latestNodeImageVersion;
      } catch (e) {
        if (e instanceof BackendError && (e.code === "NotFound" || e.code === "ResourceNotFound")) {
          sources.delete(key);
          continue;
        }
        throw e;
      }
      if (latest === undefined) continue;
      const family = imageFamily(latest);
      const seen = known.get(family);
      if (seen === undefined || compareImageVersions(latest, seen) > 0) known.set(family, latest);
    }
  }

  /** Keep the read for `takeRecentRead`; reads older than `REUSE_READ_MS` are dropped (oldest first). */
  private rememberRead(id: ManagedClusterId, cluster: ManagedCluster, at: number): void {
    const key = readKey(id);
    this.lastRead.delete(key);
    this.lastRead.set(key, { cluster, at });
    for (const [oldKey, read] of this.lastRead) {
      if (at - read.at <= REUSE_READ_MS) break;
      this.lastRead.delete(oldKey);
    }
  }

  /** The cluster as `getCluster` read it moments ago, once. */
  private takeRecentRead(id: ManagedClusterId, now: number): ManagedCluster | undefined {
    const key = readKey(id);
    const read = this.lastRead.get(key);
    this.lastRead.delete(key);
    return read !== undefined && now - read.at <= REUSE_READ_MS ? read.cluster : undefined;
  }

  private nextPoll(startedAt: number, now: number): number {
    const initial = this.options.initialPollMs ?? 15_000;
    const steady = this.options.steadyPollMs ?? 60_000;
    return now + (now - startedAt < (this.options.initialPhaseMs ?? 5 * 60_000) ? initial : steady);
  }

  private idOf(member: MemberRef): ManagedClusterId {
    if (member.clusterResourceId === undefined) throw new BackendError("InvalidParameter", `member '${member.name}' has no clusterResourceId, which the Azure backend needs`);
    return parseManagedClusterId(member.clusterResourceId);
  }

  private client(id: ManagedClusterId): ContainerServiceClient {
    let client = this.clients.get(id.subscriptionId);
    if (client === undefined) {
      client = new ContainerServiceClient(this.options.credential, id.subscriptionId, {
        ...(this.options.endpoint === undefined ? {} : { endpoint: this.options.endpoint }),
        ...(this.options.trustedCaPem === undefined ? {} : { tlsOptions: { ca: this.options.trustedCaPem } }),
        retryOptions: { maxRetries: this.options.maxRetries ?? 6 },
      });
      this.clients.set(id.subscriptionId, client);
    }
    return client;
  }

  /** ARM errors as BackendErrors (409 OperationNotAllowed stays recognizable to the engine). */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (e) {
      throw credentialProblem(e) ?? armError(e).toBackendError();
    }
  }
}

function readKey(id: ManagedClusterId): string {
  return `${id.subscriptionId}/${id.resourceGroup}/${id.name}`.toLowerCase();
}

/**
 * Before any write: a stopped cluster cannot be upgraded (AKS refuses every operation but start), so
 * say that plainly; a busy one is waited for (409 `OperationNotAllowed`, the engine's Pending).
 */
function checkStartable(id: ManagedClusterId, cluster: ManagedCluster): void {
  if (cluster.powerState?.code === "Stopped") {
    throw new BackendError(CLUSTER_STOPPED, clusterStoppedMessage(id.name));
  }
  if (isBusy(cluster.provisioningState)) throw new BackendError(OPERATION_NOT_ALLOWED, `managed cluster ${id.name} is ${cluster.provisioningState}; waiting for that operation to end`);
}

/** What is still missing on `cluster` for `request`, first step first; undefined = done. */
export function nextStep(cluster: ManagedCluster, request: UpgradeRequest): Step | undefined {
  const target = request.kubernetesVersion;
  const pools = cluster.agentPoolProfiles ?? [];
  if (target !== undefined) {
    const controlPlane = cluster.currentKubernetesVersion ?? cluster.kubernetesVersion ?? "0.0.0";
    const controlPlaneBehind = compareDotted(controlPlane, target) < 0;
    const poolsBehind = request.type === "Full" && pools.some((p) => compareDotted(p.currentOrchestratorVersion ?? p.orchestratorVersion ?? "0.0.0", target) < 0);
    if (controlPlaneBehind || poolsBehind) return { kind: "versions", controlPlaneOnly: request.type === "ControlPlaneOnly" };
  }
  for (const pool of pools) {
    const wanted = request.nodeImageVersions[pool.name];
    if (wanted !== undefined && compareImageVersions(pool.nodeImageVersion ?? "", wanted) < 0) return { kind: "image", pool: pool.name, version: wanted };
  }
  return undefined;
}

/** The cluster as read, with the target version on the control plane (and, for Full, every pool). */
function withVersions(cluster: ManagedCluster, version: string, pools: boolean): ManagedCluster {
  return {
    ...cluster,
    kubernetesVersion: version,
    ...(pools ? { agentPoolProfiles: (cluster.agentPoolProfiles ?? []).map((p) => ({ ...p, orchestratorVersion: version })) } : {}),
  };
}

/** Wait until ARM accepted the operation, and name it by the last segment of its status URL. */
async function operationIdOf(poller: { submitted(): Promise<void>; serialize(): Promise<string> }, fallback: string): Promise<string> {
  await poller.submitted();
  const serialized = await poller.serialize();
  const location = /"operationLocation":"([^"]+)"/.exec(serialized)?.[1];
  if (location === undefined) return fallback;
  const path = location.split("?")[0] as string;
  return path.slice(path.lastIndexOf("/") + 1) || fallback;
}
