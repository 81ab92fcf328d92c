/**
 * `ClusterBackend` over ARM with `@azure/arm-containerservice` (api-version 2026-06-01) and
 * `@azure/identity`.
 *
 * An upgrade is a short sequence of ARM long-running operations (`steps.ts`): the cluster PUT for
 * versions (ControlPlaneOnly: control plane only; Full: control plane and every pool), then, for
 * images, `upgradeNodeImageVersion` per pool still behind. One operation runs on a cluster at a time.
 * The backend follows an upgrade by reading the cluster: while it is busy the upgrade is in progress;
 * once idle, the next step still missing is started, until nothing is — so following resumes from the
 * cluster itself after any restart, and never redoes a step that is done.
 *
 * A write whose answer is lost (the connection drops after ARM applied it) is not simply sent again:
 * the cluster is read first, and a step found under way, done or ended is followed, not repeated
 * (`stepWriter.ts`).
 *
 * Issue 30: a member's times are its operations' as ARM recorded them (docs/rules.md §20): its start is
 * its first step's `startTime`, read from the operation's status (the `Azure-AsyncOperation` URL,
 * `operationStatus.ts`) once started; its end, its last step's `endTime`. Every answer's `Date` and
 * every such instant is handed to `armClock`, the clock the run's own instants are taken on.
 *
 * ARM throttles a subscription (reads: 250 at once, then 25 a second); the SDK waits out a 429's
 * `Retry-After` and retries. To keep reads few, `startUpgrade` reuses the engine's read of the cluster
 * made just before it, and a region's offer is read once per reconcile pass (`regionOffers.ts`). A
 * stopped cluster is refused (`ClusterStopped`) before anything is written.
 */
import { ContainerServiceClient, type ManagedCluster, type MaintenanceConfiguration } from "@azure/arm-containerservice";
import type { TokenCredential } from "@azure/core-auth";
import { BackendError, CLUSTER_STOPPED, clusterStoppedMessage, OPERATION_NOT_ALLOWED, type ClusterBackend, type ClusterInfo, type MemberRef, type OperationState, type RegionOffer, type StartedOperation, type UpgradeRequest } from "../../engine/backend";
import type { Clock } from "../../engine/clock";
import { parseManagedClusterId, type ManagedClusterId } from "./armIds";
import { clusterBusy, clusterInfo, isBusy } from "./convert";
import { credentialProblem } from "./credentials";
import { armError } from "./errors";
import { AZURE_PUBLIC_CLOUD, RegionOffers } from "./regionOffers";
import { goalNames, nextStep, stepName, type Step } from "./steps";
import { writeStep } from "./stepWriter";
import { armClockPolicy, OperationStatuses } from "./operationStatus";


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
  /** SDK retry settings for reads (the SDK retries throttling and transient failures itself). */
  maxRetries?: number;
  /**
   * The run's Custom node image versions. ARM moves images only to the newest, so each counts as
   * offered in a region whose newest image of its family is at or past it (`regionOffers.ts`);
   * without it, a Custom version older than the region's newest is never offered.
   */
  customNodeImageVersions?: readonly string[];
  /** Real ms before the first retry of a 5xx or a dropped connection (default 1 s), doubling up to `maxRetryDelayInMs` (default 64 s). */
  retryDelayInMs?: number;
  maxRetryDelayInMs?: number;
  /**
   * Issue 30: told each instant ARM's answers show its clock reached — the `Date` of every answer, an
   * operation's recorded start and end (`ServerClock.reached`).
   */
  armClock?: { reached(instant: number): void };
}

/** An aborted upgrade (`provisioningState` Canceled, ARM's abort) fails its member with this code. */
export const UPGRADE_ABORTED = "UpgradeAborted";

interface Followed {
  startedAt: number;
  steps: number;
  /**
   * The operation of the step started last, when this process knows it is the last one there was
   * (it started the upgrade, or saw every step since): its `endTime` is the member's end.
   */
  lastStep: string | undefined;
}

const MAX_STEPS = 50;

/**
 * `startUpgrade` reuses the cluster as `getCluster` read it at most this long ago (clock time) instead
 * of reading it again: the engine always reads a member's cluster just before starting it. A change in
 * between is caught by ARM (`If-Match` → 412, re-read; busy → 409).
 */
const REUSE_READ_MS = 60_000;
/** Two reads this close together on the backend's clock would see the same cluster. */
const SAME_INSTANT_MS = 5_000;

