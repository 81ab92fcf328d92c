/**
 * Issue 31, Must show on Fleet Manager: the rollout of 3 stages where the 3rd cluster's upgrade makes its
 * error rate rise (examples/health-analysis/sick-cluster.yaml: a pre-check and a soak per stage) runs
 * server-side in the emulator's Fleet Manager; our client measures through a real Prometheus scraping
 * the emulator's `/metrics`, and holds Fleet at the gates it added. Sick: the early stage's soak gate is
 * never approved, Fleet's run is stopped, and the status names the query, the value and the threshold.
 * Healthy: every gate of ours is approved by the client, a soak's no earlier than its stage's wait end.
 * Time runs scaled (a simulated minute is 3 real seconds) so that Prometheus, scraping every second, has
 * the new values before they are measured; every wait polls.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import type { UpdateRunStatus } from "../../src/model/status";
import { openFleetClient } from "../../src/drivers/fleet/openFleet";
import { runFleetSession } from "../../src/drivers/fleet/fleetSession";
import { parseRunInputs } from "../../src/drivers/runInputs";
import { EMULATOR_RESOURCE_GROUP, EMULATOR_SUBSCRIPTION } from "../../src/simulation/viaArmEmulator";
import { EMULATOR_FLEET_ID } from "../../src/simulation/viaFleetEmulator";
import { prometheusBinary, realTimeScenario, startPrometheus, type RunningPrometheus } from "../support/prometheus";

const MS_PER_MINUTE = 3_000;
/** `realTimeScenario`'s after-stage waits. */
const WAIT_SECONDS = 120;

const binary = prometheusBinary();
if (binary.path === undefined) console.warn(`skipped: real-Prometheus Fleet Manager tests (${binary.why})`);

let emulator: ArmEmulator | undefined;
let prometheus: RunningPrometheus | undefined;
afterEach(async () => {
  await prometheus?.stop();
  await emulator?.close();
  prometheus = undefined;
  emulator = undefined;
});

async function rollout(healthy: boolean): Promise<{ status: UpdateRunStatus; fleetState: string | undefined; approvals: string[] }> {
  const scenario = realTimeScenario("http://unused", healthy);
  emulator = await startArmEmulator({ fleet: { regions: scenario.regions, members: scenario.members }, msPerSimulatedMinute: MS_PER_MINUTE, subscriptionId: EMULATOR_SUBSCRIPTION, resourceGroup: EMULATOR_RESOURCE_GROUP, throttling: false });
  prometheus = await startPrometheus(binary.path as string, [{ hostPort: emulator.url.replace("https://", ""), scheme: "https" }]);
  await prometheus.waitFor("count(cluster_error_rate)", (v) => v[0] === 4);
  const caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fleet-prometheus-ca-")), "ca.pem");
  fs.writeFileSync(caFile, emulator.certificatePem);
  const analysis = structuredClone(scenario.analysis!);
  analysis.templates[0]!.provider.prometheus!.address = prometheus.address;
  const inputs = parseRunInputs({
    runName: healthy ? "healthy" : "sick",
    backend: { azureFleet: { fleetId: EMULATOR_FLEET_ID, endpoint: emulator.url, trustedCaFile: caFile, credential: "emulator", pollIntervalSeconds: 15 } },
    members: [],
    strategy: scenario.strategy,
    analysis,
    managedClusterUpdate: scenario.managedClusterUpdate,
    timeoutMinutes: 120,
  });
  const client = openFleetClient(inputs.backend.azureFleet!);
  // The default measuring ports: Prometheus' HTTP API, as in production.
  const result = await runFleetSession(inputs, client, 15, { clock: emulator.clock });
  const approvals = emulator.requests.filter((r) => r.method === "PATCH" && r.path.includes("/gates/") && r.status === 200).map((r) => r.path.split("?")[0] as string);
  return { status: result.status, fleetState: (await client.getRun(inputs.runName))?.properties?.status?.status?.state ?? undefined, approvals };
}

describe.skipIf(binary.path === undefined)("a real Prometheus measures a Fleet Manager rollout through the client's gates (Must show)", () => {
  it("the 3rd cluster's error rate rises: the early stage's soak gate is never approved, Fleet's run is stopped, the status names query, value and threshold", async () => {
    const { status, fleetState, approvals } = await rollout(false);
    expect(fleetState).toBe("Stopped");
    expect(status.status.state).toBe("Failed");
    expect(status.status.error?.message).toContain('Soak of stage \'early\': Analysis \'error-rate\' failed: cluster_error_rate{cluster="c3"} = 0.31 for member c3, not result < 0.05');
    const early = status.stages[1]!;
    expect(early.status).toMatchObject({ state: "Failed", error: { code: "AnalysisFailed" } });
    expect(early.afterGates?.map((g) => [g.displayName, g.status.state === "Completed"])).toEqual([["fleet-update analysis: soak error-rate", false]]);
    const soak = early.analysisRuns?.find((a) => a.kind === "soak");
    expect(soak).toMatchObject({ phase: "Failed", query: 'cluster_error_rate{cluster="{{member.name}}"}', successCondition: "result < 0.05" });
    expect(soak?.measurements.at(-1)).toMatchObject({ phase: "Failed", value: 0.31, member: "c3", query: 'cluster_error_rate{cluster="c3"}' });
    // The next stage never started; its pre-check gate never reached.
    expect(status.stages[2]!.status.state).toBe("NotStarted");
    expect(emulator!.fleet.toState().clusters.c4?.operations).toEqual([]);
    // Approved: canary's pre-check and soak gates, early's pre-check gate; each once.
    expect(approvals).toHaveLength(3);
    expect(new Set(approvals).size).toBe(3);
  }, 300_000);

  it("healthy: every gate of ours is approved automatically, each soak's after its stage's wait and no earlier", async () => {
    const { status, approvals } = await rollout(true);
    expect(status.status.state).toBe("Completed");
    for (const stage of status.stages) {
      const [preCheck] = stage.beforeGates ?? [];
      const [soakGate] = stage.afterGates ?? [];
      expect(preCheck).toMatchObject({ displayName: "fleet-update analysis: preCheck error-rate", status: { state: "Completed" } });
      expect(soakGate).toMatchObject({ displayName: "fleet-update analysis: soak error-rate", status: { state: "Completed" } });
      // The pre-check measured a minute after its gate was reached, and approved then, not before.
      expect(Date.parse(preCheck!.status.completedTime!)).toBeGreaterThanOrEqual(Date.parse(preCheck!.status.startTime!) + 60_000);
      const wait = stage.afterStageWaitStatus!.status;
      expect(Date.parse(soakGate!.status.completedTime!)).toBeGreaterThanOrEqual(Date.parse(wait.startTime!) + WAIT_SECONDS * 1000);
      expect(stage.analysisRuns?.map((a) => [a.kind, a.phase, a.measurements.length])).toEqual([
        ["preCheck", "Successful", 1],
        ["soak", "Successful", 3],
      ]);
    }
    expect(approvals).toHaveLength(6);
    expect(new Set(approvals).size).toBe(6);
  }, 300_000);
});
