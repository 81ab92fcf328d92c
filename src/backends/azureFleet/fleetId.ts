/**
 * The ARM id of an Azure Kubernetes Fleet Manager fleet, parsed
 * (`/subscriptions/{guid}/resourceGroups/{rg}/providers/Microsoft.ContainerService/fleets/{name}`, as
 * the run spec takes it: `src/spec/fleet.ts`), and the names of a fleet's child resources.
 */
import { FLEET_ID_PATTERN } from "../../spec/fleet";

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
