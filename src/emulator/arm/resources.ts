/**
 * ARM resource bodies for the simulated clusters, shaped after the AKS REST specs' examples
 * (Azure/azure-rest-api-specs: ManagedClustersGet, AgentPoolsCreate_Update, the upgrade profiles, the
 * maintenance configurations). `kubernetesVersion` / `orchestratorVersion` are the goal (the target of
 * the running, or last failed or aborted, upgrade), `current*` what actually runs (mid-upgrade: the
 * parts moved so far); `eTag` is a digest of what the resource shows, so it changes with every change
 * and only then.
 */
import crypto from "node:crypto";
import type { NodePool } from "../../model/fleet";
import type { MaintenanceConfigurations } from "../../model/maintenanceWindow";
import { compareDotted, imageFamily, newestImageAt } from "../../model/nodeImage";
import { clusterId, MANAGED_CLUSTERS } from "../core/context";
import type { ArmScope } from "../ports";
import { touchesPool, type ClusterView } from "./clusterView";
import { availableKubernetesVersions, isPreviewVersion, minorOf, upgradeTargets } from "./offers";

function digest(value: unknown, length = 16): string {
  return crypto.createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, length);
}

export function clusterETag(view: ClusterView): string {
  const ops = view.state.operations.map((op) => [op.operationId, op.result ?? null]);
  const pools = view.state.nodePools.map((pool) => [pool, poolProvisioningState(view, pool), poolPowerState(view, pool).code]);
  return digest({ k: view.state.kubernetesVersion, alias: view.versionAlias ?? null, pools, ops, state: clusterProvisioningState(view), tags: view.tags });
}

export function poolETag(view: ClusterView, pool: NodePool): string {
  const ops = view.state.operations.filter((op) => touchesPool(op, pool.name)).map((op) => [op.operationId, op.result ?? null]);
  const update = view.updatingPools.get(pool.name)?.operationId ?? null;
  return digest({ cluster: view.name, pool, ops, update, state: poolProvisioningState(view, pool), power: poolPowerState(view, pool).code });
}

/** The operation whose target the resource shows as its goal: the running one, else a failed or aborted last one. */
function goalOperation(view: ClusterView) {
  return view.running ?? view.failed ?? view.canceled;
}

export function goalKubernetesVersion(view: ClusterView): string {
  const op = goalOperation(view);
  return op?.request.kubernetesVersion ?? view.state.kubernetesVersion;
}

/** `kubernetesVersion` as AKS shows it: the `major.minor` alias it was written as, while the goal is a patch of it. */
function shownKubernetesVersion(view: ClusterView): string {
  const goal = goalKubernetesVersion(view);
  return view.versionAlias !== undefined && minorOf(goal) === view.versionAlias ? view.versionAlias : goal;
}

/** The version upgrade running now, if any (a node image upgrade moves no version). */
function runningVersionUpgrade(view: ClusterView): string | undefined {
  const op = view.running;
  return op === undefined || op.request.type === "NodeImageOnly" ? undefined : op.request.kubernetesVersion;
}

/**
 * `currentKubernetesVersion` as AKS reports it: the target as soon as an upgrade of the control plane
 * starts (the recorded `az aks upgrade` answers its PUT, and every read while `Upgrading`, with the target
 * there), what runs otherwise. So a client cannot tell from it whether the upgrade is done.
 */
export function currentKubernetesVersion(view: ClusterView): string {
  return runningVersionUpgrade(view) ?? view.state.kubernetesVersion;
}

/** A pool's `currentOrchestratorVersion`: the target from the start of a Full upgrade touching it, as AKS reports it. */
function currentOrchestratorVersion(view: ClusterView, pool: NodePool): string {
  const target = runningVersionUpgrade(view);
  return target !== undefined && view.running?.request.type === "Full" ? target : pool.orchestratorVersion;
}

export function goalOrchestratorVersion(view: ClusterView, pool: NodePool): string {
  const op = goalOperation(view);
  return op?.request.type === "Full" && op.request.kubernetesVersion !== undefined ? op.request.kubernetesVersion : pool.orchestratorVersion;
}

/** `powerState.code` of the cluster: `simulation.powerState` (default Running). */
export function powerState(view: ClusterView): { code: "Running" | "Stopped" } {
  return { code: view.description.simulation?.powerState ?? "Running" };
}

/** A pool's `powerState.code`: as its latest stop or start (an agent pool PUT) left it, else the cluster's. */
export function poolPowerState(view: ClusterView, pool: NodePool): { code: "Running" | "Stopped" } {
  return { code: view.poolPower.get(pool.name) ?? powerState(view).code };
}

