/**
 * The AKS recordings replayed against the ARM emulator (docs/emulator-conformance.md, "AKS"): for each
 * stored cassette (test/fixtures/recordings/aks), the fleet the emulator serves so that the recorded
 * clusters exist as the recording found them, which interactions are skipped and why, and the
 * differences left with their reason.
 */
import path from "node:path";
import { FleetSchema, type Fleet } from "../../src/model/fleet";
import type { KnownDifference, RecordedInteraction } from "./support";

export const AKS_RECORDINGS = path.join(__dirname, "../fixtures/recordings/aks");

const UBUNTU_1804_MAR = "AKSUbuntu-1804gen2containerd-2022.03.21";
const UBUNTU_1804_OCT = "AKSUbuntu-1804gen2containerd-2022.10.03";
const UBUNTU_2204_JUL = "AKSUbuntu-2204gen2containerd-202307.04.0";

const UBUNTU_2204_ARM_JUN03 = "AKSUbuntu-2204gen2arm64containerd-202506.03.0";
const UBUNTU_2204_ARM_JUN16 = "AKSUbuntu-2204gen2arm64containerd-202506.16.0";

/** The patches westus2 offered on 23 June 2025 (the recorded `kubernetesVersions`): 1.33.0 a preview. */
const JUNE_2025_WESTUS2 = [
  ...["1.27.102", "1.27.103", "1.28.100", "1.28.101", "1.29.14", "1.29.15"],
  ...Array.from({ length: 13 }, (_, i) => `1.30.${i}`),
  ...Array.from({ length: 8 }, (_, i) => `1.31.${i + 1}`),
  ...Array.from({ length: 5 }, (_, i) => `1.32.${i}`),
].map((version) => ({ version })).concat([{ version: "1.33.0", isPreview: true } as { version: string; isPreview?: boolean }]);

/**
 * westus2 as the recordings saw it: the versions their clusters ran and moved to (1.23.3 a preview, as
 * the recorded `orchestrators` list says), and a newer image of each family for node image upgrades to
 * move to (the recordings do not show which image they moved to: their reads were made mid-upgrade).
 */
function region() {
  return {
    kubernetesVersions: [{ version: "1.21.9" }, { version: "1.22.6" }, { version: "1.23.3", isPreview: true }, { version: "1.23.12" }, { version: "1.25.6" }],
    nodeImages: [
      { version: UBUNTU_1804_MAR },
      { version: "AKSUbuntu-1804gen2containerd-2022.04.05" },
      { version: UBUNTU_1804_OCT },
      { version: "AKSUbuntu-1804gen2containerd-2022.10.19" },
      { version: UBUNTU_2204_JUL },
    ],
  };
}

export interface AksRecording {
  file: string;
  fleet: Fleet;
  /** Interactions the emulator is expected to answer differently, and why. */
  known: KnownDifference[];
}

const cluster = (name: string, version: string, pools: Array<[string, string]>, upgradeMinutes: number) => ({
  name,
  region: "westus2",
  kubernetesVersion: version,
  nodePools: pools.map(([pool, image]) => ({ name: pool, orchestratorVersion: version, nodeImageVersion: image })),
  simulation: { upgradeMinutes },
});

/**
 * Configuration the emulator does not model (it models versions, states, operations and upgrades):
 * identity, network, storage, security, node sizing, FQDNs, SKU. Present in every recorded cluster and pool body.
 */
const UNMODELLED_CLUSTER =
  /^(identity|sku\.(name|tier)|properties\.(linuxProfile|servicePrincipalProfile|networkProfile|identityProfile|storageProfile|securityProfile|oidcIssuerProfile|workloadAutoScalerProfile|disableLocalAccounts|supportPlan|dnsPrefix|fqdn|azurePortalFQDN|nodeResourceGroup|enableRBAC|maxAgentPools|resourceUID|metricsProfile|bootstrapProfile))/;
const UNMODELLED_POOL =
  /(^properties|agentPoolProfiles\[\d+\]|value\[\d+\]\.properties)\.(kubeletDiskType|osDiskType|enableAutoScaling|enableNodePublicIP|enableEncryptionAtHost|enableUltraSSD|enableFIPS|scaleDownMode|creationData|vmSize|count|nodeLabels|securityProfile|upgradeSettings\.(maxSurge|maxUnavailable|undrainableNodeBehavior))$/;

/** The compared interactions that answer a cluster (GET or PUT of `managedClusters/{name}`) and those that answer a pool. */
export interface Answering {
  clusters: number[];
  pools: number[];
}

/**
 * `eTag` on clusters and pools: no recorded AKS body carries one (2022, July 2023, June and July 2025), though
 * the REST spec has defined a read-only `eTag` since 2023-08-01 and AKS honours `If-Match`. The emulator keeps
 * it so that our backend's optimistic-concurrency path (If-Match → 412, re-read) is exercised; the backend
 * decides done and busy without it (src/backends/azure/steps.ts).
 */
export const ETAG_REASON =
  "no recorded AKS body carries eTag (2022, 2023, 2025), though the REST spec has defined a read-only one since 2023-08-01; the emulator keeps it so that our backend's If-Match path is exercised, and the backend decides without it";

