/**
 * The weeks-long scenario the long-horizon figures run (test/scenarios/long-horizon-windows.yaml:
 * weekly and monthly windows, a member waiting 20 days, a one-day soak), and what must be equal
 * between a run through an emulator and the same run in process.
 */
import { resolve } from "node:path";
import type { SimulationReport } from "../src/simulation/simulateScenario";

export const LONG_HORIZON_FILE = resolve(__dirname, "../../test/scenarios/long-horizon-windows.yaml");

/** What must be equal: states of the whole tree, and every cluster's versions. */
export function ending(report: SimulationReport): string {
  const { status, clusters } = report.result;
  return JSON.stringify({
    run: status.status.state,
    stages: status.stages.map((s) => [s.name, s.status.state, s.afterStageWaitStatus?.status.state, s.groups.map((g) => [g.name, g.status.state, g.members.map((m) => [m.name, m.status.state])])]),
    clusters: clusters.map((c) => [c.name, c.kubernetesVersion, c.nodePools.map((p) => [p.name, p.orchestratorVersion, p.nodeImageVersion])]),
  });
}
