/**
 * Issue 31 on Fleet Manager: the client adds an Approval gate after each stage whose soak it measures,
 * approves it once the analysis passes and the stage's wait is over (no earlier), and on a failure
 * leaves it Pending, stops Fleet's run, and reports the run Failed with the query, value and threshold.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { parseScenario } from "../../../src/simulation/scenario";
import { simulateScenario } from "../../../src/simulation/simulateScenario";
import { simulateScenarioViaFleet } from "../../../src/simulation/viaFleetEmulator";
import type { ArmEmulator } from "../../../src/emulator";
import type { RunEvent, UpdateRunStatus } from "../../../src/model/status";
import { openFleetClient } from "../../../src/drivers/fleet/openFleet";
import { runFleetSession } from "../../../src/drivers/fleet/fleetSession";
import { FleetManagerDriver } from "../../../src/drivers/fleet/fleetDriver";
import { GateRefusedError } from "../../../src/drivers/runDriver";
import { checkRunInputs } from "../../../src/drivers/runInputs";
import { toFleetStrategy } from "../../../src/drivers/fleet/toFleet";
import { gateResources } from "../../../src/drivers/fleet/gateResources";
import { startFleetEmulator } from "../../emulator/fleetHelpers";
import { ERROR_RATE, SOAK_SECONDS, THREE_STAGES, analysisFleet, analysisRunInputs, gateApprovals, simulatedPorts, soakAnalysis, startAnalysisEmulator } from "./analysisSupport";
import { fleetBackend, runRequests } from "../../backends/azureFleet/support";

let emulator: ArmEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const soakGate = (status: UpdateRunStatus, stage: string) => status.stages.find((s) => s.name === stage)?.afterGates?.at(-1);

test("healthy: every stage's analysis gate is approved by the client after its soak, no earlier, each once", async () => {
  emulator = await startAnalysisEmulator();
  const inputs = analysisRunInputs(emulator, "healthy");
  const events: RunEvent[] = [];
  const client = openFleetClient(inputs.backend.azureFleet!);
  const result = await runFleetSession(inputs, client, 60, { clock: emulator.clock, measure: simulatedPorts(emulator), onEvent: (e) => events.push(e) });

  expect(result.status.status.state).toBe("Completed");
  for (const stage of result.status.stages) {
    const gate = soakGate(result.status, stage.name)!;
    expect(gate.displayName).toBe("fleet-update analysis: soak error-rate");
    expect(gate.status.state).toBe("Completed");
    const wait = stage.afterStageWaitStatus!.status;
    // Approved once the soak was over: not before the wait's end.
    expect(Date.parse(gate.status.completedTime!)).toBeGreaterThanOrEqual(Date.parse(wait.startTime!) + SOAK_SECONDS * 1000);
    const analysis = stage.analysisRuns!.find((a) => a.kind === "soak")!;
    expect(analysis).toMatchObject({ template: "error-rate", phase: "Successful", query: ERROR_RATE, successCondition: "result < 0.05", count: 11, successful: 11 });
    expect(analysis.measurements.every((m) => m.value === 0.01 && m.phase === "Successful")).toBe(true);
  }
  // Each gate resource approved exactly once, by the client; Azure's record of each (its systemData)
  // says it passed after its stage's wait, on the emulator's clock.
  const approvals = gateApprovals(emulator);
  expect([...approvals.values()]).toEqual([1, 1, 1]);
  const resources = gateResources((await client.getRun("healthy"))?.properties?.status);
  for (const stage of result.status.stages) {
    const gate = await client.getGate(resources.get(`${stage.name}/after/0`)!.resourceName);
    expect(gate?.properties).toMatchObject({ displayName: "fleet-update analysis: soak error-rate", state: "Completed" });
    const waitEnd = Date.parse(stage.afterStageWaitStatus!.status.startTime!) + SOAK_SECONDS * 1000;
    expect(Date.parse((gate as { systemData?: { lastModifiedAt?: string } }).systemData?.lastModifiedAt ?? "")).toBeGreaterThanOrEqual(waitEnd);
  }
  // Each measurement an event; each analysis's start and end too.
  expect(events.filter((e) => e.scope === "analysis" && e.measurement !== undefined)).toHaveLength(33);
  expect(events.filter((e) => e.scope === "analysis" && e.to === "Completed").map((e) => e.name)).toEqual(["canary/soak/error-rate", "early/soak/error-rate", "broad/soak/error-rate"]);
  for (const cluster of emulator.fleet.snapshot().clusters) expect(cluster.operations.map((o) => o.result)).toEqual(["Succeeded"]);
});

test("the 3rd cluster's error rate rises after its upgrade: the early stage's gate is never approved, Fleet's run is stopped, the run reported Failed", async () => {
  emulator = await startAnalysisEmulator(["aks-3"]);
  const inputs = analysisRunInputs(emulator, "sick");
  const events: RunEvent[] = [];
  const client = openFleetClient(inputs.backend.azureFleet!);
  const result = await runFleetSession(inputs, client, 60, { clock: emulator.clock, measure: simulatedPorts(emulator), onEvent: (e) => events.push(e) });

  expect(result.end).toBe("settled");
  const status = result.status;
  expect(status.status.state).toBe("Failed");
  expect(status.status.error?.code).toBe("AnalysisFailed");
  // The status names the query as sent, the value measured and the threshold.
  expect(status.status.error?.message).toContain('cluster_error_rate{cluster="aks-3"} = 0.31 for member aks-3, not result < 0.05');
  const early = status.stages[1]!;
  expect(early.status).toMatchObject({ state: "Failed", error: { code: "AnalysisFailed" } });
  expect(early.analysisRuns?.[0]).toMatchObject({ phase: "Failed", failed: 1, measurements: [{ phase: "Failed", value: 0.31, member: "aks-3", query: 'cluster_error_rate{cluster="aks-3"}' }] });
  expect(soakGate(status, "early")?.status.state).not.toBe("Completed");
  // The next stage was never started: its clusters untouched.
  expect(status.stages[2]!.groups[0]!.members.map((m) => m.status.state)).toEqual(["NotStarted", "NotStarted"]);
  const touched = emulator.fleet.snapshot().clusters.filter((c) => c.operations.length > 0).map((c) => c.name);
  expect(touched).toEqual(["aks-1", "aks-2", "aks-3"]);
  // Fleet's run was stopped; the canary's gate alone was approved.
  expect(runRequests(emulator, "sick").filter((r) => r.method === "POST").map((r) => r.action)).toEqual(["/start", "/stop"]);
  expect([...gateApprovals(emulator).values()]).toEqual([1]);
  const fleetRun = await client.getRun("sick");
  expect(fleetRun?.properties?.status?.status?.state).toBe("Stopped");
  // The record keeps the halt, so the next call (and a refresh) shows the run Failed.
  expect(result.record.halt).toMatchObject({ gateId: "early/after/0", code: "AnalysisFailed" });
  const driver = new FleetManagerDriver(inputs.backend.azureFleet!, process.cwd(), { clock: emulator.clock });
  const view = await driver.observe(inputs, { id: result.record.id, fleetRun: result.record });
  expect(view.status.status.state).toBe("Failed");
  expect(events.some((e) => e.scope === "run" && e.to === "Failed")).toBe(true);

  // Started again (the next call, `state: Running`): Fleet reaches the gate again, the analysis is
  // measured again from that instant, fails again, and the run is stopped again — nothing upgraded twice.
  const again = await runFleetSession(inputs, client, 60, { clock: emulator.clock, measure: simulatedPorts(emulator), previous: result.record });
  expect(again.status.status).toMatchObject({ state: "Failed", error: { code: "AnalysisFailed" } });
  const measured = again.status.stages[1]!.analysisRuns![0]!;
  expect(Date.parse(measured.startedAt)).toBeGreaterThan(Date.parse(early.analysisRuns![0]!.startedAt));
  expect(runRequests(emulator, "sick").filter((r) => r.method === "POST").map((r) => r.action)).toEqual(["/start", "/stop", "/start", "/stop"]);
  expect([...gateApprovals(emulator).values()]).toEqual([1]);
  for (const cluster of emulator.fleet.snapshot().clusters) expect(cluster.operations.length).toBeLessThanOrEqual(1);
});

test("a user's approval gate beside ours: ours passes by its analysis, theirs waits for them; neither approves the other", async () => {
  emulator = await startAnalysisEmulator();
  const strategy = structuredClone(THREE_STAGES) as { stages: Array<Record<string, unknown>> };
  strategy.stages[0]!.afterGates = [{ type: "Approval", displayName: "Ops sign-off" }];
  const inputs = analysisRunInputs(emulator, "beside", { strategy });
  const driver = new FleetManagerDriver(inputs.backend.azureFleet!, process.cwd(), { clock: emulator.clock, measure: simulatedPorts(emulator) });
  const call = await driver.open(inputs, { by: "stack" });
  const first = await call.drive({ state: "Running", skip: [], approvals: [], timeoutMinutes: 24 * 60 }, { onEvent: () => undefined });

  // Following ended at the user's gate, once ours was approved.
  expect(first.end).toBe("gate");
  const canary = first.status.stages[0]!;
  expect(canary.afterGates?.map((g) => [g.gateId, g.displayName, g.status.state])).toEqual([
    ["canary/after/0", "Ops sign-off", "Pending"],
    ["canary/after/1", "fleet-update analysis: soak error-rate", "Completed"],
  ]);
  // `gate approve` refuses ours (whatever its state), and Check refuses it in `approvals`.
  await expect(driver.approve(inputs, ["canary/after/1"])).rejects.toThrow(GateRefusedError);
  await expect(driver.approve(inputs, ["canary/after/1"])).rejects.toThrow(/holds the run for its health analysis/);
  expect(checkRunInputs({ ...inputsRaw(emulator, strategy), approvals: ["canary/after/1"] })).toEqual([expect.objectContaining({ path: "approvals[0]" })]);
  // Theirs is theirs to approve; the run then goes on, our later gates approved by their analyses.
  expect(await driver.approve(inputs, ["canary/after/0"])).toContain("approved canary/after/0");
  const second = await call.drive({ state: "Running", skip: [], approvals: [], timeoutMinutes: 24 * 60 }, { onEvent: () => undefined });
  expect(second.status.status.state).toBe("Completed");
  expect([...gateApprovals(emulator).values()]).toEqual([1, 1, 1, 1]);
});

test("Check: a user's gate may not be named like ours; analysis on Fleet needs a strategy; a full place leaves no room", async () => {
  emulator = await startAnalysisEmulator();
  const strategy = structuredClone(THREE_STAGES) as { stages: Array<Record<string, unknown>> };
  strategy.stages[1]!.beforeGates = [{ type: "Approval", displayName: "fleet-update analysis: mine" }];
  strategy.stages[2]!.afterGates = Array.from({ length: 10 }, () => ({ type: "Approval" }));
  const issues = checkRunInputs(inputsRaw(emulator, strategy));
  expect(issues.map((i) => i.path).sort()).toEqual(["strategy.stages[1].beforeGates[0].displayName", "strategy.stages[2].afterGates"]);
  const { strategy: _none, ...noStrategy } = inputsRaw(emulator, THREE_STAGES);
  expect(checkRunInputs(noStrategy).map((i) => i.path)).toEqual(["analysis"]);
  // The reserved name is refused on every backend.
  expect(checkRunInputs({ ...noStrategy, backend: { simulator: { fleetFile: "fleet.yaml" } }, strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }], afterGates: [{ type: "Approval", displayName: "fleet-update analysis" }] }] } }).map((i) => i.path)).toContain("strategy.stages[0].afterGates[0].displayName");
});

function inputsRaw(e: ArmEmulator, strategy: unknown): Record<string, unknown> {
  return { runName: "check", backend: fleetBackend(e, 60), members: [], strategy, analysis: soakAnalysis(), managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } } };
}

const ERROR_RATE_TEMPLATE = { name: "error-rate", provider: { prometheus: { address: "http://prometheus.invalid:9090", query: ERROR_RATE } }, successCondition: "result < 0.05" };

test("afterMember maps to each group's after-gate: every member of the group measured once the group is done; a sick one fails, its group and stage, and halts the run", async () => {
  emulator = await startAnalysisEmulator(["aks-3"]);
  const inputs = analysisRunInputs(emulator, "members", { analysis: { templates: [ERROR_RATE_TEMPLATE], afterMember: ["error-rate"] } });
  const result = await runFleetSession(inputs, openFleetClient(inputs.backend.azureFleet!), 60, { clock: emulator.clock, measure: simulatedPorts(emulator) });

  const gates = result.status.stages.map((s) => s.groups[0]!.afterGates?.map((g) => [g.gateId, g.displayName, g.status.state]));
  expect(gates).toEqual([
    [["canary/canary/after/0", "fleet-update analysis: afterMember error-rate", "Completed"]],
    [["early/early/after/0", "fleet-update analysis: afterMember error-rate", expect.not.stringMatching(/^Completed$/)]],
    [["broad/broad/after/0", "fleet-update analysis: afterMember error-rate", "NotStarted"]],
  ]);
  const early = result.status.stages[1]!.groups[0]!;
  expect(early.members.map((m) => [m.name, m.status.state, m.analysisRuns?.[0]?.phase, m.analysisRuns?.[0]?.measurements[0]?.value])).toEqual([
    ["aks-2", "Completed", "Successful", 0.01],
    ["aks-3", "Failed", "Failed", 0.31],
  ]);
  expect(early.members[1]!.status.error).toMatchObject({ code: "AnalysisFailed", message: expect.stringContaining('cluster_error_rate{cluster="aks-3"} = 0.31 for member aks-3, not result < 0.05') });
  expect(early.status.state).toBe("Failed");
  expect(result.status.status).toMatchObject({ state: "Failed", error: { code: "AnalysisFailed" } });
  expect(result.record.halt).toMatchObject({ gateId: "early/early/after/0", members: ["aks-3"] });
  expect(emulator.fleet.snapshot().clusters.filter((c) => c.operations.length > 0).map((c) => c.name)).toEqual(["aks-1", "aks-2", "aks-3"]);
});

test("preCheck maps to the stage's before-gate: a cluster already sick fails the pre-check, and its stage is never touched", async () => {
  const fleet = analysisFleet();
  const aks4 = fleet.members.find((m) => m.name === "aks-4")!;
  aks4.simulation = { ...aks4.simulation!, metrics: [{ name: "cluster_error_rate", value: 0.2 }] };
  emulator = await startFleetEmulator({ fleet, msPerSimulatedMinute: 100, startAt: "2026-12-05T00:00:00Z", compressIdleTime: true });
  const analysis = { templates: [ERROR_RATE_TEMPLATE], stages: THREE_STAGES.stages.map((s) => ({ name: s.name, preCheck: ["error-rate"] })) };
  const inputs = analysisRunInputs(emulator, "prechecks", { analysis });
  const result = await runFleetSession(inputs, openFleetClient(inputs.backend.azureFleet!), 60, { clock: emulator.clock, measure: simulatedPorts(emulator) });

  expect(result.status.stages.map((s) => s.beforeGates?.map((g) => [g.gateId, g.status.state]))).toEqual([[["canary/before/0", "Completed"]], [["early/before/0", "Completed"]], [["broad/before/0", expect.not.stringMatching(/^Completed$/)]]]);
  const broad = result.status.stages[2]!;
  expect(broad.status.error).toMatchObject({ code: "PreCheckFailed", message: expect.stringContaining("Pre-check of stage 'broad'") });
  expect(broad.analysisRuns?.[0]).toMatchObject({ kind: "preCheck", phase: "Failed", measurements: [{ value: 0.2, member: "aks-4" }] });
  expect(broad.groups[0]!.members.map((m) => m.status.state)).toEqual(["NotStarted", "NotStarted"]);
  expect(result.status.status.state).toBe("Failed");
  expect(emulator.fleet.snapshot().clusters.filter((c) => c.operations.length > 0).map((c) => c.name)).toEqual(["aks-1", "aks-2", "aks-3"]);
});

test("a strategy kept in Fleet (updateStrategyId): the run is created with a copy of it carrying our gates", async () => {
  emulator = await startAnalysisEmulator();
  const setup = analysisRunInputs(emulator, "kept");
  const client = openFleetClient(setup.backend.azureFleet!);
  const { strategy: _inline, ...rest } = setup;
  await client.putStrategy("three-stages", toFleetStrategy(setup.strategy!));
  const inputs = { ...rest, updateStrategyId: client.strategyId("three-stages") };
  const result = await runFleetSession(inputs, client, 60, { clock: emulator.clock, measure: simulatedPorts(emulator) });
  expect(result.status.status.state).toBe("Completed");
  expect(result.strategySnapshot.stages.map((s) => s.afterGates?.map((g) => g.displayName))).toEqual(Array.from({ length: 3 }, () => ["fleet-update analysis: soak error-rate"]));
  // The kept strategy itself is untouched.
  const kept = await client.getStrategy("three-stages");
  expect(kept?.properties?.strategy?.stages.every((s) => s.afterGates === undefined || s.afterGates === null)).toBe(true);
  expect([...gateApprovals(emulator).values()]).toEqual([1, 1, 1]);
});

test("simulate --via fleet-emulator: the sick-cluster scenario halts as in process, measured by the client on the simulated fleet's metrics", async () => {
  const scenario = parseScenario(fs.readFileSync(path.join(__dirname, "../../../examples/health-analysis/sick-cluster.yaml"), "utf8"));
  const viaFleet = await simulateScenarioViaFleet(scenario);
  const local = await simulateScenario(scenario);
  const shape = (s: UpdateRunStatus) => [s.status.state, s.status.error?.code, ...s.stages.map((st) => [st.name, st.status.state, st.status.error?.code, st.groups.flatMap((g) => g.members.map((m) => `${m.name} ${m.status.state}`))])];
  expect(shape(viaFleet.result.status)).toEqual(shape(local.result.status));
  expect(viaFleet.result.status.status.state).toBe("Failed");
  expect(viaFleet.result.status.stages[1]!.status.error?.message).toContain('cluster_error_rate{cluster="c3"} = 0.31 for member c3, not result < 0.05');
  expect(viaFleet.result.clusters.filter((c) => c.operations.length > 0).map((c) => c.name)).toEqual(["c1", "c2", "c3"]);
});

test("a soak whose analysis passes early is approved only once the stage's wait is over", async () => {
  emulator = await startAnalysisEmulator();
  const analysis = { templates: [{ ...ERROR_RATE_TEMPLATE, count: 1 }], stages: [{ name: "canary", soak: ["error-rate"] }] };
  const inputs = analysisRunInputs(emulator, "early-pass", { analysis });
  const client = openFleetClient(inputs.backend.azureFleet!);
  const result = await runFleetSession(inputs, client, 60, { clock: emulator.clock, measure: simulatedPorts(emulator) });
  expect(result.status.status.state).toBe("Completed");
  const canary = result.status.stages[0]!;
  const soak = canary.analysisRuns![0]!;
  expect(soak).toMatchObject({ phase: "Successful", count: 1 });
  const waitStart = Date.parse(canary.afterStageWaitStatus!.status.startTime!);
  const approvedAt = Date.parse(canary.afterGates![0]!.status.completedTime!);
  // Its one measurement taken and passed at once; the gate approved at the wait's end, not before.
  // (How long after depends on how fast this machine answers: the emulator's clock runs meanwhile.)
  expect(soak.measurements).toHaveLength(1);
  expect(Date.parse(soak.finishedAt!)).toBe(Date.parse(soak.measurements[0]!.measuredAt));
  expect(approvedAt).toBeGreaterThanOrEqual(waitStart + SOAK_SECONDS * 1000);
  expect(approvedAt).toBeGreaterThanOrEqual(Date.parse(soak.finishedAt!));
});