/** What the recordings' cluster and pool bodies differ in from the emulator's, whatever the interaction. */
export function unmodelled(at: Answering, options: { recordedBefore2023?: boolean } = {}): KnownDifference[] {
  const both = [...at.clusters, ...at.pools].sort((a, b) => a - b);
  const supportPlan: KnownDifference[] =
    options.recordedBefore2023 === true && at.clusters.length > 0
      ? [{ interactions: at.clusters, kind: "emulatorOnly", at: "properties.supportPlan", reason: "AKS answers supportPlan since 2023 (the 2023 and 2025 recordings have it); these bodies are from 2022" }]
      : [];
  return [
    { interactions: both, kind: "emulatorOnly", at: /(^|\.)eTag$/, reason: ETAG_REASON },
    ...supportPlan,
    ...(at.clusters.length === 0
      ? []
      : [{ interactions: at.clusters, kind: "recordedOnly" as const, at: UNMODELLED_CLUSTER, reason: "cluster configuration the emulator does not model (identity, network, storage, security, FQDNs): it models versions, states and operations" }]),
    { interactions: both, kind: "recordedOnly", at: UNMODELLED_POOL, reason: "node pool sizing, VM and surge options the emulator does not model" },
  ];
}

export const RECORDINGS: Record<string, Omit<AksRecording, "known">> = {
  nodeImageCluster: {
    file: "test_aks_upgrade_node_image_only_cluster.yaml",
    fleet: FleetSchema.parse({ regions: { westus2: region() }, members: [cluster("cliakstest000001", "1.23.12", [["c000002", UBUNTU_1804_OCT]], 600)] }),
  },
  nodeImagePool: {
    file: "test_aks_upgrade_node_image_only_nodepool.yaml",
    fleet: FleetSchema.parse({ regions: { westus2: region() }, members: [cluster("cliakstest000001", "1.23.12", [["c000002", UBUNTU_1804_OCT]], 600)] }),
  },
  versionUpgrade: {
    file: "test_aks_snapshot.yaml",
    fleet: FleetSchema.parse({
      regions: { westus2: region() },
      members: [
        cluster("cliakstest000002", "1.21.9", [["c000004", UBUNTU_1804_MAR]], 30),
        // The recording adds c000005 (a node pool creation, skipped) before the upgrade; the emulator has it from the start.
        cluster("cliakstest000003", "1.22.6", [["c000005", UBUNTU_1804_MAR], ["c000004", UBUNTU_1804_MAR]], 30),
      ],
    }),
  },
  nodePoolStopStart: {
    file: "test_aks_nodepool_stop_and_start.yaml",
    fleet: FleetSchema.parse({
      regions: { westcentralus: { kubernetesVersions: [{ version: "1.32.5" }], nodeImages: [{ version: UBUNTU_2204_ARM_JUN16 }] } },
      members: [
        {
          // Created by the recording with `kubernetesVersion` left to AKS (1.32.5) and a NodeImage node OS channel;
          // the recording adds pool c000003 (its creation is skipped), the emulator's cluster has it from the start.
          ...cluster("cliakstest000002", "1.32.5", [["nodepool1", UBUNTU_2204_ARM_JUN16], ["c000003", UBUNTU_2204_ARM_JUN16]], 30),
          region: "westcentralus",
          autoUpgradeProfile: { nodeOSUpgradeChannel: "NodeImage" },
        },
      ],
    }),
  },
  versionUpgrade2025: {
    file: "test_aks_upgrade_with_tier_switch.yaml",
    fleet: FleetSchema.parse({
      regions: { westus2: { kubernetesVersions: JUNE_2025_WESTUS2, nodeImages: [{ version: UBUNTU_2204_ARM_JUN03 }] } },
      members: [{ ...cluster("cliakstest000001", "1.32.4", [["nodepool1", UBUNTU_2204_ARM_JUN03]], 16), autoUpgradeProfile: { nodeOSUpgradeChannel: "NodeImage" } }],
    }),
  },
  maintenance: {
    file: "test_aks_maintenanceconfiguration.yaml",
    fleet: FleetSchema.parse({ regions: { westus2: region() }, members: [cluster("cliakstest000002", "1.25.6", [["nodepool1", UBUNTU_2204_JUL]], 30)] }),
  },
};

/** Why an interaction is not replayed (docs/emulator-conformance.md, "Skipped"). */
export function skipReason(x: RecordedInteraction): string | undefined {
  const p = new URL(x.uri).pathname;
  if (/\/resourcegroups\/[^/]+$/i.test(p)) return "resource groups (Microsoft.Resources) are not served by the emulator";
  if (/\/snapshots(\/|$)/i.test(p)) return "AKS snapshots are not served by the emulator";
  if (/\/orchestrators$/i.test(p)) return "the legacy orchestrators list (api-version 2019-04-01) is not served; the emulator serves kubernetesVersions";
  if (x.method === "PUT" && x.status === 201 && /\/managedClusters\/[^/]+$/i.test(p)) return "cluster creation: the emulator serves the clusters its fleet file declares and creates none";
  if (x.method === "PUT" && x.status === 201 && /\/agentPools\/[^/]+$/i.test(p)) return "node pool creation: the emulator's pools are declared in its fleet file";
  if (x.method === "GET" && x.status === 404 && /\/managedClusters\/[^/]+$/i.test(p)) return "the recording reads the cluster before creating it; the emulator's exists from the start";
  if ((x.method === "PUT" || x.method === "DELETE") && /\/maintenanceConfigurations\//i.test(p)) return "maintenance configurations are declared in the fleet file; the emulator serves them read-only";
  return undefined;
}
