/**
 * A 200-member run through the Azure backend against the ARM emulator with ARM's throttling on
 * (reads 250 burst / 25 per s, writes 200 / 10 per s). At this time compression the engine asks for
 * far more than 25 reads a second, so the emulator answers 429 with Retry-After; the SDK waits and
 * retries, and the run must still finish with every cluster upgraded exactly once.
 */
import { expect, it } from "vitest";
import { FLEET_SCENARIO_200, fleetScenario } from "../../../bench/armScenario";
import { simulateScenarioViaArm } from "../../../src/simulation/viaArmEmulator";

/** 10-minute upgrades take 2.5 s; the run is bound by the read bucket (~40 s), not the clock. */
const MS_PER_SIMULATED_MINUTE = 250;

it("200 members against ARM's throttling: Completed, each cluster upgraded once, every 429 recovered", async ({ annotate }) => {
  const scenario = fleetScenario(FLEET_SCENARIO_200);
  expect(scenario.members).toHaveLength(200);

  const began = performance.now();
  const report = await simulateScenarioViaArm(scenario, { msPerSimulatedMinute: MS_PER_SIMULATED_MINUTE });
  const wallMs = performance.now() - began;
  const { status, clusters } = report.result;

  // A 429 the SDK did not recover from would surface as a failed member (or a thrown run).
  expect(status.status.state).toBe("Completed");
  expect(status.status.error).toBeUndefined();
  const members = status.stages.flatMap((s) => s.groups.flatMap((g) => g.members));
  expect(members).toHaveLength(200);
  expect(members.filter((m) => m.status.state !== "Completed").map((m) => [m.name, m.status.state, m.message])).toEqual([]);
  expect(clusters).toHaveLength(200);
  for (const cluster of clusters) {
    expect(cluster.operations.map((o) => o.result), cluster.name).toEqual(["Succeeded"]);
    expect(cluster.kubernetesVersion).toBe("1.32.0");
  }

  // The run really was throttled (the engine asks faster than 25 reads/s), and got through it.
  const { GET, PUT, POST, throttled } = report.requests;
  expect(throttled).toBeGreaterThan(0);
  expect(PUT).toBe(200);
  const perMember = (GET + PUT + POST) / 200;
  await annotate(`${throttled} × 429 recovered; ${GET} GET / ${PUT} PUT / ${POST} POST = ${perMember.toFixed(2)} requests per upgraded member; ${Math.round(wallMs)} ms`);
  console.info(`[throttling] 429s: ${throttled}, requests: GET ${GET} PUT ${PUT} POST ${POST} (${perMember.toFixed(2)} per member), wall ${Math.round(wallMs)} ms`);
}, 90_000);
