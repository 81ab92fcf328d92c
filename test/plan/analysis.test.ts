/**
 * Issue 31: `plan` evaluates the simulated fleet's declared metrics on the virtual clock, with no
 * server, and its predicted schedule includes the soaks (a soak that outlasts its wait holds the stage);
 * on a real backend it assumes every measurement passes, keeping the analyses' timing.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlan } from "../../src/plan/buildPlan";
import { worldFromScenario } from "../../src/plan/fromScenario";
import { parseScenario } from "../../src/simulation/scenario";
import { simulateScenario } from "../../src/simulation/simulateScenario";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { planCommand } from "../../src/cli/plan";
import type { Plan } from "../../src/plan/types";

const SICK = readFileSync(resolve(__dirname, "../../examples/health-analysis/sick-cluster.yaml"), "utf8");
const HEALTHY = SICK.replace("afterUpgrade: 0.31", "afterUpgrade: 0.02");
const T = (minutes: number) => new Date(Date.parse("2026-12-05T00:00:00Z") + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");

describe("plan with analyses on the simulated fleet", () => {
  it("the sick rollout: the plan predicts the halt at early's soak, as simulate does, and says so", async () => {
    const plan = await buildPlan(worldFromScenario(parseScenario(SICK)));
    expect(plan.run).toMatchObject({ predictedState: "Failed", predictedEnd: T(40) });
    expect(plan.stages.map((s) => [s.name, s.predictedState])).toEqual([["canary", "Completed"], ["early", "Failed"], ["rest", "NotStarted"]]);
    expect(plan.stages[1]?.analyses).toEqual([
      { kind: "preCheck", template: "error-rate", predictedStart: T(20), predictedEnd: T(20), predictedPhase: "Successful", measurements: 1 },
      { kind: "soak", template: "error-rate", predictedStart: T(40), predictedEnd: T(40), predictedPhase: "Failed", measurements: 1 },
    ]);
    const finding = plan.findings.find((f) => f.code === "ANALYSIS_FAILS");
    expect(finding).toMatchObject({ severity: "warning" });
    expect(finding?.message).toContain(`cluster_error_rate{cluster="c3"} = 0.31 for member c3, not result < 0.05`);
    const { result } = await simulateScenario(parseScenario(SICK));
    expect(result.status.status.completedTime).toBe(plan.run.predictedEnd);
  });

  it("soak durations are in the predicted schedule: a soak outlasting its wait holds the stage, and the next starts after it", async () => {
    const plan = await buildPlan(worldFromScenario(parseScenario(HEALTHY.replace("      interval: 5m\n", "      interval: 5m\n      count: 4\n"))));
    const canary = plan.stages[0]!;
    expect(canary.analyses?.find((a) => a.kind === "soak")).toMatchObject({ predictedStart: T(25), predictedEnd: T(40), measurements: 4, predictedPhase: "Successful" });
    // c1 15 → 25, the wait to 35, the soak's 4th measurement at 40.
    expect(canary.predictedEnd).toBe(T(40));
    expect(plan.stages[1]?.predictedStart).toBe(T(40));
    expect(plan.run.predictedState).toBe("Completed");
    expect(plan.findings.filter((f) => f.code === "ANALYSIS_FAILS")).toEqual([]);
  });
});

describe("plan with analyses on a real backend (the ARM emulator)", () => {
  let emulator: ArmEmulator;
  beforeAll(async () => {
    const { regions, members } = parseScenario(SICK);
    emulator = await startArmEmulator({ fleet: { regions, members }, msPerSimulatedMinute: 60_000, subscriptionId: "00000000-0000-0000-0000-000000000000", resourceGroup: "fleet", throttling: false });
  }, 60_000);
  afterAll(async () => {
    await emulator?.close();
  });

  it("assumes every measurement passes (metrics are not known ahead), keeping each soak's timing, and says so", async () => {
    const id = (name: string) => `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/fleet/providers/Microsoft.ContainerService/managedClusters/${name}`;
    const scenario = parseScenario(SICK);
    const dir = mkdtempSync(join(tmpdir(), "plan-analysis-"));
    writeFileSync(join(dir, "arm.pem"), emulator.certificatePem);
    writeFileSync(
      join(dir, "run.yaml"),
      JSON.stringify({
        backend: { azure: { endpoint: emulator.url, trustedCaFile: "arm.pem", credential: "emulator" } },
        members: scenario.members.map((m) => ({ name: m.name, group: m.group, clusterResourceId: id(m.name) })),
        strategy: scenario.strategy,
        analysis: scenario.analysis,
        managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } },
      }),
    );
    let stdout = "";
    const code = await planCommand(join(dir, "run.yaml"), { json: true, upgradeMinutes: "10" }, { stdout: (t) => (stdout += t), stderr: () => undefined }, Date.now());
    expect(code).toBe(0);
    const plan = JSON.parse(stdout) as Plan;
    expect(plan.run.predictedState).toBe("Completed");
    expect(plan.stages.map((s) => s.analyses?.find((a) => a.kind === "soak")?.measurements)).toEqual([3, 3, 3]);
    expect(plan.findings.some((f) => f.code === "PLAN_ASSUMPTION" && f.message.includes("every analysis measurement passes"))).toBe(true);
  });
});