export class AzureBackend implements ClusterBackend {
  private readonly clients = new Map<string, ContainerServiceClient>();
  private readonly writeClients = new Map<string, ContainerServiceClient>();
  private readonly offers: RegionOffers;
  private readonly operations: OperationStatuses;
  /** The cluster as `getCluster` last read it, per cluster id, for the `startUpgrade` that follows. */
  private readonly lastRead = new Map<string, { cluster: ManagedCluster; at: number }>();
  private readonly followed = new Map<string, Followed>();

  constructor(private readonly options: AzureBackendOptions) {
    const source = {
      anyClient: () => {
        const first = this.clients.entries().next().value as [string, ContainerServiceClient] | undefined;
        return first === undefined ? undefined : { subscriptionId: first[0], client: first[1] };
      },
      clientOf: (id: ManagedClusterId) => this.client(id),
      call: <T>(request: () => Promise<T>) => this.call(request),
      endpoint: (options.endpoint ?? AZURE_PUBLIC_CLOUD).replace(/\/+$/, ""),
    };
    this.offers = new RegionOffers(source, options.customNodeImageVersions);
    this.operations = new OperationStatuses({ ...source, ...(options.armClock === undefined ? {} : { reached: (instant: number) => options.armClock?.reached(instant) }) });
  }

  async getCluster(member: MemberRef): Promise<ClusterInfo> {
    const id = this.idOf(member);
    const readAt = this.options.clock.now();
    const cluster = this.readAtThisInstant(id, readAt) ?? (await this.read(id));
    const configs: MaintenanceConfiguration[] = [];
    await this.call(async () => {
      for await (const config of this.client(id).maintenanceConfigurations.listByManagedCluster(id.resourceGroup, id.name)) configs.push(config);
    });
    const info = clusterInfo(cluster, configs);
    this.offers.noteCluster(id, cluster, info.region);
    this.rememberRead(id, cluster, readAt);
    return info;
  }

  /** One read of `member`'s cluster, for ARM's clock (`armClock`): any answer will do, a refusal too. */
  async syncClock(member: MemberRef): Promise<void> {
    try {
      await this.read(this.idOf(member));
    } catch {
      // The answer's `Date` was seen all the same; what is wrong with the cluster, the run says when it gets there.
    }
  }

  getRegionOffer(region: string): Promise<RegionOffer> {
    return this.offers.offer(region);
  }

  async startUpgrade(member: MemberRef, request: UpgradeRequest): Promise<StartedOperation> {
    const id = this.idOf(member);
    const now = this.options.clock.now();
    const cluster = this.takeRecentRead(id, now) ?? (await this.read(id));
    checkStartable(id, cluster);
    const step = nextStep(cluster, request);
    const operationId = step === undefined ? `noop-${id.name}-${now}` : await this.run(id, cluster, request, step);
    this.followed.set(operationId, { startedAt: now, steps: 1, lastStep: operationId });
    // ARM's record of the start is read when the upgrade ends (`endOf`): a start costs no read more.
    return { operationId, checkAgainAt: this.nextPoll(now, now) };
  }

  async getOperation(member: MemberRef, operationId: string, request?: UpgradeRequest): Promise<OperationState> {
    const id = this.idOf(member);
    const now = this.options.clock.now();
    // Not followed by this process (it resumed the run): the member's operation is its last step only if it has no other.
    const followed = this.followed.get(operationId) ?? { startedAt: now, steps: 1, lastStep: request !== undefined && singleStep(request) ? operationId : undefined };
    this.followed.set(operationId, followed);
    const inProgress: OperationState = { status: "InProgress", checkAgainAt: this.nextPoll(followed.startedAt, now) };
    const cluster = await this.read(id);
    const pools = cluster.agentPoolProfiles ?? [];
    // Done is judged from the operation's state, never from the versions: AKS shows the target as current
    // from the start, and keeps the cluster Succeeded while a pool is re-imaged (docs/behaviour.md).
    if (clusterBusy(cluster)) return inProgress;
    const failedPool = pools.find((p) => p.provisioningState === "Failed");
    if (cluster.provisioningState === "Failed" || failedPool !== undefined) {
      return { status: "Failed", error: { code: "UpgradeFailed", message: `managed cluster ${id.name}${failedPool === undefined ? "" : ` (node pool ${failedPool.name})`} ended in provisioningState Failed` }, ...(await this.endOf(id, cluster, operationId, followed)) };
    }
    const step = request === undefined ? undefined : nextStep(cluster, request);
    if (step === undefined) {
      // The engine reads the cluster next to check the member's health: this read is that fresh.
      this.rememberRead(id, cluster, now);
      return { status: "Succeeded", ...(await this.endOf(id, cluster, operationId, followed)) };
    }
    const canceled = abortedUpgrade(id, cluster);
    if (canceled !== undefined) return { status: "Failed", error: canceled };
    if (++followed.steps > MAX_STEPS) return { status: "Failed", error: { code: "UpgradeNotConverging", message: `managed cluster ${id.name} did not reach the target after ${MAX_STEPS} steps` } };
    // Stopped between two steps: the next one cannot start.
    if (cluster.powerState?.code === "Stopped") return { status: "Failed", error: { code: CLUSTER_STOPPED, message: clusterStoppedMessage(id.name) } };
    try {
      followed.lastStep = await this.run(id, cluster, request as UpgradeRequest, step);
    } catch (e) {
      if (!(e instanceof BackendError)) throw e;
      // Someone else's operation got in between two steps: wait for it, then go on.
      if (e.code === OPERATION_NOT_ALLOWED) return inProgress;
      return { status: "Failed", error: { code: e.code, message: e.message } };
    }
    return inProgress;
  }

