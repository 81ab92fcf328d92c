/**
 * The ARM part's clusters as the Fleet Manager part sees them (`ArmClusters`, ../ports.ts): the
 * simulated fleet behind the managedClusters routes, minus the clusters deleted through ARM, and
 * busy while ARM deletes the cluster or a pool, or cancels an aborted upgrade (`lifecycle.ts`).
 */
import type { OfferedKubernetesVersion } from "../../engine/autoUpgradeChannel";
import type { SimulatedCluster } from "../../model/fleet";
import { findMember } from "../core/context";
import type { ArmClusters } from "../ports";
import { isDeleted, readCluster, type ViewSource } from "./clusterView";
import { isPreviewVersion, kubernetesVersionList } from "./offers";

/** One minor of ARM's `KubernetesVersionListResult.values`. */
interface ListedMinor {
  version: string;
  isPreview?: boolean;
  capabilities?: { supportPlan?: string[] };
  patchVersions: Record<string, unknown>;
}

export function armClusters(source: ViewSource): ArmClusters {
  return {
    sim: source.sim,

    cluster(name: string): SimulatedCluster | undefined {
      const found = findMember(source.fleet, name);
      return found === undefined || isDeleted(source, found.name) ? undefined : found;
    },

    lifecycleOperation(name: string): { endAt: number } | undefined {
      const now = source.clock.now();
      const running = [source.lifecycle.deletion(name), source.lifecycle.abort(name), ...source.lifecycle.poolDeletions(name), ...source.lifecycle.poolUpdates(name)];
      return running.find((op) => op !== undefined && now < op.endAt);
    },

    async lifecycleOperationShown(name: string): Promise<"delete" | "abort" | "update" | undefined> {
      const description = findMember(source.fleet, name);
      if (description === undefined) return undefined;
      const view = await readCluster(source, description);
      if (view.deleting !== undefined || view.deletingPools.size > 0) return "delete";
      if (view.canceling !== undefined) return "abort";
      return view.updatingPools.size > 0 ? "update" : undefined;
    },

    kubernetesVersionsOffered(region: string): OfferedKubernetesVersion[] | undefined {
      const offers = source.fleet.regions[region];
      if (offers === undefined) return undefined;
      // Read off the very body the kubernetesVersions route answers, so a channel chooses among what a client sees.
      const listed = kubernetesVersionList(offers, source.clock.now()).values as ListedMinor[];
      return listed.flatMap((minor) =>
        Object.keys(minor.patchVersions).map((version) => ({
          version,
          // ARM marks whole minors; a preview patch of a GA minor is still a preview (the fleet file says so).
          ...(minor.isPreview === true || isPreviewVersion(offers, version) ? { isPreview: true } : {}),
          supportPlan: minor.capabilities?.supportPlan ?? [],
        })),
      );
    },
  };
}
