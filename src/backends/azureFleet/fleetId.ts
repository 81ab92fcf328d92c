/**
 * The ARM id of an Azure Kubernetes Fleet Manager fleet:
 * `/subscriptions/{guid}/resourceGroups/{rg}/providers/Microsoft.ContainerService/fleets/{name}`.
 * ARM treats the fixed segments case-insensitively, so do we.
 */
import { z } from "zod";
import { orRequired } from "../../model/common";

export const FLEET_ID_PATTERN =
  /^\/subscriptions\/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\/resourceGroups\/[-\w._()]{1,90}\/providers\/Microsoft\.ContainerService\/fleets\/[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/i;

export const FleetIdSchema = z
  .string({ error: orRequired("must be a string") })
  .regex(FLEET_ID_PATTERN, "must be an ARM fleet id: /subscriptions/<guid>/resourceGroups/<group>/providers/Microsoft.ContainerService/fleets/<name>");

export interface FleetId {
  subscriptionId: string;
  resourceGroup: string;
  fleetName: string;
}

export function parseFleetId(id: string): FleetId {
  if (!FLEET_ID_PATTERN.test(id)) throw new Error(`not an ARM fleet id: ${id}`);
  const parts = id.split("/");
  return { subscriptionId: parts[2] as string, resourceGroup: parts[4] as string, fleetName: parts[8] as string };
}

/** Fleet's own child resource names (update runs, strategies): the same rule as docs/rules.md §2 names. */
export const FLEET_CHILD_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const MAX_FLEET_CHILD_NAME = 50;