  /**
   * The intent was recorded only when the cluster was behind the request, so a cluster now busy with
   * one of the request's steps, failed toward its target, or no longer missing anything shows that the
   * request reached ARM. Idle with a step still missing, it did not (or only its first steps did, and
   * starting again sends only what is missing: `nextStep` reads the cluster). ARM keeps no list of a
   * cluster's operations at this api-version, so an adopted one goes by its step's name (`stepName`).
   */
  async findStartedUpgrade(member: MemberRef, request: UpgradeRequest, since: number): Promise<StartedOperation | undefined> {
    const id = this.idOf(member);
    const now = this.options.clock.now();
    const cluster = await this.read(id);
    const step = startedStep(cluster, request);
    if (step === undefined) return undefined;
    const operationId = stepName(id.name, step);
    // Its steps before this one (if any) are not known: its end is when it is seen to end.
    this.followed.set(operationId, { startedAt: since, steps: 1, lastStep: undefined });
    return { operationId, checkAgainAt: now };
  }

  /**
   * When the member's upgrade began and ended, as ARM recorded them (docs/rules.md §20): the start of
   * its first step (the member's operation), the end of its last, when that step is known. An end with
   * no record (an operation adopted under its step's name) is the instant ARM's answer showed it, on
   * ARM's clock as its answers tell it; a start with none is left out (the engine keeps the instant it asked).
   */
  private async endOf(id: ManagedClusterId, cluster: ManagedCluster, operationId: string, followed: Followed): Promise<{ startedAt?: number; endedAt: number }> {
    const last = followed.lastStep === undefined ? undefined : await this.operations.status(id, cluster.location, followed.lastStep);
    const first = followed.lastStep === operationId ? last : await this.operations.status(id, cluster.location, operationId);
    return { ...(first?.startedAt === undefined ? {} : { startedAt: first.startedAt }), endedAt: last?.endedAt ?? this.options.clock.now() };
  }

  /** Start one step as an ARM long-running operation, applied once (`stepWriter.ts`); returns its operation id. */
  private run(id: ManagedClusterId, cluster: ManagedCluster, request: UpgradeRequest, step: Step): Promise<string> {
    return writeStep(
      {
        writeClient: (target) => this.client(target, "writes"),
        read: (target) => this.read(target),
        checkStartable,
        pauseMs: (attempt) => Math.min(this.options.maxRetryDelayInMs ?? 64_000, (this.options.retryDelayInMs ?? 1_000) * 2 ** (attempt - 2)),
      },
      id,
      cluster,
      request,
      step,
    );
  }

