/**
 * Issue 7: a 200-member run through the Azure backend against an unreliable ARM — 10% 5xx, 5% 429,
 * 2% connection resets, 0–40 ms of latency on every request — completes, with every cluster upgraded
 * exactly once. (Real throttling is off here: test/backends/azure/throttling.test.ts covers it, and without it
 * the run is bound by the faults, not by the read bucket.)
 */
import { expect, it } from "vitest";
import { FLEET_SCENARIO_200, fleetScenario } from "../../bench/armScenario";
import { simulateScenarioViaArm } from "../../src/simulation/viaArmEmulator";

it("200 members against 10% 5xx, 5% 429, 2% resets and random latency: Completed, zero double upgrades", async ({ annotate }) => {
  const scenario = fleetScenario(FLEET_SCENARIO_200);
  const report = await simulateScenarioViaArm(scenario, {
    msPerSimulatedMinute: 100,
    seed: 7,
    throttling: false,
    faults: { serverErrorRate: 0.1, throttleRate: 0.05, resetRate: 0.02, latencyMs: { min: 0, max: 40 } },
  });
  const { status, clusters } = report.result;
  const members = status.stages.flatMap((s) => s.groups.flatMap((g) => g.members));
  expect(members.filter((m) => m.status.state !== "Completed").map((m) => [m.name, m.status.state, m.message])).toEqual([]);
  expect(status.status.state).toBe("Completed");
  expect(clusters).toHaveLength(200);
  for (const cluster of clusters) {
    expect(cluster.operations.map((o) => o.result), cluster.name).toEqual(["Succeeded"]);
    expect(cluster.kubernetesVersion).toBe("1.32.0");
  }
  // The faults really were there, in the proportions asked for.
  const { injected, GET, PUT, POST } = report.requests;
  const total = GET + PUT + POST;
  expect(injected.serverError ?? 0).toBeGreaterThan(total * 0.05);
  expect(injected.reset ?? 0).toBeGreaterThan(0);
  await annotate(`${total} requests; injected ${JSON.stringify(injected)}`);
}, 180_000);
