/**
 * The scope rules every part shares (the context itself, `EmulatorContext`, is in ../ports.ts): which
 * subscription a request may address, a cluster's ARM id, the emulated cluster a name designates,
 * and the api-version the emulator writes into the URLs it hands out.
 */
import type { Fleet, SimulatedCluster } from "../../model/fleet";
import type { ArmScope, EmulatorContext } from "../ports";
import { ArmError } from "./armErrors";

export const MANAGED_CLUSTERS = "Microsoft.ContainerService/managedClusters";

export function clusterId(scope: ArmScope, name: string): string {
  return `/subscriptions/${scope.subscriptionId}/resourceGroups/${scope.resourceGroup}/providers/${MANAGED_CLUSTERS}/${name}`;
}

export function checkSubscription(ctx: EmulatorContext, subscriptionId: string): void {
  if (ctx.subscriptionId !== undefined && ctx.subscriptionId.toLowerCase() !== subscriptionId.toLowerCase()) {
    throw new ArmError(404, "SubscriptionNotFound", `The subscription '${subscriptionId}' could not be found.`);
  }
}

/** The member a request names; ARM resource names are case-insensitive. */
export function findMember(fleet: Fleet, name: string): SimulatedCluster | undefined {
  const wanted = name.toLowerCase();
  return fleet.members.find((m) => m.name.toLowerCase() === wanted);
}

/** The api-version the emulator writes into the URLs it hands out (it accepts any). */
export const API_VERSION = "2026-06-01";
