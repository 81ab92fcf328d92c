/**
 * The AKS rules the simulated fleet enforces when an upgrade is requested (docs/rules.md §7: no downgrade, no
 * skipped minor version, pools not above the control plane; plus what the region offers), and what an
 * accepted request does to the cluster. Pure functions: no clock, no state.
 *
 * Choice (AKS allows node pools to lag behind the control plane and catch up in one step): in a `Full`
 * upgrade only the control plane must move one minor version at a time; every pool jumps straight to
 * the target, whatever minor version it is on.
 */
import { BackendError, type UpgradeRequest } from "../engine/backend";
import type { NodePool, Region } from "../model/fleet";
import { isoInstant } from "../model/instants";
import { ownValue } from "../model/values";
import { compareDotted, compareImageVersions, dottedParts, imageFamily, isOfferedAt } from "../model/nodeImage";
import {
  INVALID_PARAMETER,
  KUBERNETES_VERSION_NOT_AVAILABLE,
  NODE_IMAGE_FAMILY_MISMATCH,
  NODE_IMAGE_VERSION_NOT_AVAILABLE,
  NODE_POOL_VERSION_ABOVE_CONTROL_PLANE,
  UPGRADE_DOWNGRADE_NOT_ALLOWED,
  UPGRADE_MINOR_VERSION_SKIP_NOT_ALLOWED,
} from "./errorCodes";

/** What an upgrade changes: the control plane version and the node pools. */
export interface ClusterVersions {
  kubernetesVersion: string;
  nodePools: NodePool[];
}

/** The cluster being upgraded, as the rules need to see it. */
export interface UpgradeTarget extends ClusterVersions {
  name: string;
  regionName: string;
  region: Region;
}

const KUBERNETES_VERSION = /^(\d+)\.(\d+)\.(\d+)$/;

/** The cluster's versions once `request` has been applied. Used to check a request and to apply it. */
export function applyUpgrade(cluster: ClusterVersions, request: UpgradeRequest): ClusterVersions {
  const target = request.kubernetesVersion;
  const changesPools = request.type !== "ControlPlaneOnly";
  return {
    kubernetesVersion: request.type === "NodeImageOnly" || target === undefined ? cluster.kubernetesVersion : target,
    nodePools: cluster.nodePools.map((pool) => ({
      name: pool.name,
      orchestratorVersion: request.type === "Full" && target !== undefined ? target : pool.orchestratorVersion,
      nodeImageVersion: (changesPools ? ownValue(request.nodeImageVersions, pool.name) : undefined) ?? pool.nodeImageVersion,
    })),
  };
}

/** Throws a `BackendError` naming the first rule `request` breaks; returns when AKS would accept it. */
export function checkUpgradeRequest(cluster: UpgradeTarget, request: UpgradeRequest, now: number): void {
  checkRequestShape(cluster, request);
  if (request.kubernetesVersion !== undefined) checkKubernetesTarget(cluster, request, request.kubernetesVersion, now);
  checkPoolsNotAboveControlPlane(cluster, applyUpgrade(cluster, request));
  checkNodeImages(cluster, request, now);
}

function refuse(code: string, cluster: UpgradeTarget, problem: string): never {
  throw new BackendError(code, `Managed cluster '${cluster.name}': ${problem}`);
}

function checkRequestShape(cluster: UpgradeTarget, request: UpgradeRequest): void {
  const version = request.kubernetesVersion;
  if (request.type === "NodeImageOnly") {
    if (version !== undefined) refuse(INVALID_PARAMETER, cluster, `a NodeImageOnly upgrade takes no Kubernetes version (got ${version}).`);
  } else if (version === undefined) {
    refuse(INVALID_PARAMETER, cluster, `a ${request.type} upgrade needs a target Kubernetes version.`);
  } else if (!KUBERNETES_VERSION.test(version)) {
    refuse(INVALID_PARAMETER, cluster, `'${version}' is not a Kubernetes version of the form major.minor.patch.`);
  }
  const poolNames = Object.keys(request.nodeImageVersions);
  if (request.type === "ControlPlaneOnly" && poolNames.length > 0) {
    refuse(INVALID_PARAMETER, cluster, `a ControlPlaneOnly upgrade never changes node pools, but node images were requested for ${poolNames.join(", ")}.`);
  }
  for (const poolName of poolNames) {
    if (!cluster.nodePools.some((pool) => pool.name === poolName)) {
      refuse(INVALID_PARAMETER, cluster, `there is no node pool '${poolName}' (pools: ${cluster.nodePools.map((p) => p.name).join(", ")}).`);
    }
  }
}

