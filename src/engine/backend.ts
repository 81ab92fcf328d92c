/**
 * The engine's only window on clusters. Implemented by the simulated fleet
 * (`src/backends/simulator/`) and by ARM (`src/backends/azure/`). Instants are epoch milliseconds.
 */
import type { MaintenanceConfigurations } from "../model/maintenanceWindow";
import type { UpgradeType } from "../model/update";
import type { PrometheusProvider } from "../model/analysis";

/** Which cluster: the member's name and, for real backends, its ARM id. */
export interface MemberRef {
  name: string;
  clusterResourceId?: string;
}

export interface NodePoolInfo {
  name: string;
  orchestratorVersion: string;
  nodeImageVersion: string;
}

export interface ClusterInfo {
  region: string;
  /** Control plane version. */
  kubernetesVersion: string;
  nodePools: NodePoolInfo[];
  maintenanceConfigurations?: MaintenanceConfigurations;
  /** AKS `powerState.code`, when the backend reports it: a Stopped cluster refuses upgrades. */
  powerState?: "Running" | "Stopped";
  /**
   * AKS's own automatic upgrades of the cluster (`autoUpgradeProfile`), when set: a cluster that
   * upgrades itself conflicts with a staged run (`plan`'s CLUSTER_AUTO_UPGRADES).
   */
  autoUpgrade?: { upgradeChannel?: string; nodeOSUpgradeChannel?: string };
  /** ARM's `provisioningState` (Succeeded, Upgrading, Failed, ...), when the backend reports it. */
  provisioningState?: string;
  /**
   * The versions above may be the target of the operation in flight rather than what runs: AKS reports
   * `currentKubernetesVersion` / `currentOrchestratorVersion` at the target from an upgrade's start. The
   * engine then never judges the cluster at its target before that operation ends (docs/behaviour.md).
   */
  versionsUnsettled?: true;
  /** An operation already running on the cluster, whoever started it. The engine never starts another. */
  activeOperation?: {
    operationId?: string;
    /** When it is expected to end, if known: the engine looks again then. */
    expectedEndAt?: number;
  };
}

/** A version a region offers; `availableAt` absent = available now. */
export interface OfferedVersion {
  version: string;
  availableAt?: number;
  /** AKS offers it as a preview: no auto-upgrade channel picks it (docs/rules.md §18). */
  isPreview?: true;
}

export interface RegionOffer {
  kubernetesVersions: OfferedVersion[];
  nodeImages: OfferedVersion[];
}

/** What to do to one cluster, fully resolved by the engine. */
export interface UpgradeRequest {
  type: UpgradeType;
  /** Target control plane (and, for Full, node pool) version. Absent for NodeImageOnly. */
  kubernetesVersion?: string;
  /** Node pool name → node image version to apply. Pools not listed keep their image. */
  nodeImageVersions: Record<string, string>;
  /**
   * `Latest` selection: the images named are the newest when the member's upgrade starts, and a pool
   * the upgrade re-images later takes the newest image of its family then (docs/behaviour.md). ARM
   * does so by itself; the simulated fleet applies it when this is set.
   */
  latestNodeImages?: boolean;
}

export interface StartedOperation {
  operationId: string;
  /** When the engine should look at the operation again (a hint; the engine may look earlier). */
  checkAgainAt?: number;
  /**
   * When the operation began, as the backend's own record of it says (ARM's operation status
   * `startTime`): the member's start (docs/rules.md §20). Absent: the backend keeps no record the
   * engine can read, and the member starts at the instant the engine asked.
   */
  startedAt?: number;
}

export type OperationStatus = "InProgress" | "Succeeded" | "Failed";

export interface OperationState {
  status: OperationStatus;
  error?: { code: string; message: string };
  /** When `InProgress`: when to look again. */
  checkAgainAt?: number;
  /**
   * Once it ended: when the upgrade began and ended, as the backend's own records say (ARM's
   * operation status `startTime` of its first step, `endTime` of its last): the member's times
   * (docs/rules.md §20). Absent: no such record, and the member ends at the instant the engine saw it end.
   */
  startedAt?: number;
  endedAt?: number;
}

/**
 * A backend call's answer: a promise, or — for a backend that answers at once, as the simulated fleet
 * does — the value itself. The engine awaits only real promises (`isPending`): an `await` costs a
 * promise and a microtask turn even on a plain value, and a run makes about five calls a member
 * (issue 13: 100,000 members). Such a backend reports an error by throwing it.
 */
export type Answer<T> = T | Promise<T>;

