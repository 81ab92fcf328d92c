/**
 * The `Latest` node image rule as an upgrade applies it (docs/behaviour.md, "Latest: each pool's image
 * when its own re-imaging begins"), for the simulated fleet and so for the ARM emulator, whose writes
 * start their upgrades here: each pool the upgrade re-images takes the newest image of its family the
 * region offers when its re-imaging begins (`newestImageAt`, model/nodeImage.ts, the one rule), never
 * older than what the request names. The engine names, for each pool, the newest image when the
 * member's upgrade starts; the emulator names a pool's current image (AKS's `upgradeNodeImageVersion`
 * and a version upgrade take the newest by themselves): both are floors.
 *
 * When each pool's re-imaging begins: an upgrade runs part by part, as the ARM emulator shows it
 * (`src/emulator/arm/progress.ts`): the control plane first (Full), then each pool it changes, in
 * declaration order, each part an equal share of the upgrade's time. A pool whose Kubernetes version a
 * Full upgrade moves is re-imaged by that Kubernetes upgrade, which takes its images when it starts
 * (the upgrade's start, which is the member's recorded start); a pool whose image alone moves is
 * re-imaged at the start of its own part — the upgrade's start for the first such pool of a
 * NodeImageOnly upgrade.
 */
import { ownValue } from "../model/values";
import type { UpgradeRequest } from "../engine/backend";
import type { NodePool, Region } from "../model/fleet";
import { compareImageVersions, imageFamily, newestImageAt } from "../model/nodeImage";

/**
 * The images `request` gives each pool under the Latest rule, for an upgrade running from `startAt` to
 * `endAt` on a cluster whose pools are `pools`. Never older than what the request names.
 */
export function latestImagesByPart(pools: readonly NodePool[], request: UpgradeRequest, region: Region, startAt: number, endAt: number): Record<string, string> {
  const images = { ...request.nodeImageVersions };
  if (request.type === "ControlPlaneOnly") return images;
  const target = request.kubernetesVersion;
  const versionMoves = (pool: NodePool) => request.type === "Full" && target !== undefined && pool.orchestratorVersion !== target;
  // A pool named in a Latest request is re-imaged (to the newest image then, which may be its own).
  const changed = pools.filter((pool) => ownValue(images, pool.name) !== undefined || versionMoves(pool));
  const controlPlanePart = request.type !== "NodeImageOnly" && target !== undefined ? 1 : 0;
  const parts = controlPlanePart + changed.length;
  if (parts === 0) return images;
  const partMs = (endAt - startAt) / parts;
  changed.forEach((pool, i) => {
    const named = ownValue(images, pool.name);
    if (named === undefined) return;
    const begins = versionMoves(pool) ? startAt : startAt + (controlPlanePart + i) * partMs;
    const newest = newestImageAt(region.nodeImages, imageFamily(named), begins);
    if (newest !== undefined && compareImageVersions(newest, named) > 0) images[pool.name] = newest;
  });
  return images;
}
