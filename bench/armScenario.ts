/**
 * A generated fleet-sized scenario for runs through the ARM emulator (`bench/arm.ts` and
 * `test/backends/azure/throttling.test.ts`): `stages` × `groupsPerStage` groups × `membersPerGroup` members,
 * one region, a Full upgrade 1.31.2 → 1.32.0 with the newest node image, every group with the same
 * `maxConcurrency`, every upgrade taking `upgradeMinutes`. Validated like a scenario file.
 */
import { validateScenario, type Scenario } from "../src/simulation/scenario";

export interface FleetScenarioShape {
  stages: number;
  groupsPerStage: number;
  membersPerGroup: number;
  /** Group `maxConcurrency`, e.g. "5". */
  maxConcurrency: string;
  upgradeMinutes: number;
}

export const FLEET_SCENARIO_200: FleetScenarioShape = { stages: 2, groupsPerStage: 10, membersPerGroup: 10, maxConcurrency: "5", upgradeMinutes: 10 };

/** Issue 21: 500 members (2 stages × 5 groups × 50), each group 20% at a time (10 members). */
export const FLEET_SCENARIO_500_PACED: FleetScenarioShape = { stages: 2, groupsPerStage: 5, membersPerGroup: 50, maxConcurrency: "20%", upgradeMinutes: 10 };

export const OLD_IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
export const NEW_IMAGE = "AKSUbuntu-2204gen2containerd-202611.24.0";

export function fleetScenario(shape: FleetScenarioShape = FLEET_SCENARIO_200): Scenario {
  const members: unknown[] = [];
  const stages: unknown[] = [];
  for (let s = 0; s < shape.stages; s++) {
    const groups: unknown[] = [];
    for (let g = 0; g < shape.groupsPerStage; g++) {
      const group = `s${s}-g${g}`;
      groups.push({ name: group, maxConcurrency: shape.maxConcurrency });
      for (let m = 0; m < shape.membersPerGroup; m++) {
        members.push({
          name: `${group}-m${m}`,
          group,
          region: "westeurope",
          kubernetesVersion: "1.31.2",
          nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: OLD_IMAGE }],
          simulation: { upgradeMinutes: shape.upgradeMinutes },
        });
      }
    }
    stages.push({ name: `stage-${s}`, groups });
  }
  return validateScenario({
    start: "2026-12-05T00:00:00Z",
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: OLD_IMAGE }, { version: NEW_IMAGE }] } },
    members,
    strategy: { stages },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Latest" } },
  });
}
