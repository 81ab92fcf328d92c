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

/**
 * Whether `version` is offered at `now`, and if not, from when (undefined: not listed). A version a
 * region lists twice counts by its first listing, as AKS's own checks read the offer
 * (aks/upgradeRules.ts): the engine waits for the instant at which AKS will accept it.
 */
export function availability(offers: readonly OfferedVersion[], version: string, now: number): { now: boolean; at: number | undefined } {
  const offered = offers.find((o) => o.version === version);
  if (offered !== undefined && isOfferedAt(offered, now)) return { now: true, at: undefined };
  return { now: false, at: offered?.availableAt };
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
    // Each family is some pool's, so it has a region.
    const [first, ...others] = [...regions].map((region) => new Set(offerOf(region).nodeImages.filter((o) => isOfferedAt(o, now) && imageFamily(o.version) === family).map((o) => o.version)));
    const common = [...first!].filter((v) => others.every((here) => here.has(v)));
    const newest = common.sort(compareImageVersions).pop();
    if (newest !== undefined) picks.push(newest);
  }
  return picks.sort();
}

/** What the run wants for one pool's image. */
export type PoolImageTarget =
  | { kind: "none" } // not re-imaged (Custom without this family, Latest with nothing offered, ControlPlaneOnly)
  | { kind: "version"; version: string }
  | { kind: "noConsistentVersion"; family: string }; // Consistent found no common version: member is Skipped

/** One object for every pool not re-imaged: only `version` and `noConsistentVersion` are ever asked about. */
const NOT_REIMAGED: PoolImageTarget = { kind: "none" };

export function poolImageTarget(
  update: ManagedClusterUpdate,
  selected: readonly string[] | undefined,
  pool: NodePoolInfo,
  offer: RegionOffer,
  now: number,
): PoolImageTarget {
  if (update.upgrade.type === "ControlPlaneOnly") return NOT_REIMAGED;
  const family = imageFamily(pool.nodeImageVersion);
  const selection = update.nodeImageSelection?.type ?? "Latest";
  if (selection === "Latest") {
    // The one "latest at an instant" rule (model/nodeImage.ts), at the member's start.
    const newest = newestImageAt(offer.nodeImages, family, now);
    return newest === undefined ? NOT_REIMAGED : { kind: "version", version: newest };
  }
  const pick = (selected ?? []).find((v) => imageFamily(v) === family);
  if (pick !== undefined) return { kind: "version", version: pick };
  return selection === "Consistent" ? { kind: "noConsistentVersion", family } : NOT_REIMAGED;
}

/** The image this pool moves to, or undefined: no target, or the pool is at or past it (never moved back). */
export function imageToApply(pool: NodePoolInfo, target: PoolImageTarget): string | undefined {
  return target.kind === "version" && compareImageVersions(pool.nodeImageVersion, target.version) < 0 ? target.version : undefined;
}
