/**
 * docs/rules.md §7 simulated world: what each region offers and from when, and the clusters themselves
 * (the scenario's `regions` + `members`). The same description is the simulated fleet's file
 * (`fleet.yaml`) for the CLI and, later, the Pulumi resources.
 */
import { z } from "zod";
import { InstantSchema } from "./instants";
import { KubernetesVersionSchema, NameSchema, NodeImageVersionSchema, orRequired } from "./values";
import { MaintenanceConfigurationsSchema } from "./maintenanceWindow";
import { ClusterResourceIdSchema, LabelsSchema } from "./member";
import { HealthCheckSchema } from "./healthCheck";

export const OfferedKubernetesVersionSchema = z.strictObject({
  version: KubernetesVersionSchema,
  /** Absent: available from the start. */
  availableAt: InstantSchema.optional(),
  /** AKS offers it as a preview (`isPreview` in ARM's listings): no auto-upgrade channel picks it. */
  isPreview: z.boolean({ error: "must be true or false" }).optional(),
});

export const OfferedNodeImageSchema = z.strictObject({
  version: NodeImageVersionSchema,
  availableAt: InstantSchema.optional(),
});

export const RegionSchema = z.strictObject({
  kubernetesVersions: z.array(OfferedKubernetesVersionSchema).default([]),
  nodeImages: z.array(OfferedNodeImageSchema).default([]),
});
export type Region = z.infer<typeof RegionSchema>;

export const RegionNameSchema = z
  .string()
  .regex(/^[a-z0-9]+$/, "must be an Azure region name such as westeurope");

export const NodePoolSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9]{0,11}$/, "must be an AKS node pool name: lowercase letters and digits, starting with a letter, at most 12 characters"),
  orchestratorVersion: KubernetesVersionSchema,
  nodeImageVersion: NodeImageVersionSchema,
});
export type NodePool = z.infer<typeof NodePoolSchema>;

/** The longest simulated upgrade, a week. */
export const MAX_UPGRADE_MINUTES = 7 * 24 * 60;

/** Prometheus' metric and label names. */
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/**
 * Issue 31: one of a simulated cluster's metrics — a gauge with the label `cluster="<name>"` (and
 * `labels`), worth `value`, and `afterUpgrade` from the end of the cluster's first successful upgrade.
 * `simulate` and `plan` evaluate queries over them on the virtual clock; the emulator serves them on
 * `/metrics` for a real Prometheus to scrape (docs/health-analysis.md "Simulated metrics").
 */
export const SimulatedMetricSchema = z.strictObject({
  name: z.string({ error: orRequired("must be a metric name") }).regex(METRIC_NAME, "must be a Prometheus metric name such as cluster_error_rate"),
  labels: z
    .record(z.string().regex(LABEL_NAME, "must be a Prometheus label name"), z.string({ error: "must be a string" }))
    .refine((labels) => !Object.hasOwn(labels, "cluster"), "the label cluster is the cluster's name, set by the simulator")
    .optional(),
  value: z.number({ error: orRequired("must be a number") }),
  afterUpgrade: z.number({ error: "must be a number" }).optional(),
});
export type SimulatedMetric = z.infer<typeof SimulatedMetricSchema>;

export const SimulationSchema = z.strictObject({
  /** Minutes an upgrade takes (default 10). */
  upgradeMinutes: z.number({ error: orRequired("must be a number of minutes") }).positive("must be greater than 0").max(MAX_UPGRADE_MINUTES, `must be at most ${MAX_UPGRADE_MINUTES} (a week)`).default(10),
  /** The upgrade fails when it ends, with this error. */
  fail: z
    .strictObject({
      code: z.string().min(1).default("UpgradeFailed"),
      message: z.string().default("the upgrade failed"),
      /** Only the first this-many upgrades fail (a transient fault a retry gets past); default: every one. */
      attempts: z.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").optional(),
    })
    .optional(),
  /** An operation someone else started is running on the cluster until this instant. */
  busyUntil: InstantSchema.optional(),
  /** AKS `powerState.code` (default Running). A `Stopped` cluster refuses upgrades (`ClusterStopped`). */
  powerState: z.enum(["Running", "Stopped"], { error: "must be Running or Stopped" }).optional(),
  /**
   * Issue 5: false = after an upgrade the cluster reports provisioning state Failed and its health
   * probe fails, so the health check fails the member (default true).
   */
  healthy: z.boolean({ error: "must be true or false" }).optional(),
  /** Issue 31: the cluster's metrics, before and after its upgrade. */
  metrics: z.array(SimulatedMetricSchema, { error: "must be a list of metrics" }).max(50, "at most 50 metrics").optional(),
});
export type Simulation = z.infer<typeof SimulationSchema>;

