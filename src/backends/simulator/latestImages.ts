/**
 * The `Latest` node image rule as the simulated fleet applies it (docs/behaviour.md, "Latest: each
 * pool's image when its own re-imaging begins"): the engine names, for each pool, the newest image of
 * its family when the member's upgrade starts; a pool that the upgrade re-images later takes the newest
 * image of its family offered in the region at that later moment — as through ARM, where a node image
 * upgrade always goes to the region's newest image and the pools of a cluster are re-imaged one after
 * another.
 *
 * When each pool's re-imaging begins: an upgrade runs part by part, as the ARM emulator shows it
 * (`src/emulator/arm/progress.ts`): the control plane first (Full), then each pool it changes, in
 * declaration order, each part an equal share of the upgrade's time. A pool whose Kubernetes version a Full
 * upgrade moves is re-imaged by that Kubernetes upgrade, which takes its images when it starts (as
 * AKS, and the emulator's managed cluster PUT, do); a pool whose image alone moves is re-imaged at the
 * start of its own part.
 */
import { ownValue } from "../../model/common";
import type { UpgradeRequest } from "../../engine/backend";
import type { NodePool, Region } from "../../model/fleet";
import { compareImageVersions, imageFamily } from "../../model/nodeImage";

/** Newest image of `family` the region offers at `at`, if any. */
export function newestImageAt(region: Region, family: string, at: number): string | undefined {
  let best: string | undefined;
  for (const offered of region.nodeImages) {
    if (imageFamily(offered.version) !== family) continue;
    if (offered.availableAt !== undefined && Date.parse(offered.availableAt) > at) continue;
    if (best === undefined || compareImageVersions(offered.version, best) > 0) best = offered.version;
  }
  return best;
}

/**
 * The images `request` gives each pool under the Latest rule, for an upgrade running from `startAt` to
 * `endAt` on a cluster whose pools are `pools`. Never older than what the request names.
 */
export function latestImagesByPart(pools: readonly NodePool[], request: UpgradeRequest, region: Region, startAt: number, endAt: number): Record<string, string> {
  const images = { ...request.nodeImageVersions };
  if (request.type === "ControlPlaneOnly") return images;
  const target = request.kubernetesVersion;
  const versionMoves = (pool: NodePool) => request.type === "Full" && target !== undefined && pool.orchestratorVersion !== target;
  const changed = pools.filter((pool) => {
    const image = ownValue(images, pool.name);
    return (image !== undefined && image !== pool.nodeImageVersion) || versionMoves(pool);
  });
  const controlPlanePart = request.type !== "NodeImageOnly" && target !== undefined ? 1 : 0;
  const parts = controlPlanePart + changed.length;
  if (parts === 0) return images;
  const partMs = (endAt - startAt) / parts;
  changed.forEach((pool, i) => {
    const named = ownValue(images, pool.name);
    if (named === undefined || versionMoves(pool)) return;
    const newest = newestImageAt(region, imageFamily(named), startAt + (controlPlanePart + i) * partMs);
    if (newest !== undefined && compareImageVersions(newest, named) > 0) images[pool.name] = newest;
  });
  return images;
}
