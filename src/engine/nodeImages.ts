/**
 * docs/rules.md §3.6 node image selection. `Latest`: newest image of the pool's family offered in the member's
 * region when its upgrade starts. `Consistent`: at run start, per family, the newest version offered
 * in every region that uses the family. `Custom`: the given version per family; pools of unlisted
 * families are not re-imaged. An image is never moved backwards: a pool already at or past its target
 * counts as at target.
 */
import { compareImageVersions, imageFamily, isOfferedAt, newestImageAt } from "../model/nodeImage";
import type { ManagedClusterUpdate } from "../model/update";
import type { ClusterInfo, NodePoolInfo, OfferedVersion, RegionOffer } from "./backend";

/** When `version` is (or becomes) available in the offer: 0-like past instant, a future instant, or undefined = never listed. */
export function availability(offers: readonly OfferedVersion[], version: string, now: number): { now: boolean; at?: number } {
  let at: number | undefined;
  for (const o of offers) {
    if (o.version !== version) continue;
    if (isOfferedAt(o, now)) return { now: true };
    if (o.availableAt !== undefined && (at === undefined || o.availableAt < at)) at = o.availableAt;
  }
  return at === undefined ? { now: false } : { now: false, at };
}

/**
 * Consistent selection (docs/rules.md §3.6): for each family used by any pool, the newest version offered now
 * in every region of the members using that family. Families with no common version are absent.
 */
export function selectConsistentVersions(
  clusters: ReadonlyArray<Pick<ClusterInfo, "region" | "nodePools">>,
  offerOf: (region: string) => RegionOffer,
  now: number,
): string[] {
  const regionsOf = new Map<string, Set<string>>();
  for (const cluster of clusters) {
    for (const pool of cluster.nodePools) {
      const family = imageFamily(pool.nodeImageVersion);
      const regions = regionsOf.get(family) ?? new Set<string>();
      regions.add(cluster.region);
      regionsOf.set(family, regions);
    }
  }
  const picks: string[] = [];
  for (const [family, regions] of regionsOf) {
    let common: Set<string> | undefined;
    for (const region of regions) {
      const here = new Set(offerOf(region).nodeImages.filter((o) => isOfferedAt(o, now) && imageFamily(o.version) === family).map((o) => o.version));
      common = common === undefined ? here : new Set([...common].filter((v) => here.has(v)));
    }
    const newest = [...(common ?? [])].sort(compareImageVersions).pop();
    if (newest !== undefined) picks.push(newest);
  }
  return picks.sort();
}

/** What the run wants for one pool's image. */
export type PoolImageTarget =
  | { kind: "none" } // not re-imaged (Custom without this family, Latest with nothing offered, ControlPlaneOnly)
  | { kind: "version"; version: string }
  | { kind: "noConsistentVersion"; family: string }; // Consistent found no common version: member is Skipped

export function poolImageTarget(
  update: ManagedClusterUpdate,
  selected: readonly string[] | undefined,
  pool: NodePoolInfo,
  offer: RegionOffer,
  now: number,
): PoolImageTarget {
  if (update.upgrade.type === "ControlPlaneOnly") return { kind: "none" };
  const family = imageFamily(pool.nodeImageVersion);
  const selection = update.nodeImageSelection?.type ?? "Latest";
  if (selection === "Latest") {
    // The one "latest at an instant" rule (model/nodeImage.ts), at the member's start.
    const newest = newestImageAt(offer.nodeImages, family, now);
    return newest === undefined ? { kind: "none" } : { kind: "version", version: newest };
  }
  const pick = (selected ?? []).find((v) => imageFamily(v) === family);
  if (pick !== undefined) return { kind: "version", version: pick };
  return selection === "Consistent" ? { kind: "noConsistentVersion", family } : { kind: "none" };
}

/** The image this pool moves to, or undefined: no target, or the pool is at or past it (never moved back). */
export function imageToApply(pool: NodePoolInfo, target: PoolImageTarget): string | undefined {
  return target.kind === "version" && compareImageVersions(pool.nodeImageVersion, target.version) < 0 ? target.version : undefined;
}