/**
 * AKS's own automatic upgrades of the cluster (`properties.autoUpgradeProfile`). A cluster that upgrades
 * itself conflicts with a staged run: `plan` flags it (CLUSTER_AUTO_UPGRADES, docs/behaviour.md).
 */
export const ClusterAutoUpgradeProfileSchema = z.strictObject({
  /** Kubernetes versions: none (default), patch, stable, rapid, node-image. */
  upgradeChannel: z.enum(["none", "patch", "stable", "rapid", "node-image"], { error: "must be none, patch, stable, rapid or node-image" }).optional(),
  /** Node OS images: None, Unmanaged, NodeImage, SecurityPatch (default None in the emulator). */
  nodeOSUpgradeChannel: z.enum(["None", "Unmanaged", "NodeImage", "SecurityPatch"], { error: "must be None, Unmanaged, NodeImage or SecurityPatch" }).optional(),
});
export type ClusterAutoUpgradeProfile = z.infer<typeof ClusterAutoUpgradeProfileSchema>;

export const SimulatedClusterSchema = z.strictObject({
  name: NameSchema,
  clusterResourceId: ClusterResourceIdSchema.optional(),
  group: NameSchema.optional(),
  /** Issue 22: labels that stages and groups select by (`memberSelector.byLabel`). */
  labels: LabelsSchema.optional(),
  region: RegionNameSchema,
  /** Control plane version. */
  kubernetesVersion: KubernetesVersionSchema,
  nodePools: z.array(NodePoolSchema).min(1, "a cluster has at least one node pool"),
  maintenanceConfigurations: MaintenanceConfigurationsSchema.optional(),
  /** AKS's automatic upgrade channels of the cluster (default: none). */
  autoUpgradeProfile: ClusterAutoUpgradeProfileSchema.optional(),
  simulation: SimulationSchema.optional(),
  /** Issue 5: a probe to pass after the upgrade (simulated: answered by `simulation.healthy`). */
  healthCheck: HealthCheckSchema.optional(),
});
export type SimulatedCluster = z.infer<typeof SimulatedClusterSchema>;

export const FleetShape = {
  regions: z.record(RegionNameSchema, RegionSchema),
  members: z.array(SimulatedClusterSchema).min(1, "a fleet has at least one member"),
};

/** Cross-field fleet rules: unique member names, declared regions, unique pool names. */
export function checkFleet(fleet: { regions: Record<string, Region>; members: SimulatedCluster[] }, ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  fleet.members.forEach((m, i) => {
    const first = seen.get(m.name);
    if (first !== undefined) ctx.addIssue({ code: "custom", path: ["members", i, "name"], message: `duplicate member name '${m.name}' (also members[${first}])` });
    else seen.set(m.name, i);
    if (!Object.hasOwn(fleet.regions, m.region)) {
      ctx.addIssue({ code: "custom", path: ["members", i, "region"], message: `region '${m.region}' is not declared under regions` });
    }
    const pools = new Set<string>();
    m.nodePools.forEach((p, j) => {
      if (pools.has(p.name)) ctx.addIssue({ code: "custom", path: ["members", i, "nodePools", j, "name"], message: `duplicate node pool name '${p.name}'` });
      pools.add(p.name);
    });
  });
}

export const FleetSchema = z.strictObject(FleetShape).superRefine(checkFleet);
export type Fleet = z.infer<typeof FleetSchema>;
