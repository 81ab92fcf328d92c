/**
 * ARM shapes (as `@azure/arm-containerservice` returns them) → the engine's view of a cluster.
 */
import type { ManagedCluster, MaintenanceConfiguration } from "@azure/arm-containerservice";
import { BackendError, type ClusterInfo, type NodePoolInfo } from "../../engine/backend";
import { MaintenanceWindowSchema, type MaintenanceConfigurations, type MaintenanceWindow } from "../../model/maintenanceWindow";

/**
 * ARM provisioning states during which the cluster, or a pool, has an operation in flight. Busy is read
 * per pool too: during a node image upgrade AKS keeps the cluster `Succeeded` and only the pool says
 * `UpgradingNodeImageVersion` (test/fixtures/recordings/aks, docs/behaviour.md).
 */
const BUSY_STATES = new Set(["Upgrading", "UpgradingNodeImageVersion", "Updating", "Creating", "Scaling", "Migrating", "Starting", "Stopping", "Deleting", "Canceling"]);

/** An operation is in flight on the cluster or on one of its pools. */
export function clusterBusy(cluster: ManagedCluster): boolean {
  return isBusy(cluster.provisioningState) || (cluster.agentPoolProfiles ?? []).some((p) => isBusy(p.provisioningState));
}

export function isBusy(provisioningState: string | undefined): boolean {
  return provisioningState !== undefined && BUSY_STATES.has(provisioningState);
}

export function nodePools(cluster: ManagedCluster): NodePoolInfo[] {
  return (cluster.agentPoolProfiles ?? []).map((pool) => ({
    name: pool.name,
    orchestratorVersion: pool.currentOrchestratorVersion ?? pool.orchestratorVersion ?? "",
    nodeImageVersion: pool.nodeImageVersion ?? "",
  }));
}

export function clusterInfo(cluster: ManagedCluster, configs: MaintenanceConfiguration[]): ClusterInfo {
  const busy = clusterBusy(cluster);
  const maintenance = maintenanceConfigurations(configs);
  return {
    region: (cluster.location ?? "").toLowerCase().replace(/\s+/g, ""),
    kubernetesVersion: cluster.currentKubernetesVersion ?? cluster.kubernetesVersion ?? "",
    nodePools: nodePools(cluster),
    // Issue 5's health check reads it: a cluster left Failed after an upgrade is not healthy.
    ...(cluster.provisioningState === undefined ? {} : { provisioningState: cluster.provisioningState }),
    ...(cluster.powerState?.code === "Stopped" || cluster.powerState?.code === "Running" ? { powerState: cluster.powerState.code } : {}),
    ...(cluster.autoUpgradeProfile === undefined ? {} : { autoUpgrade: autoUpgradeOf(cluster.autoUpgradeProfile) }),
    ...(maintenance === undefined ? {} : { maintenanceConfigurations: maintenance }),
    // AKS shows the target as current from an upgrade's start: while busy, the versions prove nothing.
    ...(busy ? { activeOperation: {}, versionsUnsettled: true as const } : {}),
  };
}

function autoUpgradeOf(profile: NonNullable<ManagedCluster["autoUpgradeProfile"]>): NonNullable<ClusterInfo["autoUpgrade"]> {
  return {
    ...(profile.upgradeChannel === undefined ? {} : { upgradeChannel: profile.upgradeChannel }),
    ...(profile.nodeOSUpgradeChannel === undefined ? {} : { nodeOSUpgradeChannel: profile.nodeOSUpgradeChannel }),
  };
}

/** The two AKS-managed schedules the engine reads (docs/rules.md §3.3); other configurations are ignored. */
export function maintenanceConfigurations(configs: MaintenanceConfiguration[]): MaintenanceConfigurations | undefined {
  const out: MaintenanceConfigurations = {};
  for (const config of configs) {
    if (config.name !== "aksManagedAutoUpgradeSchedule" && config.name !== "aksManagedNodeOSUpgradeSchedule") continue;
    if (config.maintenanceWindow !== undefined) out[config.name] = { maintenanceWindow: maintenanceWindow(config.maintenanceWindow) };
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

function day(value: Date | string): string {
  return typeof value === "string" ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

function maintenanceWindow(window: NonNullable<MaintenanceConfiguration["maintenanceWindow"]>): MaintenanceWindow {
  const candidate = {
    schedule: Object.fromEntries(Object.entries(window.schedule).filter(([, v]) => v !== undefined)),
    durationHours: window.durationHours,
    startTime: window.startTime,
    ...(window.utcOffset === undefined ? {} : { utcOffset: window.utcOffset }),
    ...(window.startDate === undefined ? {} : { startDate: day(window.startDate) }),
    ...(window.notAllowedDates === undefined ? {} : { notAllowedDates: window.notAllowedDates.map((d) => ({ start: day(d.start), end: day(d.end) })) }),
  };
  const parsed = MaintenanceWindowSchema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  // Never guess: a window we cannot read must not be treated as "no window" (that would upgrade
  // outside it). The member fails with this message instead.
  throw new BackendError("UnsupportedMaintenanceWindow", `maintenance window not understood: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
}
