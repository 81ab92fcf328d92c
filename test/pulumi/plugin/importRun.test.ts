/**
 * Issue 24: `pulumi import` through the provider plugin, in process. The engine's import step calls
 * Read with the id alone (pkg/resource/deploy/step.go, ImportStep); what Read returns must let the
 * program's own inputs show no diff, and taking the run up afterwards must not run anything again.
 * - a run `fleet-update run` started, by its journal file;
 * - a Fleet Manager update run (the ARM emulator), by its ARM id, the connection given as a query.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "../../../src/cli/run";
import { importRun } from "../../../src/pulumi/provider/importRun";
import { fleetUpdateProvider } from "../../../src/pulumi/plugin/provider";
import { isSecret, reveal } from "../../../src/pulumi/plugin/secrets";
import * as runProvider from "../../../src/pulumi/provider/runProvider";
import { readFleetState } from "../../../src/backends/simulator/stateFile";
import type { ArmEmulator } from "../../../src/emulator";
import { CANARY_THEN_PROD, FAST_POLL, FLEET, FULL_132, RESOURCE_GROUP, fleetClient, runState, startFleetEmulator, waitForRun } from "../../emulator/fleetHelpers";
import { FLEET_ID, caFile, runRequests } from "../../backends/azureFleet/support";
import { fleetYaml } from "../support/fleetYaml";

const quiet = () => {};
const MEMBERS = [
  { name: "eu-1", group: "canary" },
  { name: "eu-2", group: "prod" },
  { name: "eu-3", group: "prod" },
];
const STRATEGY = { stages: [{ name: "canary", groups: [{ name: "canary" }] }, { name: "prod", groups: [{ name: "prod" }] }] };
const UPDATE = { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } };

describe("importing a run `fleet-update run` started, by its journal", () => {
  let dir = "";
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-journal-"));
    fs.writeFileSync(path.join(dir, "fleet.yaml"), fleetYaml(MEMBERS.map((m) => m.name)));
    fs.writeFileSync(path.join(dir, "adopted.yaml"), JSON.stringify({ members: MEMBERS, strategy: STRATEGY, managedClusterUpdate: UPDATE }));
    const printed: string[] = [];
    const code = await runCommand(path.join(dir, "adopted.yaml"), { backend: `simulator:${path.join(dir, "fleet.yaml")}`, timeScale: "20000", progress: "lines" }, { stdout: (t) => printed.push(t), stderr: (t) => printed.push(t) });
    expect(code, printed.join("")).toBe(0);
    expect(printed.join("")).toContain(`journal: ${path.join(dir, "fleet.yaml.state.runs", "adopted.json")}`);
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The program's own inputs for the run, as the plugin's check passes them on. */
  const programInputs = () => ({ runName: "adopted", projectDir: dir, backend: { simulator: { fleetFile: "fleet.yaml", timeScale: 20000 } }, members: MEMBERS, strategy: STRATEGY, managedClusterUpdate: UPDATE });

  it("Read with the journal's path (relative to the project) returns the run's id, inputs as a program writes them, and its Completed status", async () => {
    const imported = await importRun("fleet.yaml.state.runs/adopted.json", "adopted", dir, quiet);
    expect(imported.id).toMatch(/^adopted-[0-9a-f]{8}$/);
    expect(imported.inputs).toEqual({
      backend: { simulator: { fleetFile: "fleet.yaml", timeScale: 20000 } },
      members: MEMBERS,
      strategy: STRATEGY,
      managedClusterUpdate: UPDATE,
      state: "Running",
      skip: [],
      approvals: [],
      timeoutMinutes: 240,
    });
    expect(imported.props).toMatchObject({ runName: "adopted", projectDir: dir, summary: { state: "Completed", members: { total: 3, Completed: 3 } } });
    expect((imported.props.engineState as { stages: unknown[] }).stages).toHaveLength(2);
  });

  it("the program's own inputs (defaults left out) then show no diff, and an update takes the same run up without upgrading anything again", async () => {
    const imported = await importRun(path.join(dir, "fleet.yaml.state.runs", "adopted.json"), "adopted", dir, quiet);
    expect(await runProvider.diff(imported.id, imported.props, programInputs())).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    // A real change still shows: a control in place, the target as a new run.
    expect(await runProvider.diff(imported.id, imported.props, { ...programInputs(), state: "Stopped" })).toMatchObject({ changes: true, replaces: [] });
    expect(await runProvider.diff(imported.id, imported.props, { ...programInputs(), managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } } })).toMatchObject({ changes: true, replaces: ["managedClusterUpdate"] });

    const before = readFleetState(path.join(dir, "fleet.yaml.state.json"))!.clusters!;
    const { outs } = await runProvider.update(imported.id, imported.props, programInputs());
    expect(outs.summary).toMatchObject({ state: "Completed", members: { Completed: 3 } });
    const after = readFleetState(path.join(dir, "fleet.yaml.state.json"))!.clusters!;
    expect(Object.values(after).map((c) => c.operations.length)).toEqual(Object.values(before).map(() => 1));
  });

  it("through the plugin: Read with no properties imports, engineState secret; the wrong name or a missing journal is refused saying what to use", async () => {
    const provider = fleetUpdateProvider({ version: "0.0.0-test", schema: "{}" });
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const read = (await provider.read!("fleet.yaml.state.runs/adopted.json", "urn:pulumi:dev::proj::fleet-update:index:UpdateRun::adopted", {})) as { id: string; inputs: Record<string, unknown>; props: Record<string, unknown> };
      expect(read.id).toMatch(/^adopted-/);
      expect(read.inputs.backend).toEqual({ simulator: { fleetFile: "fleet.yaml", timeScale: 20000 } });
      expect(isSecret(read.props.engineState)).toBe(true);
      expect(reveal(read.props.summary)).toMatchObject({ state: "Completed" });
    } finally {
      process.chdir(cwd);
    }
    await expect(importRun("fleet.yaml.state.runs/adopted.json", "other", dir, quiet)).rejects.toThrow(/the journal's run is named 'adopted' .*import it as `adopted`/);
    await expect(importRun("fleet.yaml.state.runs/nope.json", "nope", dir, quiet)).rejects.toThrow(/no run journal at .*nope\.json \(the import id of a run of ours is its journal file/);
  });
});

