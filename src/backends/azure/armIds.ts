/** ARM managed-cluster ids: `/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.ContainerService/managedClusters/{name}`. */
import { MANAGED_CLUSTER_ID_PATTERN } from "../../model/member";

export interface ManagedClusterId {
  subscriptionId: string;
  resourceGroup: string;
  name: string;
}

export function parseManagedClusterId(id: string): ManagedClusterId {
  if (!MANAGED_CLUSTER_ID_PATTERN.test(id)) throw new Error(`not an ARM managed cluster id: ${id}`);
  const parts = id.split("/");
  return { subscriptionId: parts[2] as string, resourceGroup: parts[4] as string, name: parts[8] as string };
}
