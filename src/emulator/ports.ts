/**
 * The emulator's ports: every interface its parts talk to each other through, so that no file
 * imports in a circle. This file imports nothing of the emulator; the parts import it, never each
 * other:
 *
 *   ports ← core/ ← arm/, fleet/ ← emulator.ts (`startArmEmulator`), command.ts, index.ts
 *
 * - core/ (the HTTPS front door, routing, ARM errors, scope rules, faults, throttling, the request
 *   log) gives each handler of a `Route` the `EmulatorContext` and the `ArmRequest`, and sends its
 *   `ArmReply`.
 * - arm/ (managedClusters, agentPools, locations, operations) keeps its registries on the context
 *   behind `ArmOperations` and `ArmLifecycle`, and lends the Fleet Manager part its clusters as
 *   `ArmClusters`.
 * - fleet/ (Fleet Manager) lends ARM's shared operation URLs its runs' start, stop and skip as an
 *   `OperationSource`; its own state (the `FleetManager`) is bound into its routes, not carried on
 *   the context.
 * Only `startArmEmulator` knows both parts, and wires them.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Clock } from "../engine/clock";
import type { OfferedKubernetesVersion } from "../engine/autoUpgradeChannel";
import type { Fleet, SimulatedCluster } from "../model/fleet";
import type { SimulatedFleet } from "../backends/simulator";

// ---------------------------------------------------------------------------------------------
// core ↔ the parts: a request, its answer, the context, the routing table.

export interface ArmRequest {
  method: string;
  /** Path without the query. */
  path: string;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; `undefined` when there is none. */
  body: unknown;
}

export interface ArmReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Subscription and resource group a request addresses a cluster (or a fleet) in. */
export interface ArmScope {
  subscriptionId: string;
  resourceGroup: string;
}

/**
 * What every handler gets besides its request: the simulated fleet, its description and clock, the
 * ARM part's registries (the operations started through ARM; tags, deletions and aborts), Fleet
 * Manager's operations at the shared URLs, and the scope served.
 */
export interface EmulatorContext {
  sim: SimulatedFleet;
  fleet: Fleet;
  clock: Clock;
  /** Simulated ms per real ms. */
  timeScale: number;
  /** Upgrades started through ARM (arm/operations.ts). */
  operations: ArmOperations;
  /** Tags, deletions and aborts: what ARM does besides upgrades (arm/lifecycle.ts). */
  lifecycle: ArmLifecycle;
  /** `https://127.0.0.1:<port>`, once listening. */
  baseUrl(): string;
  /** Fleet Manager's long-running operations (start, stop, skip), when Fleet Manager is served. */
  fleetOperations?: OperationSource;
  /** Only these subscription / resource group are served, when set. */
  subscriptionId?: string;
  resourceGroup?: string;
}

export type Handler = (ctx: EmulatorContext, request: ArmRequest) => Promise<ArmReply>;

/** One entry of the routing table (made by `route` in core/router.ts). */
export interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  handle: Handler;
}

// ---------------------------------------------------------------------------------------------
// The ARM part's registries, as the context carries them.

export type OperationTarget = { kind: "managedCluster" } | { kind: "agentPool"; pool: string };

export type OperationType = "PutManagedCluster" | "PutAgentPool" | "UpgradeNodeImageVersion";

/** An upgrade started through ARM, under the simulated fleet's operation id (`op-<cluster>-<n>`). */
export interface TrackedOperation {
  operationId: string;
  member: string;
  scope: ArmScope;
  location: string;
  target: OperationTarget;
  operationType: OperationType;
}

/** The upgrades started through ARM, by operation id (case-insensitive). */
export interface ArmOperations {
  add(operation: TrackedOperation): void;
  get(operationId: string): TrackedOperation | undefined;
}