  private read(id: ManagedClusterId): Promise<ManagedCluster> {
    return this.call(() => this.client(id).managedClusters.get(id.resourceGroup, id.name));
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

  /** A read made moments ago (following an operation to its end): as fresh as a new one. */
  private readAtThisInstant(id: ManagedClusterId, now: number): ManagedCluster | undefined {
    const read = this.lastRead.get(readKey(id));
    return read !== undefined && now - read.at <= SAME_INSTANT_MS ? read.cluster : undefined;
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

  /**
   * The client for a subscription. Reads retry throttling and transient failures in the SDK; writes
   * do not (their client has no retries): a write is only sent again after a read of the cluster.
   */
  private client(id: ManagedClusterId, use: "reads" | "writes" = "reads"): ContainerServiceClient {
    const clients = use === "reads" ? this.clients : this.writeClients;
    let client = clients.get(id.subscriptionId);
    if (client === undefined) {
      const { maxRetries = 6, retryDelayInMs, maxRetryDelayInMs } = this.options;
      client = new ContainerServiceClient(this.options.credential, id.subscriptionId, {
        ...(this.options.endpoint === undefined ? {} : { endpoint: this.options.endpoint }),
        ...(this.options.trustedCaPem === undefined ? {} : { tlsOptions: { ca: this.options.trustedCaPem } }),
        ...(this.options.armClock === undefined ? {} : { additionalPolicies: [{ policy: armClockPolicy((instant) => this.options.armClock?.reached(instant)), position: "perRetry" as const }] }),
        retryOptions: {
          maxRetries: use === "reads" ? maxRetries : 0,
          ...(retryDelayInMs === undefined ? {} : { retryDelayInMs }),
          ...(maxRetryDelayInMs === undefined ? {} : { maxRetryDelayInMs }),
        },
      });
      clients.set(id.subscriptionId, client);
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

/** Whether `request` takes one ARM operation at most: the versions alone (a Full upgrade moves the images with them), or one pool's image. */
function singleStep(request: UpgradeRequest): boolean {
  const images = Object.keys(request.nodeImageVersions).length;
  return request.kubernetesVersion === undefined ? images <= 1 : request.type === "Full" || images === 0;
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
  const busyPool = (cluster.agentPoolProfiles ?? []).find((p) => isBusy(p.provisioningState));
  if (busyPool !== undefined) throw new BackendError(OPERATION_NOT_ALLOWED, `node pool ${busyPool.name} of managed cluster ${id.name} is ${busyPool.provisioningState}; waiting for that operation to end`);
}

/** The step of `request` that `cluster` shows started (under way, done, or failed), if any (`findStartedUpgrade`). */
function startedStep(cluster: ManagedCluster, request: UpgradeRequest): Step | undefined {
  const pools = cluster.agentPoolProfiles ?? [];
  const target = request.kubernetesVersion;
  const versions: Step = { kind: "versions", controlPlaneOnly: request.type === "ControlPlaneOnly" };
  const towardTarget = target !== undefined && goalNames(cluster.kubernetesVersion, target) && (request.type !== "Full" || pools.every((p) => goalNames(p.orchestratorVersion, target)));
  if (towardTarget && (isBusy(cluster.provisioningState) || cluster.provisioningState === "Failed")) return versions;
  const pool = pools.find((p) => Object.hasOwn(request.nodeImageVersions, p.name ?? "") && (p.provisioningState === "UpgradingNodeImageVersion" || p.provisioningState === "Failed"));
  if (pool !== undefined) return { kind: "image", pool: pool.name as string, version: request.nodeImageVersions[pool.name as string] as string };
  const busy = isBusy(cluster.provisioningState) || pools.some((p) => isBusy(p.provisioningState));
  return !busy && nextStep(cluster, request) === undefined ? (target === undefined ? firstImageStep(request) : versions) : undefined;
}

function firstImageStep(request: UpgradeRequest): Step | undefined {
  const [pool, version] = Object.entries(request.nodeImageVersions)[0] ?? [];
  return pool === undefined ? undefined : { kind: "image", pool, version: version as string };
}

/**
 * An upgrade step aborted from outside (ARM's abort: `provisioningState` Canceled on the cluster or a
 * pool) before the cluster reached the target: the member fails, saying so; starting the run again
 * retries it from where the cluster is.
 */
function abortedUpgrade(id: ManagedClusterId, cluster: ManagedCluster): { code: string; message: string } | undefined {
  const pool = (cluster.agentPoolProfiles ?? []).find((p) => p.provisioningState === "Canceled");
  if (cluster.provisioningState !== "Canceled" && pool === undefined) return undefined;
  // A whole-cluster upgrade aborted: the cluster says so; a node image upgrade: its pool does.
  const where = cluster.provisioningState === "Canceled" || pool === undefined ? "" : ` (node pool ${pool.name})`;
  return {
    code: UPGRADE_ABORTED,
    message: `the upgrade of managed cluster ${id.name}${where} was aborted outside this run (provisioningState Canceled) before the cluster reached the target; start the run again to retry it from where the cluster is`,
  };
}
