/**
 * What a run leaves for the next one (issue 5, retry and promotion): the members that failed, in a
 * form a new run takes as its `members`, and the node images actually applied, in a form a new run
 * takes as `customNodeImageVersions`.
 */
import { compareImageVersions, imageFamily } from "../model/nodeImage";
import type { RunState } from "./runState";

export interface FailedMember {
  name: string;
  group: string;
  clusterResourceId?: string;
}

/** Members Failed now, with their group and cluster, in status order. */
export function failedMembers(run: RunState): FailedMember[] {
  const out: FailedMember[] = [];
  for (const stage of run.stages) {
    for (const group of stage.groups) {
      for (const m of group.members) {
        if (m.state !== "Failed") continue;
        out.push({ name: m.name, group: group.name, ...(m.clusterResourceId === undefined ? {} : { clusterResourceId: m.clusterResourceId }) });
      }
    }
  }
  return out;
}

/**
 * One image per family: the images the run's Completed members had applied. When members of one
 * family got different images (Latest across regions), the oldest is kept: every member that got a
 * newer one also proved a build at least that old, and the oldest is the likeliest to be offered
 * wherever the next run goes (docs/behaviour.md "Retry and promotion").
 */
export function appliedNodeImageVersions(run: RunState): Array<{ version: string }> {
  const byFamily = new Map<string, string>();
  for (const stage of run.stages) {
    for (const group of stage.groups) {
      for (const m of group.members) {
        if (m.state !== "Completed" || m.request === undefined) continue;
        for (const version of Object.values(m.request.nodeImageVersions)) {
          const family = imageFamily(version);
          const kept = byFamily.get(family);
          if (kept === undefined || compareImageVersions(version, kept) < 0) byFamily.set(family, version);
        }
      }
    }
  }
  return [...byFamily.keys()].sort().map((family) => ({ version: byFamily.get(family) as string }));
}
