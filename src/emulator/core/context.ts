/**
 * What every handler gets: the parsed request, and the emulator's shared parts (the simulated fleet,
 * its description and clock, the operations started through ARM, tags, deletions and aborts). Also the
 * scope rules: which subscription and resource group a cluster answers in (a deleted one: none).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Clock } from "../../engine/clock";
import type { Fleet, SimulatedCluster } from "../../model/fleet";
import type { SimulatedFleet } from "../../backends/simulator";
import { ArmError, resourceNotFound } from "./armErrors";
import { findMember, isDeleted, readCluster, type ClusterView } from "../arm/clusterView";
import type { FleetManager } from "../fleet/fleetManager";
import type { Lifecycle } from "../arm/lifecycle";
import type { OperationRegistry } from "../arm/operations";

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

export interface EmulatorContext {
  sim: SimulatedFleet;
  fleet: Fleet;
  clock: Clock;
  /** Simulated ms per real ms. */
  timeScale: number;
  operations: OperationRegistry;
  /** Tags, deletions and aborts: what ARM does besides upgrades. */
  lifecycle: Lifecycle;
  /** `https://127.0.0.1:<port>`, once listening. */
  baseUrl(): string;
  /** Fleet Manager (fleets, members, update strategies and runs), when served. */
  fleetManager?: FleetManager;
  /** Only these subscription / resource group are served, when set. */
  subscriptionId?: string;
  resourceGroup?: string;
}

/** Subscription and resource group a request addresses a cluster in. */
export interface ArmScope {
  subscriptionId: string;
  resourceGroup: string;
}

export const MANAGED_CLUSTERS = "Microsoft.ContainerService/managedClusters";

export function clusterId(scope: ArmScope, name: string): string {
  return `/subscriptions/${scope.subscriptionId}/resourceGroups/${scope.resourceGroup}/providers/${MANAGED_CLUSTERS}/${name}`;
}

export function checkSubscription(ctx: EmulatorContext, subscriptionId: string): void {
  if (ctx.subscriptionId !== undefined && ctx.subscriptionId.toLowerCase() !== subscriptionId.toLowerCase()) {
    throw new ArmError(404, "SubscriptionNotFound", `The subscription '${subscriptionId}' could not be found.`);
  }
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

/** The api-version the emulator writes into the URLs it hands out (it accepts any). */
export const API_VERSION = "2026-06-01";
