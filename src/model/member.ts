/** docs/rules.md §1 Member: one AKS cluster taking part in updates. */
import { z } from "zod";
import { NameSchema, orRequired } from "./common";
import { HealthCheckSchema } from "./healthCheck";

/**
 * `/subscriptions/{id}/resourceGroups/{rg}/providers/Microsoft.ContainerService/managedClusters/{name}`.
 * ARM treats the fixed segments case-insensitively, so do we.
 */
export const MANAGED_CLUSTER_ID_PATTERN =
  /^\/subscriptions\/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\/resourceGroups\/[-\w._()]{1,90}\/providers\/Microsoft\.ContainerService\/managedClusters\/[a-zA-Z0-9]([-_a-zA-Z0-9]{0,61}[a-zA-Z0-9])?$/i;

export const ClusterResourceIdSchema = z
  .string({ error: orRequired("must be a string") })
  .regex(
    MANAGED_CLUSTER_ID_PATTERN,
    "must be an ARM managed cluster id: /subscriptions/<guid>/resourceGroups/<group>/providers/Microsoft.ContainerService/managedClusters/<name>",
  );

export const MemberSchema = z.strictObject({
  /** Unique in the fleet. */
  name: NameSchema,
  /** The ARM id of the managed cluster. Optional for the simulated fleet. */
  clusterResourceId: ClusterResourceIdSchema.optional(),
  /** At most one update-group name. */
  group: NameSchema.optional(),
  /** Issue 5: a probe to pass after the upgrade before the member counts as Completed. */
  healthCheck: HealthCheckSchema.optional(),
});
export type Member = z.infer<typeof MemberSchema>;
