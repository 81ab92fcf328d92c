/**
 * Issue 31 on Fleet Manager, as a user sees it through the built CLI: `fleet-update run --backend
 * azure-fleet:…` against the emulator's Fleet Manager, a real Prometheus scraping the emulator's
 * `/metrics`. The emulator runs on the real clock here (the CLI's client does), with upgrades of a few
 * seconds and soaks of eight.
 * - Sick: the early stage's soak fails; the CLI stops Fleet's run, prints the measurement, and exits 1
 *   with the run Failed, naming the query, the value and the threshold.
 * - Healthy, the CLI SIGKILLed during the canary's soak: the next `fleet-update run` takes the analysis
 *   up where it was — the measurements missed asked of Prometheus at their own instants — and finishes
 *   the rollout; each gate approved once, each cluster upgraded once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import type { UpdateRunStatus } from "../../src/model/status";
import { openFleetClient } from "../../src/drivers/fleet/openFleet";
import { EMULATOR_RESOURCE_GROUP, EMULATOR_SUBSCRIPTION } from "../../src/simulation/viaArmEmulator";
import { EMULATOR_FLEET_ID } from "../../src/simulation/viaFleetEmulator";
import { prometheusBinary, realTimeScenario, startPrometheus, type RunningPrometheus } from "../support/prometheus";

const CLI = path.resolve(__dirname, "../../dist/cli/main.js");
const binary = prometheusBinary();

let emulator: ArmEmulator | undefined;
let prometheus: RunningPrometheus | undefined;
let dir = "";
afterEach(async () => {
  await prometheus?.stop();
  await emulator?.close();
  prometheus = undefined;
  emulator = undefined;
  if (dir !== "") fs.rmSync(dir, { recursive: true, force: true });
});

function start(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  return { child, done: new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr }))) };
}

/** The emulator on the real clock (upgrades of 6 s), Prometheus scraping it, and the spec the CLI runs. */
async function setUp(healthy: boolean, canarySoakSeconds?: number): Promise<string[]> {
  const scenario = realTimeScenario("http://unused", healthy, true);
  for (const m of scenario.members) m.simulation = { ...m.simulation!, upgradeMinutes: 0.1 };
  if (canarySoakSeconds !== undefined) scenario.strategy!.stages[0]!.afterStageWaitInSeconds = canarySoakSeconds;
  emulator = await startArmEmulator({ fleet: { regions: scenario.regions, members: scenario.members }, msPerSimulatedMinute: 60_000, subscriptionId: EMULATOR_SUBSCRIPTION, resourceGroup: EMULATOR_RESOURCE_GROUP, throttling: false });
  prometheus = await startPrometheus(binary.path as string, [{ hostPort: emulator.url.replace("https://", ""), scheme: "https" }]);
  await prometheus.waitFor("count(cluster_error_rate)", (v) => v[0] === 4);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-analysis-cli-"));
  fs.writeFileSync(path.join(dir, "ca.pem"), emulator.certificatePem);
  const analysis = structuredClone(scenario.analysis!);
  analysis.templates[0]!.provider.prometheus!.address = prometheus.address;
  fs.writeFileSync(path.join(dir, "rollout.yaml"), JSON.stringify({ members: [], strategy: scenario.strategy, managedClusterUpdate: scenario.managedClusterUpdate, analysis }));
  return ["run", "rollout.yaml", "--backend", `azure-fleet:${EMULATOR_FLEET_ID}`, "--endpoint", emulator.url, "--ca-file", "ca.pem", "--credential", "emulator", "--poll-seconds", "1", "--progress", "lines", "--json"];
}

const approvals = (e: ArmEmulator) => e.requests.filter((r) => r.method === "PATCH" && r.path.includes("/gates/") && r.status === 200).map((r) => r.path.split("?")[0] as string);