/** A deletion (`delete-<cluster>-<n>`) or an abort (`abort-<cluster>-<n>`): ARM's own long-running operations. */
export interface LifecycleOperation {
  operationId: string;
  /** `update`: an agent pool PUT that changes no version (AKS still runs an operation: Updating → Succeeded). */
  kind: "delete" | "abort" | "update";
  member: string;
  /** Deleting an agent pool / aborting an agent pool's operation / updating an agent pool. */
  pool?: string;
  /** update: the pool's `powerState.code` from this operation on (kept from an earlier stop or start when unchanged). */
  power?: "Running" | "Stopped";
  /** update: it stops or starts the pool (`Stopping` / `Starting` while it runs), not only updates it (`Updating`). */
  powerChange?: boolean;
  /** The upgrade an abort canceled. */
  abortedOperationId?: string;
  scope: ArmScope;
  location: string;
  startAt: number;
  endAt: number;
}

/** Tags, deletions and aborts, by cluster (names case-insensitive). */
export interface ArmLifecycle {
  tags(member: string): Record<string, string>;
  setTags(member: string, tags: Record<string, string>): void;
  start(op: Omit<LifecycleOperation, "operationId">): LifecycleOperation;
  get(operationId: string): LifecycleOperation | undefined;
  /** The deletion of the cluster (no `pool`) or of one of its pools, started or done. */
  deletion(member: string, pool?: string): LifecycleOperation | undefined;
  /** Pools of `member` whose deletion has been asked for. */
  poolDeletions(member: string): LifecycleOperation[];
  /** The latest abort on the cluster (its cancellation may still be under way). */
  abort(member: string): LifecycleOperation | undefined;
  /** The latest update of each pool of `member` (it may still be under way). */
  poolUpdates(member: string): LifecycleOperation[];
  /** The `major.minor` alias the cluster's `kubernetesVersion` was last written as, if it was. */
  versionAlias(member: string): string | undefined;
  setVersionAlias(member: string, alias: string | undefined): void;
}

// ---------------------------------------------------------------------------------------------
// fleet → arm: what the Fleet Manager part needs from the ARM part (arm/clusters.ts).

/**
 * The clusters behind the managedClusters routes, as a server-side Fleet run's cluster backend
 * sees them: the simulated fleet (where its upgrades start, so a cluster GET mid-run shows them),
 * plus what ARM does on top of it — deleted clusters are gone, deletions and aborts keep a cluster
 * busy.
 */
export interface ArmClusters {
  readonly sim: SimulatedFleet;
  /** The emulated cluster a name designates (case-insensitive); undefined if none, or deleted through ARM. */
  cluster(name: string): SimulatedCluster | undefined;
  /** A deletion (of the cluster or a pool) or an abort's cancellation under way on the cluster now: ARM is busy until `endAt`. */
  lifecycleOperation(name: string): { endAt: number } | undefined;
  /** The same, as a GET of the cluster shows it now (the simulated fleet settled first): which kind, if any. */
  lifecycleOperationShown(name: string): Promise<"delete" | "abort" | "update" | undefined>;
  /**
   * What `GET locations/{region}/kubernetesVersions` lists now, one entry per patch with its minor's
   * `isPreview` and `capabilities.supportPlan` (an auto-upgrade channel's choices); undefined for a
   * region the emulator does not have.
   */
  kubernetesVersionsOffered(region: string): OfferedKubernetesVersion[] | undefined;
}

// ---------------------------------------------------------------------------------------------
// arm → fleet: what ARM's shared operation URLs need from the Fleet Manager part (fleet/fleetManager.ts).

/**
 * Long-running operations another part serves at ARM's shared `locations/{location}/operations/{id}`
 * (`Azure-AsyncOperation`) and `operationresults/{id}` (`Location`) URLs: Fleet Manager's start,
 * stop and skip. Each answer is undefined when the id is not one of this source's.
 */
export interface OperationSource {
  operationStatus(operationId: string): Promise<ArmReply> | undefined;
  operationResult(operationId: string, baseUrl: string): Promise<ArmReply> | undefined;
}