export function clusterProvisioningState(view: ClusterView): string {
  if (view.deleting !== undefined) return "Deleting";
  // A node image upgrade is the pool's: AKS keeps the cluster Succeeded while its pool is UpgradingNodeImageVersion.
  if (runningVersionUpgrade(view) !== undefined) return "Upgrading";
  if (view.canceling !== undefined) return "Canceling";
  if (view.busyElsewhere) return "Updating";
  if (view.failed !== undefined) return "Failed";
  return view.canceled !== undefined ? "Canceled" : "Succeeded";
}

/** A pool's part of the cluster's state: a pool whose phase of a running upgrade is over shows Succeeded. */
export function poolProvisioningState(view: ClusterView, pool: NodePool): string {
  if (view.deleting !== undefined || view.deletingPools.has(pool.name)) return "Deleting";
  const update = view.updatingPools.get(pool.name);
  if (update !== undefined) return update.powerChange === true ? (update.power === "Stopped" ? "Stopping" : "Starting") : "Updating";
  if (view.running !== undefined && touchesPool(view.running, pool.name) && !view.progress?.movedPools.includes(pool.name)) {
    return view.running.request.type === "NodeImageOnly" ? "UpgradingNodeImageVersion" : "Upgrading";
  }
  const lastTouching = view.canceled ?? view.failed;
  if (lastTouching !== undefined && touchesPool(lastTouching, pool.name)) {
    if (view.failed !== undefined) return "Failed";
    return view.canceling !== undefined ? "Canceling" : "Canceled";
  }
  return "Succeeded";
}

/** `osType` and `osSKU` as AKS reports them for a node image family. */
export function osOf(nodeImageVersion: string): { osType: "Linux" | "Windows"; osSKU: string } {
  const family = imageFamily(nodeImageVersion);
  if (/windows/i.test(family)) return { osType: "Windows", osSKU: /2019/.test(family) ? "Windows2019" : "Windows2022" };
  if (/mariner|azurelinux/i.test(family)) return { osType: "Linux", osSKU: "AzureLinux" };
  return { osType: "Linux", osSKU: "Ubuntu" };
}

/** Pool properties shared by `agentPoolProfiles[]` and the agent pool resource. */
function poolProperties(view: ClusterView, pool: NodePool, index: number): Record<string, unknown> {
  return {
    // A stopped pool has no nodes: AKS answers count 0 from the stop's start, the count back on start (recorded).
    count: poolPowerState(view, pool).code === "Stopped" ? 0 : 3,
    vmSize: "Standard_D4ds_v5",
    osDiskSizeGB: 128,
    maxPods: 110,
    type: "VirtualMachineScaleSets",
    mode: index === 0 ? "System" : "User",
    orchestratorVersion: goalOrchestratorVersion(view, pool),
    currentOrchestratorVersion: currentOrchestratorVersion(view, pool),
    nodeImageVersion: pool.nodeImageVersion,
    ...osOf(pool.nodeImageVersion),
    provisioningState: poolProvisioningState(view, pool),
    powerState: poolPowerState(view, pool),
    // AKS shows the settings written; none were: `{}`, as recorded.
    upgradeSettings: {},
    eTag: poolETag(view, pool),
  };
}

export function managedCluster(view: ClusterView, scope: ArmScope): Record<string, unknown> {
  const { name, location, state } = view;
  const dnsPrefix = name;
  const host = `${dnsPrefix}-${digest(name, 8)}`;
  return {
    id: clusterId(scope, name),
    name,
    // As AKS answers it (test/fixtures/recordings/aks): the resource's type capitalised, unlike its id's segment.
    type: "Microsoft.ContainerService/ManagedClusters",
    location,
    eTag: clusterETag(view),
    ...(Object.keys(view.tags).length === 0 ? {} : { tags: { ...view.tags } }),
    sku: { name: "Base", tier: "Standard" },
    properties: {
      provisioningState: clusterProvisioningState(view),
      powerState: powerState(view),
      maxAgentPools: 100,
      kubernetesVersion: shownKubernetesVersion(view),
      currentKubernetesVersion: currentKubernetesVersion(view),
      dnsPrefix,
      fqdn: `${host}.hcp.${location}.azmk8s.io`,
      azurePortalFQDN: `${host}.portal.hcp.${location}.azmk8s.io`,
      agentPoolProfiles: state.nodePools.map((pool, i) => ({ name: pool.name, ...poolProperties(view, pool, i) })),
      nodeResourceGroup: `MC_${scope.resourceGroup}_${name}_${location}`,
      enableRBAC: true,
      supportPlan: "KubernetesOfficial",
      // As AKS: shown when the cluster has one (the recorded clusters, which had none, show none).
      ...(view.description.autoUpgradeProfile === undefined ? {} : { autoUpgradeProfile: { ...view.description.autoUpgradeProfile } }),
      networkProfile: { networkPlugin: "azure", loadBalancerSku: "standard", outboundType: "loadBalancer" },
    },
  };
}

