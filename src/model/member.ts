/** docs/rules.md §1 Member: one AKS cluster taking part in updates. */
import { z } from "zod";
import { NameSchema, orRequired } from "./values";
import { HealthCheckSchema } from "./healthCheck";
import { MAX_LABELS, labelKeyProblem, labelValueProblem } from "./labelSelector";

/**
 * Issue 22: a member's labels, string keys to string values in Kubernetes' label syntax, which stages
 * and groups select members by (`memberSelector.byLabel`, docs/rules.md §16).
 */
export const LabelsSchema = z
  .record(z.string(), z.string({ error: "must be a string" }), { error: "must be a map of label keys to string values" })
  .superRefine((labels, ctx) => {
    const keys = Object.keys(labels);
    if (keys.length > MAX_LABELS) ctx.addIssue({ code: "custom", message: `at most ${MAX_LABELS} labels` });
    for (const key of keys) {
      const problem = labelKeyProblem(key) ?? labelValueProblem(labels[key] as string);
      if (problem !== undefined) ctx.addIssue({ code: "custom", path: [key], message: problem });
    }
  });
export type Labels = z.infer<typeof LabelsSchema>;

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

export const MemberSchema = z
  .strictObject({
    name: NameSchema.meta({ description: "Unique in the fleet: lowercase letters, digits and '-', at most 50 characters." }),
    clusterResourceId: ClusterResourceIdSchema.optional().meta({ description: "ARM id of the managed cluster; optional on the simulated fleet." }),
    // At most one update group (docs/rules.md §1).
    group: NameSchema.optional().meta({ description: "The update group the member belongs to." }),
    // Issue 22.
    labels: LabelsSchema.optional().meta({ description: "Labels that stages and groups select members by (`memberSelector.byLabel`)." }),
    // Issue 5.
    healthCheck: HealthCheckSchema.optional().meta({ description: "A probe that must answer 2xx after the member's upgrade before it counts as Completed." }),
  })
  .meta({ objectType: { name: "Member", description: "A fleet member: one AKS cluster." } });
export type Member = z.infer<typeof MemberSchema>;
