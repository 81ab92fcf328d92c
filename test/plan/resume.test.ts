/**
 * The plan of a run already under way (what `UpdateRun` computes when it resumes a run from its
 * journal): the engine's state is continued, so a member already upgrading keeps its real start and
 * is not started again, and the others follow it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openFileBackedFleet } from "../../src/backends/simulator";
import { UpdateRunEngine } from "../../src/engine/engine";
import { isoInstant } from "../../src/model/instants";
import { planRun } from "../../src/plan/forRun";
import { driverFor } from "../../src/drivers/driverFor";
import { parseRunInputs } from "../../src/drivers/runInputs";
import { readFleetState } from "../../src/backends/simulator/stateFile";
import { updateChoiceOf } from "../../src/model/autoUpgrade";

const IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const FLEET = `regions: {westeurope: {kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}], nodeImages: [{version: ${IMAGE}}]}}
members:
${["a-1", "a-2", "a-3"].map((n) => `  - {name: ${n}, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${IMAGE}}]}`).join("\n")}
`;

describe("the plan of a run under way", () => {
  it("continues the engine's state: the member upgrading keeps its start and is not started again", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plan-resume-"));
    fs.writeFileSync(path.join(dir, "fleet.yaml"), FLEET);
    const inputs = parseRunInputs({
      runName: "rollout",
      // Real speed, so that the plan made a moment later starts where the run stands.
      backend: { simulator: { fleetFile: "fleet.yaml", timeScale: 1 } },
      members: [{ name: "a-1" }, { name: "a-2" }, { name: "a-3" }],
      managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } },
    });
    const { fleet, clock, flush } = openFileBackedFleet(inputs.backend.simulator!, dir);
    const engine = UpdateRunEngine.create({ name: "rollout", members: inputs.members, ...updateChoiceOf(inputs) }, fleet);
    const startedAt = clock.now();
    engine.start(startedAt);
    await engine.reconcile(startedAt);
    expect(engine.status().stages[0]?.groups[0]?.members[0]?.status.state).toBe("Running");
    // Issue 23: the fleet's changes are made durable when the run's journal writes; no journal here.
    flush();

    const planned = await planRun(await driverFor(inputs.backend, { baseDir: dir }), inputs, Date.now(), engine.snapshot());
    if (!("plan" in planned)) throw new Error(planned.notPlanned);
    const { plan } = planned;
    // a-1's upgrade ends when the simulated fleet recorded it would (a few ms after the engine's instant).
    const state = readFleetState(path.join(dir, "fleet.yaml.state.json")) as { clusters: Record<string, { operations: Array<{ endAt: number }> }> };
    const ends = state.clusters["a-1"]!.operations[0]!.endAt;
    const after = (m: number) => isoInstant(ends + m * 60_000);
    expect(plan.members.map((m) => [m.name, m.predictedStart, m.predictedEnd, m.predictedState])).toEqual([
      ["a-1", isoInstant(startedAt), after(0), "Completed"],
      ["a-2", after(0), after(10), "Completed"],
      ["a-3", after(10), after(20), "Completed"],
    ]);
    // The fleet's state file still holds one operation, a-1's: planning wrote nothing.
    expect(Object.values(state.clusters).map((c) => c.operations.length)).toEqual([1, 0, 0]);
  });
});
