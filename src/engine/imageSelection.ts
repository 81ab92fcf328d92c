/**
 * docs/rules.md §3.6, at run start: Consistent picks one version per image family for the whole run, Custom
 * takes the user's; both are recorded in `status.nodeImageSelection`. Latest picks per member at its
 * start (see `nodeImages.ts`), so nothing is recorded here.
 */
import { isPending, type ClusterInfo } from "./backend";
import type { EngineContext } from "./context";
import { selectConsistentVersions } from "./nodeImages";
import { runUpdate } from "./runState";
import { customImageVersions } from "../model/update";

export async function selectRunImages(ctx: EngineContext, now: number): Promise<void> {
  const update = runUpdate(ctx.run);
  const selection = update.nodeImageSelection?.type ?? "Latest";
  if (update.upgrade.type === "ControlPlaneOnly" || selection === "Latest") {
    ctx.run.selectedNodeImageVersions = [];
    return;
  }
  if (selection === "Custom") {
    ctx.run.selectedNodeImageVersions = customImageVersions(update);
    return;
  }
  const clusters: ClusterInfo[] = [];
  for (const stage of ctx.run.stages) {
    for (const group of stage.groups) {
      for (const member of group.members) {
        const answer = ctx.cluster(member, false);
        clusters.push(isPending(answer) ? await answer : answer);
      }
    }
  }
  for (const region of new Set(clusters.map((c) => c.region))) await ctx.offer(region);
  ctx.run.selectedNodeImageVersions = selectConsistentVersions(clusters, (region) => ctx.offers.get(region) as NonNullable<ReturnType<typeof ctx.offers.get>>, now);
}