export function agentPoolId(scope: ArmScope, cluster: string, pool: string): string {
  return `${clusterId(scope, cluster)}/agentPools/${pool}`;
}

export function agentPool(view: ClusterView, scope: ArmScope, pool: NodePool): Record<string, unknown> {
  const index = view.state.nodePools.findIndex((p) => p.name === pool.name);
  return {
    id: agentPoolId(scope, view.name, pool.name),
    name: pool.name,
    type: `${MANAGED_CLUSTERS}/agentPools`,
    properties: poolProperties(view, pool, index),
  };
}

/** Kubernetes versions a pool may move to alone: newer than it, not above the control plane. */
function poolUpgrades(view: ClusterView, pool: NodePool): string[] {
  return availableKubernetesVersions(view.region, view.now).filter(
    (v) => compareDotted(v, pool.orchestratorVersion) > 0 && compareDotted(v, view.state.kubernetesVersion) <= 0,
  );
}

/** An upgrade profile's entry: `isPreview` on a version AKS offers as a preview, as AKS lists it. */
function upgradeEntry(view: ClusterView, kubernetesVersion: string): { kubernetesVersion: string; isPreview?: true } {
  return isPreviewVersion(view.region, kubernetesVersion) ? { kubernetesVersion, isPreview: true } : { kubernetesVersion };
}

/** `GET managedClusters/{name}/upgradeProfiles/default` (ManagedClustersGetUpgradeProfile.json). */
export function clusterUpgradeProfile(view: ClusterView, scope: ArmScope): Record<string, unknown> {
  const available = availableKubernetesVersions(view.region, view.now);
  const controlPlaneUpgrades = upgradeTargets(view.state.kubernetesVersion, available);
  return {
    id: `${clusterId(scope, view.name)}/upgradeprofiles/default`,
    name: "default",
    type: `${MANAGED_CLUSTERS}/upgradeprofiles`,
    properties: {
      controlPlaneProfile: {
        name: "master",
        kubernetesVersion: view.state.kubernetesVersion,
        osType: "Linux",
        upgrades: controlPlaneUpgrades.map((v) => upgradeEntry(view, v)),
      },
      agentPoolProfiles: view.state.nodePools.map((pool) => {
        // With the control plane (a Full upgrade) or alone up to the control plane's version.
        const upgrades = [...new Set([...poolUpgrades(view, pool), ...controlPlaneUpgrades])].sort(compareDotted);
        return { name: pool.name, kubernetesVersion: pool.orchestratorVersion, osType: osOf(pool.nodeImageVersion).osType, upgrades: upgrades.map((v) => upgradeEntry(view, v)) };
      }),
    },
  };
}

/** `GET agentPools/{pool}/upgradeProfiles/default` (AgentPoolsGetUpgradeProfile.json). */
export function agentPoolUpgradeProfile(view: ClusterView, scope: ArmScope, pool: NodePool): Record<string, unknown> {
  return {
    id: `${agentPoolId(scope, view.name, pool.name)}/upgradeprofiles/default`,
    name: "default",
    type: `${MANAGED_CLUSTERS}/agentPools/upgradeProfiles`,
    properties: {
      kubernetesVersion: pool.orchestratorVersion,
      osType: osOf(pool.nodeImageVersion).osType,
      upgrades: poolUpgrades(view, pool).map((v) => upgradeEntry(view, v)),
      latestNodeImageVersion: newestImageAt(view.region.nodeImages, imageFamily(pool.nodeImageVersion), view.now) ?? pool.nodeImageVersion,
    },
  };
}

export const MAINTENANCE_CONFIGURATION_NAMES = ["aksManagedAutoUpgradeSchedule", "aksManagedNodeOSUpgradeSchedule"] as const;

/** The cluster's maintenance configurations as ARM resources (MaintenanceConfigurationsList_MaintenanceWindow.json). */
export function maintenanceConfigurations(view: ClusterView, scope: ArmScope): Record<string, unknown>[] {
  const configs: MaintenanceConfigurations = view.description.maintenanceConfigurations ?? {};
  return MAINTENANCE_CONFIGURATION_NAMES.flatMap((name) => {
    const config = configs[name];
    if (config === undefined) return [];
    return [
      {
        id: `${clusterId(scope, view.name)}/maintenanceConfigurations/${name}`,
        name,
        type: `${MANAGED_CLUSTERS}/maintenanceConfigurations`,
        properties: { maintenanceWindow: structuredClone(config.maintenanceWindow) },
      },
    ];
  });
}
