/**
 * The Azure backend (real `@azure/arm-containerservice` over HTTPS) against the ARM emulator gives the
 * same final states and cluster versions as the in-process simulation, also with faults injected.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/model/scenario";
import type { SimulationReport } from "../../src/simulation/simulateScenario";
import { simulateScenario } from "../../src/simulation/simulateScenario";
import { simulateScenarioViaArm } from "../../src/simulation/viaArmEmulator";

const SCENARIOS = resolve(__dirname, "../../../shared/scenarios");

/** Everything but times: who ended how, with which message, and what the clusters run. */
function outcome(report: SimulationReport) {
  const { status, clusters } = report.result;
  return {
    run: status.status.state,
    stages: status.stages.map((s) => ({
      name: s.name,
      state: s.status.state,
      wait: s.afterStageWaitStatus?.status.state,
      groups: s.groups.map((g) => ({ name: g.name, state: g.status.state, members: g.members.map((m) => [m.name, m.status.state]) })),
    })),
    clusters: clusters.map((c) => ({ name: c.name, kubernetesVersion: c.kubernetesVersion, nodePools: c.nodePools, upgrades: c.operations.length })),
  };
}

describe("simulate --via arm-emulator", () => {
  for (const file of ["01-default-sequential.yaml", "02-staged-parallel.yaml", "03-maintenance-window.yaml"]) {
    it(`${file}: same final states and versions as the in-process simulation`, async () => {
      const scenario = parseScenario(readFileSync(resolve(SCENARIOS, file), "utf8"));
      const viaArm = await simulateScenarioViaArm(scenario, { msPerSimulatedMinute: 8 });
      expect(outcome(viaArm)).toEqual(outcome(await simulateScenario(scenario)));
      expect(viaArm.requests.GET).toBeGreaterThan(0);
      expect(viaArm.requests.PUT).toBeGreaterThan(0);
    }, 60_000);
  }

  it("the demo scenario (windows in three offsets, a version reaching a region a day late): same final states", async () => {
    const scenario = parseScenario(readFileSync(resolve(__dirname, "../../examples/demo/scenario.yaml"), "utf8"));
    // ARM never announces when a version reaches a region: the run finds out by looking again.
    const viaArm = await simulateScenarioViaArm(scenario, { msPerSimulatedMinute: 4 });
    expect(outcome(viaArm)).toEqual(outcome(await simulateScenario(scenario)));
  }, 120_000);

  for (const file of ["01-default-sequential.yaml", "02-staged-parallel.yaml", "03-maintenance-window.yaml"]) {
    it(`${file} with 10% 5xx, 5% 429 and 2% connection resets: same final states, no cluster upgraded twice`, async () => {
      const scenario = parseScenario(readFileSync(resolve(SCENARIOS, file), "utf8"));
      const viaArm = await simulateScenarioViaArm(scenario, {
        msPerSimulatedMinute: 8,
        seed: 7,
        faults: { serverErrorRate: 0.1, throttleRate: 0.05, resetRate: 0.02 },
      });
      expect(outcome(viaArm)).toEqual(outcome(await simulateScenario(scenario)));
      // At most one operation per cluster, and it succeeded (a retried write never started a second one).
      for (const cluster of viaArm.result.clusters) expect(["", "Succeeded"]).toContain(cluster.operations.map((o) => o.result).join(","));
    }, 120_000);
  }
});