/** Whether `answer` is still to come (a thenable); otherwise it is the value. */
export function isPending<T>(answer: Answer<T>): answer is Promise<T> {
  return typeof (answer as { then?: unknown } | null)?.then === "function";
}

export interface ClusterBackend {
  getCluster(member: MemberRef): Answer<ClusterInfo>;
  getRegionOffer(region: string): Answer<RegionOffer>;
  /**
   * Start an upgrade. Throws `BackendError` with code `OperationNotAllowed` when the cluster already
   * has an operation running (ARM's 409), or another code when the request breaks an AKS rule.
   */
  startUpgrade(member: MemberRef, request: UpgradeRequest): Answer<StartedOperation>;
  /**
   * The state of an upgrade this engine started. `request` is what was asked for, so a backend whose
   * upgrade takes several steps can resume following it after a restart.
   */
  getOperation(member: MemberRef, operationId: string, request?: UpgradeRequest): Answer<OperationState>;
  /**
   * The upgrade `request` that an earlier process asked for at `since` and died before it recorded
   * the answer (its write-ahead intent, `MemberRunState.startRequestedAt`): the operation, running or
   * ended, when the request reached the cluster; undefined when it never did. The engine adopts a
   * found operation (docs/behaviour.md, "Adopting an interrupted start"), so it holds its concurrency
   * slot and is followed under its own id instead of being raced or started again.
   */
  findStartedUpgrade(member: MemberRef, request: UpgradeRequest, since: number): Answer<StartedOperation | undefined>;
  /**
   * Issue 5: answer a member's health probe, for backends that simulate one. Real backends leave it
   * out; the runtime then probes the URL over HTTP (`EngineOptions.probe`).
   */
  probe?(member: MemberRef, url: string, options?: ProbeOptions): Answer<ProbeResult>;
  /**
   * Issue 31: answer a Prometheus query, for backends that simulate metrics (the simulated fleet's
   * declared metrics, evaluated on its clock). Real backends leave it out; the runtime then asks the
   * Prometheus server (`EngineOptions.queryMetric`).
   */
  queryMetric?(query: MetricQuery): Answer<MetricAnswer>;
}

/** Issue 31: a web analysis's headers (values secret) and timeout. */
export interface ProbeOptions {
  headers?: ReadonlyArray<{ key: string; value: string }>;
  timeoutSeconds?: number;
}

/** One health probe's answer: `detail` says what was seen ("GET https://… answered 503"). */
export interface ProbeResult {
  ok: boolean;
  detail: string;
  /** The HTTP status, when there was an answer (issue 31: the measurement's value). */
  status?: number;
}

/** A Prometheus query as a port sends it (issue 31): the provider, with the query rendered for one member. */
export interface MetricQuery {
  provider: PrometheusProvider;
  /** The PromQL to send (placeholders filled in). */
  query: string;
  /** The member it is for, when the query names one. */
  member?: MemberRef;
  /**
   * Evaluate at this past instant (ms) instead of the server's now: a measurement a killed client
   * missed, taken again by its successor at its own instant from the samples kept (Fleet Manager,
   * docs/health-analysis.md "On Fleet Manager").
   */
  at?: number;
}

/** What a query answered: the samples' values (none: no data), or why it could not be asked. */
export type MetricAnswer = { values: number[] } | { error: string };

/** An error a backend reports in ARM's terms (`code` as in ARM error bodies). */
export class BackendError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "BackendError";
    this.code = code;
  }
}

/**
 * The cluster (or its operation) does not exist: ARM's 404 (`ResourceNotFound`; `NotFound` from the
 * emulator and the simulated fleet). A member whose cluster is gone fails with this error (docs/behaviour.md
 * "A member whose cluster is gone"), rather than stopping every pass of the run.
 */
export function isClusterGone(e: unknown): e is BackendError {
  return e instanceof BackendError && (e.code === "ResourceNotFound" || e.code === "NotFound");
}

/** ARM's 409 when a cluster is busy with another operation. */
export const OPERATION_NOT_ALLOWED = "OperationNotAllowed";

/** The cluster is stopped (`powerState.code` `Stopped`): it cannot be upgraded until it is started. */
export const CLUSTER_STOPPED = "ClusterStopped";

/** The message backends refuse an upgrade of a stopped cluster with (Azure and the simulated fleet alike). */
export function clusterStoppedMessage(cluster: string): string {
  return `managed cluster ${cluster} is stopped (powerState Stopped) and cannot be upgraded; start it (az aks start) and start the run again`;
}
