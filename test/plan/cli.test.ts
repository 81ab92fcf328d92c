/**
 * `fleet-update plan`: human and JSON output, the run-spec form on a simulated fleet (read, never
 * written), and exit codes.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { planCommand, type PlanOptions } from "../../src/cli/plan";
import type { Plan } from "../../src/plan/types";
import { DEMO, EXAMPLE_SCENARIOS } from "./support";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const OLD_IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NEW_IMAGE = "AKSUbuntu-2204gen2containerd-202611.24.0";

async function plan(file: string, options: PlanOptions = {}, now = Date.parse("2026-12-05T00:00:00Z")) {
  let stdout = "";
  let stderr = "";
  const code = await planCommand(file, options, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, now);
  return { code, stdout, stderr };
}

function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "plan-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const pool = (version: string, image: string) => `[{name: system, orchestratorVersion: ${version}, nodeImageVersion: ${image}}]`;
const FLEET = `regions:
  westeurope:
    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]
    nodeImages: [{version: ${OLD_IMAGE}}, {version: ${NEW_IMAGE}}]
members:
  - {name: canary-1, region: westeurope, kubernetesVersion: 1.31.2, nodePools: ${pool("1.31.2", OLD_IMAGE)}, simulation: {upgradeMinutes: 20}}
  - {name: eu-1, region: westeurope, kubernetesVersion: 1.31.2, nodePools: ${pool("1.31.2", OLD_IMAGE)}, simulation: {fail: {code: UpgradeFailed, message: boom}}}
  - {name: eu-2, region: westeurope, kubernetesVersion: 1.31.2, nodePools: ${pool("1.31.2", OLD_IMAGE)}}
`;
const SPEC = `backend: {simulator: {fleetFile: fleet.yaml}}
members: [{name: canary-1, group: canary}, {name: eu-1, group: prod}, {name: eu-2, group: prod}]
strategy: {stages: [{name: canary, groups: [{name: canary}], afterStageWaitInSeconds: 600}, {name: prod, groups: [{name: prod}]}]}
managedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}}
`;

describe("fleet-update plan", () => {
  it("prints stage ETAs, a table of members with Pending periods and skip reasons, then the findings", async () => {
    const { code, stdout, stderr } = await plan(DEMO);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const lines = stdout.split("\n");
    expect(lines[0]).toBe("Plan from 2026-12-05T00:00:00Z: run Completed, ends 2026-12-06T18:30:00Z");
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}canary +2026-12-05T00:00:00Z +→ +2026-12-05T04:20:00Z +Completed +\(incl\. wait 1h\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^MEMBER +STAGE\/GROUP +CLASS +START +END +STATE$/));
    const row = lines.findIndex((l) => l.startsWith("canary-us "));
    expect(lines[row]).toMatch(/^canary-us +canary\/canary +opensSoon +2026-12-05T03:00:00Z +2026-12-05T03:20:00Z +Completed$/);
    expect(lines[row + 1]).toBe("    pending 2026-12-05T00:00:00Z → 2026-12-05T03:00:00Z: Maintenance window closed; next opening at 2026-12-05T03:00:00Z.");
    expect(lines).toContainEqual(expect.stringMatching(/^prod-us-2 +production\/prod-us +noWindow +- +2026-12-05T07:55:00Z +Skipped$/));
    expect(lines).toContainEqual("    skipped: Already at target: control plane and every node pool run Kubernetes 1.32.0 with the target node images.");
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}warning +VERSION_NOT_IN_REGION +southeastasia: Kubernetes 1\.32\.0 reaches region southeastasia at 2026-12-06T00:00:00Z/));
  });

  it("--json prints members, stages and findings with ISO 8601 UTC times", async () => {
    const { code, stdout } = await plan(join(EXAMPLE_SCENARIOS, "03-maintenance-window.yaml"), { json: true });
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as Plan;
    expect(Object.keys(result)).toEqual(["plannedFrom", "horizon", "run", "stages", "members", "selectedNodeImageVersions", "findings"]);
    expect(result.members.map((m) => [m.name, m.stage, m.group, m.priorityClass, m.predictedStart, m.predictedEnd, m.predictedState])).toEqual([
      ["closed-1", "all", "prod", "closed", "2026-12-05T12:00:00Z", "2026-12-05T12:10:00Z", "Completed"],
      ["none-1", "all", "prod", "noWindow", "2026-12-05T00:10:00Z", "2026-12-05T00:20:00Z", "Completed"],
      ["open-1", "all", "prod", "open", "2026-12-05T00:00:00Z", "2026-12-05T00:10:00Z", "Completed"],
    ]);
    expect(result.members[0]?.pending).toEqual([{ from: "2026-12-05T00:20:00Z", until: "2026-12-05T12:00:00Z", reason: "Maintenance window closed; next opening at 2026-12-05T12:00:00Z." }]);
    for (const m of result.members) {
      expect(Object.keys(m)).toEqual(expect.arrayContaining(["name", "stage", "group", "priorityClass", "predictedState", "pending"]));
      for (const t of [m.predictedStart, m.predictedEnd, ...m.pending.flatMap((p) => [p.from, p.until])]) if (t !== undefined) expect(t).toMatch(ISO);
    }
    expect(result.stages).toEqual([
      { name: "all", predictedStart: "2026-12-05T00:00:00Z", predictedEnd: "2026-12-05T12:10:00Z", predictedState: "Completed", afterStageWaitInSeconds: 0, groups: [{ name: "prod", predictedStart: "2026-12-05T00:00:00Z", predictedEnd: "2026-12-05T12:10:00Z", predictedState: "Completed" }] },
    ]);
    expect(result.findings).toEqual([]);
    expect([result.plannedFrom, result.horizon]).toEqual(["2026-12-05T00:00:00Z", "2026-12-06T00:00:00Z"]);
  });

  it("plans a run spec on a simulated fleet from now, assuming no failure, without writing or creating its state file", async () => {
    const dir = scratch({ "fleet.yaml": FLEET, "run.yaml": SPEC });
    const now = Date.parse("2026-12-07T09:30:00.400Z");
    const { code, stdout, stderr } = await plan(join(dir, "run.yaml"), { json: true }, now);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as Plan;
    // No state file yet: simulated time starts at real time (rounded up to the second), as the fleet does.
    expect(result.plannedFrom).toBe("2026-12-07T09:30:01Z");
    expect(result.members.map((m) => [m.name, m.predictedStart, m.predictedEnd, m.predictedState])).toEqual([
      ["canary-1", "2026-12-07T09:30:01Z", "2026-12-07T09:50:01Z", "Completed"],
      ["eu-1", "2026-12-07T10:00:01Z", "2026-12-07T10:10:01Z", "Completed"],
      ["eu-2", "2026-12-07T10:10:01Z", "2026-12-07T10:20:01Z", "Completed"],
    ]);
    expect(result.findings.map((f) => f.code)).toEqual(["PLAN_ASSUMPTION"]);
    expect(existsSync(join(dir, "fleet.yaml.state.json"))).toBe(false);
  });

  it("reads a run spec's fleet as its state file has it: simulated time, clusters already upgraded, an upgrade in flight", async () => {
    const realNow = Date.parse("2026-12-07T09:30:00Z");
    const simulatedNow = Date.parse("2027-01-01T00:00:00Z");
    const cluster = (version: string, image: string, operations: unknown[] = []) => ({ kubernetesVersion: version, nodePools: [{ name: "system", orchestratorVersion: version, nodeImageVersion: image }], operations, nextOperationNumber: operations.length + 1 });
    const inFlight = { operationId: "op-eu-1-1", request: { type: "Full", kubernetesVersion: "1.32.0", nodeImageVersions: { system: NEW_IMAGE } }, startAt: simulatedNow - 5 * 60_000, endAt: simulatedNow + 5 * 60_000, failWith: { code: "UpgradeFailed", message: "boom" } };
    const state = {
      format: 1,
      clock: { realOrigin: realNow, simulatedOrigin: simulatedNow, timeScale: 60 },
      clusters: { "canary-1": cluster("1.32.0", NEW_IMAGE), "eu-1": cluster("1.31.2", OLD_IMAGE, [inFlight]), "eu-2": cluster("1.31.2", OLD_IMAGE) },
    };
    const stateText = `${JSON.stringify(state, null, 2)}\n`;
    const dir = scratch({ "fleet.yaml": FLEET, "run.yaml": SPEC, "fleet.yaml.state.json": stateText });
    const before = statSync(join(dir, "fleet.yaml.state.json")).mtimeMs;
    const { code, stdout } = await plan(join(dir, "run.yaml"), { json: true }, realNow);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as Plan;
    expect(result.plannedFrom).toBe("2027-01-01T00:00:00Z");
    const eu1 = result.members.find((m) => m.name === "eu-1");
    expect(result.members.map((m) => [m.name, m.predictedState])).toEqual([["canary-1", "Skipped"], ["eu-1", "Skipped"], ["eu-2", "Completed"]]);
    // The upgrade in flight (ending at 00:05) is waited for and, assumed to succeed, leaves eu-1 at
    // target; eu-2 takes the group's one slot meanwhile, so eu-1 is looked at again when eu-2 ends.
    expect(eu1?.pending).toEqual([
      { from: "2027-01-01T00:00:00Z", until: "2027-01-01T00:10:00Z", reason: "Another operation (op-eu-1-1) is in progress on the cluster; waiting for it to end (expected at 2027-01-01T00:05:00Z)." },
    ]);
    expect(eu1?.predictedEnd).toBe("2027-01-01T00:10:00Z");
    expect(result.members.find((m) => m.name === "eu-2")?.predictedStart).toBe("2027-01-01T00:00:00Z");
    expect(result.findings.map((f) => [f.code, f.member])).toContainEqual(["OPERATION_IN_FLIGHT", "eu-1"]);
    expect(readFileSync(join(dir, "fleet.yaml.state.json"), "utf8")).toBe(stateText);
    expect(statSync(join(dir, "fleet.yaml.state.json")).mtimeMs).toBe(before);
  });

  it("applies a run spec's skip and approvals from the start", async () => {
    const dir = scratch({
      "fleet.yaml": FLEET,
      "run.yaml": `${SPEC.replace("{name: prod, groups: [{name: prod}]}", "{name: prod, groups: [{name: prod}], beforeGates: [{type: Approval}]}")}skip: [{type: Member, name: eu-2}]\napprovals: [prod/before/0]\n`,
    });
    const { code, stdout } = await plan(join(dir, "run.yaml"), { json: true });
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as Plan;
    expect(result.members.map((m) => [m.name, m.predictedState])).toEqual([["canary-1", "Completed"], ["eu-1", "Completed"], ["eu-2", "Skipped"]]);
  });

  it("takes `fleet-update run`'s spec with --backend, as `run` does", async () => {
    const dir = scratch({ "fleet.yaml": FLEET, "rollout.yaml": SPEC.replace("backend: {simulator: {fleetFile: fleet.yaml}}\n", "name: rollout\n") });
    const { code, stdout, stderr } = await plan(join(dir, "rollout.yaml"), { json: true, backend: `simulator:${join(dir, "fleet.yaml")}` });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as Plan).members.map((m) => [m.name, m.predictedState])).toEqual([["canary-1", "Completed"], ["eu-1", "Completed"], ["eu-2", "Completed"]]);
    expect(existsSync(join(dir, "fleet.yaml.state.json"))).toBe(false);
    const missingFleet = await plan(join(dir, "rollout.yaml"), { backend: `simulator:${join(dir, "nowhere.yaml")}` });
    expect(missingFleet.code).toBe(2);
    expect(missingFleet.stderr).toMatch(/^--backend: cannot read .*nowhere\.yaml/);
    const noBackend = await plan(join(dir, "rollout.yaml"));
    expect([noBackend.code, noBackend.stderr]).toEqual([2, `${join(dir, "rollout.yaml")}: backend: a run spec needs its backend: --backend simulator:FLEET_FILE or azure, or a backend field\n`]);
    expect((await plan(join(dir, "rollout.yaml"), { backend: "gcp" })).stderr).toBe("--backend: must be simulator:FLEET_FILE, azure or azure-fleet:FLEET_ID, got 'gcp'\n");
  });

  it("exits 2 with one line per problem naming the field path: scenario, run spec, missing member, options", async () => {
    const dir = scratch({
      "bad-scenario.yaml": "start: 2026-12-05T00:00:00Z\nregions: {}\nmembers: []\nmanagedClusterUpdate: {upgrade: {type: Full}}\n",
      "bad-spec.yaml": "backend: {simulator: {fleetFile: fleet.yaml}}\nmembers: [{name: Eu-1}]\nmanagedClusterUpdate: {upgrade: {type: Full}}\n",
      "stranger.yaml": "backend: {simulator: {fleetFile: fleet.yaml}}\nmembers: [{name: eu-1}, {name: nobody}]\nmanagedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}}\n",
      "fleet.yaml": FLEET,
      "list.yaml": "[1, 2]\n",
    });
    const scenario = await plan(join(dir, "bad-scenario.yaml"));
    expect(scenario.code).toBe(2);
    expect(scenario.stdout).toBe("");
    expect(scenario.stderr).toContain(`${join(dir, "bad-scenario.yaml")}: members: a fleet has at least one member\n`);
    expect(scenario.stderr).toContain(`${join(dir, "bad-scenario.yaml")}: managedClusterUpdate.upgrade.kubernetesVersion: is required for a Full upgrade\n`);
    const spec = await plan(join(dir, "bad-spec.yaml"));
    expect(spec.code).toBe(2);
    expect(spec.stderr).toContain("bad-spec.yaml: members[0].name: must be lowercase");
    expect(spec.stderr).toContain("bad-spec.yaml: managedClusterUpdate.upgrade.kubernetesVersion: is required for a Full upgrade");
    const stranger = await plan(join(dir, "stranger.yaml"));
    expect([stranger.code, stranger.stderr]).toEqual([2, `${join(dir, "stranger.yaml")}: members[1].name: no cluster 'nobody' in the fleet file fleet.yaml\n`]);
    expect((await plan(join(dir, "list.yaml"))).stderr).toContain("(root): a plan input is a scenario");
    expect(await plan(join(dir, "missing.yaml"))).toEqual({ code: 2, stdout: "", stderr: `${join(dir, "missing.yaml")}: no such file\n` });
    expect(await plan(DEMO, { horizonDays: "soon" })).toEqual({ code: 2, stdout: "", stderr: "--horizon-days: must be a positive number of days, got 'soon'\n" });
  });

  it("is a subcommand of the built fleet-update (exit 0 with a plan, 2 for bad input)", () => {
    const main = resolve(__dirname, "../../dist/cli/main.js");
    const ok = spawnSync(process.execPath, [main, "plan", DEMO, "--json"], { encoding: "utf8" });
    expect(ok.status).toBe(0);
    expect((JSON.parse(ok.stdout) as Plan).members).toHaveLength(13);
    const bad = spawnSync(process.execPath, [main, "plan", join(EXAMPLE_SCENARIOS, "none.yaml")], { encoding: "utf8" });
    expect([bad.status, bad.stdout]).toEqual([2, ""]);
    expect(bad.stderr).toContain("none.yaml: no such file");
  });
});