describe.skipIf(binary.path === undefined)("fleet-update run on Fleet Manager with a Prometheus analysis", () => {
  it("sick: the run halts before its last stage, Fleet's run stopped; the CLI prints the measurement and exits 1", async () => {
    const args = await setUp(false);
    const { code, stdout, stderr } = await start(args).done;
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/analysis early\/soak\/error-rate Running → Failed: cluster_error_rate\{cluster="c3"\} = 0\.31 for member c3, not result < 0\.05/);
    const { status } = JSON.parse(stdout) as { status: UpdateRunStatus };
    expect(status.status).toMatchObject({ state: "Failed", error: { code: "AnalysisFailed" } });
    expect(status.stages[1]?.afterGates?.[0]).toMatchObject({ displayName: "fleet-update analysis: soak error-rate", status: { state: expect.not.stringMatching(/^Completed$/) } });
    expect(status.stages[2]?.status.state).toBe("NotStarted");
    const run = await openFleetClient({ fleetId: EMULATOR_FLEET_ID, endpoint: emulator!.url, trustedCaFile: path.join(dir, "ca.pem"), credential: "emulator" }).getRun("rollout");
    expect(run?.properties?.status?.status?.state).toBe("Stopped");
    expect(emulator!.fleet.toState().clusters.c4?.operations).toEqual([]);
  }, 300_000);

  it("healthy, SIGKILLed during the canary's soak: the next run resumes the soak where it was and completes; each gate approved once", async () => {
    // The canary soaks 20 s (measured at 4 s, then every 2 s): room to kill the client well before its end.
    const args = await setUp(true, 20);
    const client = openFleetClient({ fleetId: EMULATOR_FLEET_ID, endpoint: emulator!.url, trustedCaFile: path.join(dir, "ca.pem"), credential: "emulator" });
    const first = start(args);
    // Killed once the canary's soak gate has waited a few seconds (a measurement or two taken).
    let reachedAt = 0;
    for (;;) {
      const gate = (await client.getRun("rollout"))?.properties?.status?.stages?.[0]?.afterGates?.[0];
      if (gate?.status?.state === "Pending" && gate.status.startTime) {
        reachedAt = Date.parse(gate.status.startTime);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    while (Date.now() < reachedAt + 5_000) await new Promise((r) => setTimeout(r, 200));
    first.child.kill("SIGKILL");
    await first.done;
    expect(approvals(emulator!)).toHaveLength(1); // canary's pre-check gate only
    // Time passes with no client: the soak's next measurements fall due unseen.
    while (Date.now() < reachedAt + 11_000) await new Promise((r) => setTimeout(r, 200));

    const { code, stdout, stderr } = await start(args).done;
    expect(code, stderr).toBe(0);
    const { status } = JSON.parse(stdout) as { status: UpdateRunStatus };
    expect(status.status.state).toBe("Completed");
    const soak = status.stages[0]!.analysisRuns?.find((a) => a.kind === "soak");
    // Taken up at Fleet's instant: every measurement on the template's schedule (4 s, then every 2 s), from Prometheus' samples.
    // Those due before the resumed client began are taken at their own instants, the others as they fall due.
    expect(soak).toMatchObject({ phase: "Successful", count: 9, successful: 9 });
    const offsets = soak!.measurements.map((m) => Date.parse(m.measuredAt) - reachedAt);
    expect(offsets.slice(0, 4)).toEqual([4_000, 6_000, 8_000, 10_000]);
    expect(offsets.every((t, i) => i === 0 || t > (offsets[i - 1] as number))).toBe(true);
    expect(soak!.measurements.every((m) => m.value === 0.01)).toBe(true);
    expect(Date.parse(status.stages[0]!.afterGates![0]!.status.completedTime!)).toBeGreaterThanOrEqual(reachedAt + 20_000);
    // Six gates of ours, each approved once; each cluster upgraded once.
    const sent = approvals(emulator!);
    expect(sent).toHaveLength(6);
    expect(new Set(sent).size).toBe(6);
    for (const c of Object.values(emulator!.fleet.toState().clusters)) expect(c.operations).toHaveLength(1);
  }, 300_000);
});