describe("importing a Fleet Manager update run by its ARM id", () => {
  let emulator: ArmEmulator;
  let dir = "";
  let ca = "";
  beforeAll(async () => {
    emulator = await startFleetEmulator();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-fleet-"));
    ca = caFile(emulator);
    const client = fleetClient(emulator);
    await client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "hotfix", { properties: { strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 } }).pollUntilDone();
    await client.updateRuns.start(RESOURCE_GROUP, FLEET, "hotfix", FAST_POLL).pollUntilDone();
    await waitForRun(client, "hotfix", (r) => runState(r) === "Completed", 20_000);
  }, 60_000);
  afterAll(async () => {
    await emulator?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const connection = () => `endpoint=${encodeURIComponent(emulator.url)}&credential=emulator&trustedCaFile=${encodeURIComponent(ca)}&pollIntervalSeconds=0.02`;
  const backend = () => ({ azureFleet: { fleetId: FLEET_ID, endpoint: emulator.url, credential: "emulator", trustedCaFile: ca, pollIntervalSeconds: 0.02 } });

  it("Read returns the run's ARM id, the fleet, strategy and update it was created with, and its Completed status; the program's inputs show no diff", async () => {
    const imported = await importRun(`${FLEET_ID}/updateRuns/hotfix?${connection()}`, "hotfix", dir, quiet);
    expect(imported.id).toBe(`${FLEET_ID}/updateRuns/hotfix`);
    expect(imported.inputs).toMatchObject({ backend: backend(), members: [], strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132, state: "Running" });
    expect(imported.props).toMatchObject({ summary: { state: "Completed", members: { Completed: 5 } }, fleetRun: { id: `${FLEET_ID}/updateRuns/hotfix` } });

    // The program (examples/fleet-manager style): no members listed, the same strategy and update.
    const program = { runName: "hotfix", projectDir: dir, backend: backend(), strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 };
    expect(await runProvider.diff(imported.id, imported.props, program)).toMatchObject({ changes: false, replaces: [] });

    // Taking it up attaches to the fleet's run: nothing created, started or upgraded again.
    const upgradesBefore = emulator.fleet.operationLog().length;
    const puts = () => runRequests(emulator, "hotfix").filter((r) => r.method !== "GET");
    const putsBefore = puts().length;
    const { outs } = await runProvider.update(imported.id, imported.props, program);
    expect(outs.summary).toMatchObject({ state: "Completed" });
    expect(puts().length).toBe(putsBefore);
    expect(emulator.fleet.operationLog()).toHaveLength(upgradesBefore);
  });

  it("refuses a run of another name, a run the fleet does not have, and a query field that is not azureFleet's", async () => {
    await expect(importRun(`${FLEET_ID}/updateRuns/hotfix?${connection()}`, "other", dir, quiet)).rejects.toThrow(/import it as `hotfix`/);
    await expect(importRun(`${FLEET_ID}/updateRuns/nope?${connection()}`, "nope", dir, quiet)).rejects.toThrow(/fleet 'fleet' has no update run 'nope'/);
    await expect(importRun(`${FLEET_ID}/updateRuns/hotfix?token=x`, "hotfix", dir, quiet)).rejects.toThrow(/the id's query names 'token'/);
    await expect(importRun(`${FLEET_ID}/updateRuns/hotfix?credential=emulator`, "hotfix", dir, quiet)).rejects.toThrow(/backend\.azureFleet\.credential: emulator credentials are only accepted/);
  });
});
