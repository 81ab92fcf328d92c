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
  /^(identity|sku\.(name|tier)|properties\.(linuxProfile|servicePrincipalProfile|networkProfile|identityProfile|storageProfile|securityProfile|oidcIssuerProfile|workloadAutoScalerProfile|disableLocalAccounts|supportPlan|dnsPrefix|fqdn|azurePortalFQDN|nodeResourceGroup|enableRBAC|maxAgentPools))/;
const UNMODELLED_POOL = /(^properties|agentPoolProfiles\[\d+\]|value\[\d+\]\.properties)\.(kubeletDiskType|osDiskType|enableAutoScaling|enableNodePublicIP|enableEncryptionAtHost|enableUltraSSD|enableFIPS|scaleDownMode|creationData|vmSize|count)$/;

/** The compared interactions that answer a cluster (GET or PUT of `managedClusters/{name}`) and those that answer a pool. */
export interface Answering {
  clusters: number[];
  pools: number[];
}

/** What the recordings' cluster and pool bodies differ in from the emulator's, whatever the interaction. */
export function unmodelled(at: Answering, options: { recordedBefore2023?: boolean } = {}): KnownDifference[] {
  const both = [...at.clusters, ...at.pools].sort((a, b) => a - b);
  const before2023: KnownDifference[] =
    options.recordedBefore2023 === true
      ? [
          {
            interactions: both,
            kind: "emulatorOnly",
            at: /(^|\.)eTag$/,
            reason: "AKS answers eTag (cluster and pool) from api-version 2023-08-01 on; these bodies were recorded in 2022 (the URIs' api-version was rewritten later). The emulator keeps it: our ARM backend writes with If-Match",
          },
          ...(at.clusters.length === 0 ? [] : [{ interactions: at.clusters, kind: "emulatorOnly" as const, at: "properties.supportPlan", reason: "AKS answers supportPlan since 2023 (the 2023 recording has it); these bodies are from 2022" }]),
        ]
      : [];
  return [
    ...before2023,
    ...(at.clusters.length === 0
      ? []
      : [{ interactions: at.clusters, kind: "recordedOnly" as const, at: UNMODELLED_CLUSTER, reason: "cluster configuration the emulator does not model (identity, network, storage, security, FQDNs): it models versions, states and operations" }]),
    { interactions: both, kind: "recordedOnly", at: UNMODELLED_POOL, reason: "node pool sizing and VM options the emulator does not model" },
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
