/**
 * One run, two drivers (src/drivers/runDriver.ts): the same run — five clusters, a canary stage with a
 * soak, then prod behind an approval gate — through the engine driver on the simulated fleet and
 * through the Fleet Manager driver on the emulator. Both stop at the gate with nothing in flight, list
 * it Pending, take its approval, and end Completed with every member upgraded, in reports of the same
 * shape; what differs is only who executes the run and what is kept between calls.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { driverFor } from "../../src/drivers/driverFor";
import type { RunDriver, RunReport } from "../../src/drivers/runDriver";
import type { RunEvent } from "../../src/model/status";
import type { UpdateRunInputs } from "../../src/spec/runSpec";
import { parseRunInputs } from "../../src/drivers/runInputs";
import { FULL_132, groupedFleet, startFleetEmulator } from "../emulator/fleetHelpers";
import { fleetBackend } from "../backends/azureFleet/support";

const STRATEGY = {
  stages: [
    { name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 600 },
    { name: "prod", beforeGates: [{ type: "Approval", displayName: "Change board" }], groups: [{ name: "prod" }, { name: "dev" }] },
  ],
};
const MEMBERS = ["canary-1", "prod-1", "prod-2", "prod-3", "dev-1"];

let emulator: ArmEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

interface Setup {
  backend: Record<string, unknown>;
  members: Array<{ name: string; group: string }>;
  baseDir: string;
}

async function simulated(): Promise<Setup> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "driver-contract-"));
  fs.writeFileSync(path.join(dir, "fleet.json"), JSON.stringify(groupedFleet()));
  const members = groupedFleet().members.map((m) => ({ name: m.name, group: m.group as string }));
  return { backend: { simulator: { fleetFile: "fleet.json", timeScale: 60_000 } }, members, baseDir: dir };
}

async function onFleetManager(): Promise<Setup> {
  emulator = await startFleetEmulator();
  return { backend: fleetBackend(emulator), members: [], baseDir: os.tmpdir() };
}

function inputsFor(setup: Setup, extra: Record<string, unknown> = {}): UpdateRunInputs {
  return parseRunInputs({ runName: "contract", backend: setup.backend, members: setup.members, strategy: STRATEGY, managedClusterUpdate: FULL_132, timeoutMinutes: 2, ...extra });
}

async function driveOnce(driver: RunDriver, inputs: UpdateRunInputs, stored?: RunReport): Promise<{ report: RunReport; events: RunEvent[] }> {
  const events: RunEvent[] = [];
  const selection = stored === undefined ? { by: "stack" as const } : { by: "stack" as const, stored: { id: stored.id, ...(stored.engineState === undefined ? {} : { engineState: stored.engineState }), ...(stored.fleetRun === undefined ? {} : { fleetRun: stored.fleetRun }) } };
  const call = await driver.open(inputs, selection);
  try {
    return { report: await call.drive(inputs, { onEvent: (e) => events.push(e) }), events };
  } finally {
    call.release();
  }
}

const memberStates = (report: RunReport) => Object.fromEntries(report.status.stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((m) => [m.name, m.status.state]))));

describe.each([
  ["the engine driver on the simulated fleet", simulated, { executes: "here", deleteBeforeReplace: false, plansLocally: true }],
  ["the Fleet Manager driver on the emulator", onFleetManager, { executes: "server", deleteBeforeReplace: true, plansLocally: false }],
] as const)("%s", (_name, setUp, expected) => {
  test("driverFor picks it, and says who executes the run", async () => {
    const setup = await setUp();
    const driver = await driverFor(inputsFor(setup).backend, { baseDir: setup.baseDir });
    expect({ executes: driver.executes, deleteBeforeReplace: driver.deleteBeforeReplace, plansLocally: driver.plansLocally }).toEqual(expected);
  });

  test("stops at the gate with nothing in flight, lists it, takes its approval, then completes every member", async () => {
    const setup = await setUp();
    const inputs = inputsFor(setup);
    const driver = await driverFor(inputs.backend, { baseDir: setup.baseDir });
    expect(await driver.check(inputs)).toEqual([]);

    const first = await driveOnce(driver, inputs);
    expect(first.report).toMatchObject({ end: "gate", busy: false, executes: expected.executes, summary: { state: "Pending" } });
    expect(memberStates(first.report)).toMatchObject({ "canary-1": "Completed", "prod-1": "NotStarted", "dev-1": "NotStarted" });
    expect(first.events.some((e) => e.scope === "member" && e.name === "canary-1" && e.to === "Completed")).toBe(true);
    expect(await driver.gates(inputs)).toEqual([{ gateId: "prod/before/0", state: "Pending", displayName: "Change board" }]);

    await expect(driver.approve(inputs, ["prod/after/0"])).rejects.toThrow(/no gate 'prod\/after\/0' in this run/);
    expect(await driver.approve(inputs, ["prod/before/0"])).toMatch(/^approved prod\/before\/0 in /);

    const second = await driveOnce(driver, inputs, first.report);
    expect(second.report).toMatchObject({ id: first.report.id, end: "settled", busy: false, summary: { state: "Completed", outcome: "Succeeded" }, failedMembers: [] });
    expect(memberStates(second.report)).toEqual(Object.fromEntries(MEMBERS.map((m) => [m, "Completed"])));
    expect(second.report.strategySnapshot.stages.map((s) => s.name)).toEqual(["canary", "prod"]);
    // What is kept between calls is the driver's own: a journal's engine state, or the fleet's run.
    expect(second.report.engineState !== undefined).toBe(expected.executes === "here");
    expect(second.report.fleetRun !== undefined).toBe(expected.executes === "server");
  });
});