function checkKubernetesTarget(cluster: UpgradeTarget, request: UpgradeRequest, target: string, now: number): void {
  const current = cluster.kubernetesVersion;
  if (compareDotted(target, current) < 0) {
    refuse(UPGRADE_DOWNGRADE_NOT_ALLOWED, cluster, `upgrading the control plane from ${current} to ${target} is a downgrade, which AKS does not allow.`);
  }
  if (request.type === "Full") {
    for (const pool of cluster.nodePools) {
      if (compareDotted(target, pool.orchestratorVersion) < 0) {
        refuse(UPGRADE_DOWNGRADE_NOT_ALLOWED, cluster, `upgrading node pool '${pool.name}' from ${pool.orchestratorVersion} to ${target} is a downgrade, which AKS does not allow.`);
      }
    }
  }
  const [fromMajor, fromMinor] = majorMinor(current);
  const [toMajor, toMinor] = majorMinor(target);
  if (toMajor !== fromMajor || toMinor > fromMinor + 1) {
    refuse(
      UPGRADE_MINOR_VERSION_SKIP_NOT_ALLOWED,
      cluster,
      `upgrading the control plane from ${current} to ${target} skips a minor version; AKS upgrades the control plane one minor version at a time (next: ${fromMajor}.${fromMinor + 1}).`,
    );
  }
  const offer = cluster.region.kubernetesVersions.find((v) => v.version === target);
  if (!isOffered(offer, now)) {
    refuse(KUBERNETES_VERSION_NOT_AVAILABLE, cluster, `Kubernetes version ${target} is not available in region ${cluster.regionName}${availabilityNote(offer)}.`);
  }
}

function checkPoolsNotAboveControlPlane(cluster: UpgradeTarget, after: ClusterVersions): void {
  for (const pool of after.nodePools) {
    if (compareDotted(pool.orchestratorVersion, after.kubernetesVersion) > 0) {
      refuse(
        NODE_POOL_VERSION_ABOVE_CONTROL_PLANE,
        cluster,
        `node pool '${pool.name}' would run Kubernetes ${pool.orchestratorVersion}, above the control plane's ${after.kubernetesVersion}; a node pool may not be newer than the control plane.`,
      );
    }
  }
}

function checkNodeImages(cluster: UpgradeTarget, request: UpgradeRequest, now: number): void {
  for (const pool of cluster.nodePools) {
    const image = ownValue(request.nodeImageVersions, pool.name);
    if (image === undefined) continue;
    const current = pool.nodeImageVersion;
    if (imageFamily(image) !== imageFamily(current)) {
      refuse(NODE_IMAGE_FAMILY_MISMATCH, cluster, `node pool '${pool.name}' runs image family ${imageFamily(current)}; node image ${image} is of family ${imageFamily(image)}.`);
    }
    if (compareImageVersions(image, current) < 0) {
      refuse(UPGRADE_DOWNGRADE_NOT_ALLOWED, cluster, `moving node pool '${pool.name}' from node image ${current} to ${image} is a downgrade, which AKS does not allow.`);
    }
    // A pool named at its own image (a Latest floor, as the ARM emulator names it) moves to nothing yet.
    if (image === current) continue;
    const offer = cluster.region.nodeImages.find((v) => v.version === image);
    if (!isOffered(offer, now)) {
      refuse(NODE_IMAGE_VERSION_NOT_AVAILABLE, cluster, `node image ${image} is not available in region ${cluster.regionName}${availabilityNote(offer)}.`);
    }
  }
}

function majorMinor(version: string): [number, number] {
  const [major = 0, minor = 0] = dottedParts(version);
  return [major, minor];
}

/** The region offers `offer` at `now`: it is listed, and its `availableAt` (if any) has passed. */
export function isOffered(offer: { availableAt?: string } | undefined, now: number): boolean {
  return offer !== undefined && isOfferedAt(offer, now);
}

function availabilityNote(offer: { availableAt?: string } | undefined): string {
  if (offer === undefined) return " (not offered there)";
  return offer.availableAt === undefined ? "" : ` until ${isoInstant(Date.parse(offer.availableAt))}`;
}
