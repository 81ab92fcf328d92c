/**
 * Drift (`pulumi refresh`, docs/behaviour.md "Refresh and drift"): a member the run Completed whose
 * cluster no longer reports what the run applied — rolled back, re-created, or changed by hand since.
 * The run itself is history and does not change; drift is reported beside it so a refresh shows it
 * and a new run can put it right.
 */
import type { ClusterBackend } from "./backend";
import { clusterMismatch } from "./healthCheck";
import { memberRef, type RunState } from "./runState";

export interface MemberDrift {
  member: string;
  /** What the cluster reports now against what the run applied. */
  message: string;
}

/** Reads each Completed member's cluster; those that moved away from the run's target, in run order. */
export async function driftOf(run: RunState, backend: ClusterBackend): Promise<MemberDrift[]> {
  const completed = run.stages.flatMap((s) => s.groups.flatMap((g) => g.members)).filter((m) => m.state === "Completed" && m.request !== undefined);
  const drift: MemberDrift[] = [];
  for (const member of completed) {
    let message: string | undefined;
    try {
      // Versions and images only: a cluster busy with something else now has not drifted.
      const { provisioningState: _busy, ...cluster } = await backend.getCluster(memberRef(member));
      message = clusterMismatch(cluster, member.request!);
    } catch (e) {
      message = `the cluster cannot be read: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (message !== undefined) drift.push({ member: member.name, message: `${message} (the run left it at its target)` });
  }
  return drift;
}
