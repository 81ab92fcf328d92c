/**
 * How many times each part of each cluster was actually upgraded, replayed from the operations the
 * simulated fleet recorded (with what each asked for): the control plane's version, and each pool's
 * version and image, count once per succeeded operation that changed them. Through ARM a node image
 * upgrade is one operation per pool, in process one per cluster; counted per part, both must agree, and
 * a write sent twice shows up as a part upgraded twice. Failed (and aborted) operations change nothing
 * and are counted per cluster.
 */
import type { FleetState } from "../../../../src/backends/simulator";
import { applyUpgrade } from "../../../../src/aks/upgradeRules";
import type { Scenario } from "../../../../src/simulation/scenario";

export interface ClusterUpgrades {
  /** `controlPlane`, `<pool>/version`, `<pool>/image` → times changed; parts never changed are left out. */
  changed: Record<string, number>;
  failedOperations: number;
}

export function upgradeCounts(scenario: Scenario, state: FleetState): Record<string, ClusterUpgrades> {
  const out: Record<string, ClusterUpgrades> = {};
  for (const member of scenario.members) {
    let versions = { kubernetesVersion: member.kubernetesVersion, nodePools: member.nodePools.map((p) => ({ ...p })) };
    const counts: ClusterUpgrades = { changed: {}, failedOperations: 0 };
    const bump = (part: string) => (counts.changed[part] = (counts.changed[part] ?? 0) + 1);
    for (const op of state.clusters[member.name]?.operations ?? []) {
      if (op.result !== "Succeeded") {
        if (op.result !== undefined) counts.failedOperations += 1;
        continue;
      }
      const after = applyUpgrade(versions, op.request);
      if (after.kubernetesVersion !== versions.kubernetesVersion) bump("controlPlane");
      after.nodePools.forEach((pool, i) => {
        const before = versions.nodePools[i];
        if (pool.orchestratorVersion !== before?.orchestratorVersion) bump(`${pool.name}/version`);
        if (pool.nodeImageVersion !== before?.nodeImageVersion) bump(`${pool.name}/image`);
      });
      versions = after;
    }
    out[member.name] = counts;
  }
  return out;
}
