/**
 * What must be equal between a run in process and the same run through ARM: every final state (run,
 * stages, their waits and gates, groups, members), every cluster's versions, and how many times each part of each
 * cluster was upgraded. Times and messages are left out: requests through ARM take real time, and the
 * Azure backend words some errors differently.
 */
import type { FleetState } from "../../../../src/backends/simulator";
import type { Scenario } from "../../../../src/simulation/scenario";
import type { UpdateStageStatus } from "../../../../src/model/status";
import type { SimulationReport } from "../../../../src/simulation/simulateScenario";
import { upgradeCounts, type ClusterUpgrades } from "./upgradeCount";

export interface Outcome {
  run: string;
  stages: Array<{ name: string; state: string; wait?: string; gates?: Array<[string, string]>; groups: Array<{ name: string; state: string; gates?: Array<[string, string]>; members: Array<[string, string]> }> }>;
  clusters: Array<{ name: string; kubernetesVersion: string; nodePools: Array<{ name: string; orchestratorVersion: string; nodeImageVersion: string }>; upgrades: ClusterUpgrades }>;
}

export function outcomeOf(scenario: Scenario, report: SimulationReport, fleetState: FleetState): Outcome {
  const { status, clusters } = report.result;
  const upgrades = upgradeCounts(scenario, fleetState);
  return {
    run: status.status.state,
    stages: status.stages.map((s) => ({
      name: s.name,
      state: s.status.state,
      ...(s.afterStageWaitStatus === undefined ? {} : { wait: s.afterStageWaitStatus.status.state }),
      ...gatesOf(s),
      groups: s.groups.map((g) => ({ name: g.name, state: g.status.state, ...gatesOf(g), members: g.members.map((m): [string, string] => [m.name, m.status.state]) })),
    })),
    clusters: clusters.map((c) => ({
      name: c.name,
      kubernetesVersion: c.kubernetesVersion,
      nodePools: c.nodePools.map(({ name, orchestratorVersion, nodeImageVersion }) => ({ name, orchestratorVersion, nodeImageVersion })),
      upgrades: upgrades[c.name] as ClusterUpgrades,
    })),
  };
}

/** An item's gates by id with their states, when it has any. */
function gatesOf(item: Pick<UpdateStageStatus, "beforeGates" | "afterGates">): { gates?: Array<[string, string]> } {
  const gates = [...(item.beforeGates ?? []), ...(item.afterGates ?? [])].map((g): [string, string] => [g.gateId, g.status.state]);
  return gates.length === 0 ? {} : { gates };
}

/** Parts upgraded more than once (a cluster upgraded twice), as `cluster part ×n`. */
export function upgradedTwice(outcome: Outcome): string[] {
  return outcome.clusters.flatMap((c) => Object.entries(c.upgrades.changed).filter(([, n]) => n > 1).map(([part, n]) => `${c.name} ${part} ×${n}`));
}
