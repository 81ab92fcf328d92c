/**
 * What a region offers at an instant, as ARM lists it: the Kubernetes versions list
 * (`locations/{location}/kubernetesVersions`, shape of `KubernetesVersions_List.json`), the node image
 * list (`locations/{location}/nodeImageVersions`, shape of `NodeImageVersions_List.json`), and the
 * version arithmetic the upgrade profiles and PUTs need. Only what is available at `now` is listed.
 */
import type { Region } from "../../model/fleet";
import { compareDotted, imageDate, imageFamily, newestImageAt } from "../../model/nodeImage";
import { isOffered } from "../../aks/upgradeRules";

export function availableKubernetesVersions(region: Region, now: number): string[] {
  return region.kubernetesVersions.filter((v) => isOffered(v, now)).map((v) => v.version).sort(compareDotted);
}

/** Whether the region offers `version` as a preview (`isPreview` in the fleet file). */
export function isPreviewVersion(region: Region, version: string): boolean {
  return region.kubernetesVersions.some((v) => v.version === version && v.isPreview === true);
}

export function availableNodeImages(region: Region, now: number): string[] {
  return region.nodeImages.filter((v) => isOffered(v, now)).map((v) => v.version);
}

export function minorOf(version: string): string {
  return version.split(".").slice(0, 2).join(".");
}

/**
 * A requested version as AKS reads it: `major.minor` means the newest available patch of that minor,
 * and asking for the minor a cluster already runs does not move it (AKS: "updating the cluster with
 * the same <major.minor> will not trigger an upgrade"). A full `major.minor.patch` is taken as is.
 */
export function resolveRequestedVersion(requested: string, current: string, available: string[]): string {
  if (!/^\d+\.\d+$/.test(requested)) return requested;
  if (minorOf(current) === requested) return current;
  return available.filter((v) => minorOf(v) === requested).at(-1) ?? `${requested}.0`;
}

/** Versions a control plane on `from` may move to: newer, same major, at most one minor ahead. */
export function upgradeTargets(from: string, available: string[]): string[] {
  const [major, minor] = from.split(".").map(Number);
  return available.filter((v) => {
    const [m, n] = v.split(".").map(Number);
    return compareDotted(v, from) > 0 && m === major && n !== undefined && minor !== undefined && n <= minor + 1;
  });
}

/** Body of `GET locations/{location}/kubernetesVersions`: minors, each with its patches and their upgrades. */
export function kubernetesVersionList(region: Region, now: number): { values: unknown[] } {
  const available = availableKubernetesVersions(region, now);
  // Newest first, as AKS lists them (the recorded June 2025 westus2 list: 1.33, 1.32, ..., 1.27).
  const minors = [...new Set(available.map(minorOf))].reverse();
  const isPreviewMinor = (minor: string) => available.filter((v) => minorOf(v) === minor).every((patch) => isPreviewVersion(region, patch));
  // The default is the newest generally available minor but one (recorded: 1.31 while 1.32 is GA and 1.33 a preview).
  const generallyAvailable = minors.filter((minor) => !isPreviewMinor(minor));
  const defaultMinor = generallyAvailable[1] ?? generallyAvailable[0] ?? minors[0];
  return {
    values: minors.map((minor) => {
      const patchVersions: Record<string, { upgrades: string[] }> = {};
      for (const patch of available.filter((v) => minorOf(v) === minor)) patchVersions[patch] = { upgrades: upgradeTargets(patch, available) };
      return {
        version: minor,
        // A minor is a preview while every patch of it is (as ARM lists 1.33 with `isPreview: true`).
        ...(isPreviewMinor(minor) ? { isPreview: true } : {}),
        ...(minor === defaultMinor ? { isDefault: true } : {}),
        capabilities: { supportPlan: ["KubernetesOfficial"] },
        patchVersions,
      };
    }),
  };
}

/**
 * Body of `GET locations/{location}/nodeImageVersions`: as in ARM, only the newest image of each
 * family offered now ("Only returns the latest version of each node image"), `os` and `sku` split from
 * the family.
 */
export function nodeImageVersionList(region: Region, now: number): { value: unknown[] } {
  const families = [...new Set(availableNodeImages(region, now).map(imageFamily))];
  return {
    value: families.map((family) => newestImageAt(region.nodeImages, family, now) as string).map((fullName) => {
      const family = imageFamily(fullName);
      const cut = family.indexOf("-");
      return {
        fullName,
        os: cut < 0 ? family : family.slice(0, cut),
        sku: cut < 0 ? "" : family.slice(cut + 1),
        version: imageDate(fullName),
      };
    }),
  };
}
