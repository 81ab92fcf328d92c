/** `fleet-update simulate` (docs/rules.md §7): outputs, exit codes, determinism. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { simulateCommand } from "../../src/cli/simulate";

const SCENARIOS = resolve(__dirname, "../../examples/scenarios");
const DEMO = resolve(__dirname, "../../examples/demo/scenario.yaml");

async function run(file: string, json: boolean, via?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await simulateCommand(file, { json, ...(via === undefined ? {} : { via }) }, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

function scratch(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "fleet-update-")), name);
  writeFileSync(file, text);
  return file;
}

describe("fleet-update simulate", () => {
  it("prints the docs/rules.md §7 JSON result: status, clusters, events", async () => {
    const { code, stdout, stderr } = await run(join(SCENARIOS, "02-staged-parallel.yaml"), true);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const result = JSON.parse(stdout);
    expect(Object.keys(result)).toEqual(["status", "summary", "clusters", "events"]);
    expect(result.status.status.state).toBe("Completed");
    expect(result.clusters.map((c: { name: string }) => c.name)).toEqual(["canary-1", "eu-1", "eu-2", "us-1"]);
    expect(result.events[0]).toEqual({ time: "2026-12-05T00:00:00Z", scope: "run", name: "scenario", from: "NotStarted", to: "Running" });
  });

  it("gives byte-identical --json output on repeated runs", async () => {
    for (const file of ["01-default-sequential.yaml", "02-staged-parallel.yaml", "03-maintenance-window.yaml"]) {
      const first = await run(join(SCENARIOS, file), true);
      const second = await run(join(SCENARIOS, file), true);
      expect(second.stdout).toBe(first.stdout);
    }
    const demo = [await run(DEMO, true), await run(DEMO, true)];
    expect(demo[1]!.stdout).toBe(demo[0]!.stdout);
  });

  it("prints a readable tree of stages, groups and members without --json", async () => {
    const { code, stdout } = await run(join(SCENARIOS, "03-maintenance-window.yaml"), false);
    expect(code).toBe(0);
    expect(stdout).toContain("Run scenario: Completed 2026-12-05T00:00:00Z → 2026-12-05T12:10:00Z");
    expect(stdout).toContain("  Stage all: Completed");
    expect(stdout).toContain("    Group prod: Completed");
    expect(stdout).toMatch(/✓ closed-1 +Completed 2026-12-05T12:00:00Z → 2026-12-05T12:10:00Z/);
  });

  it("exits 2 with one line per problem naming the field path, and prints nothing on stdout", async () => {
    const file = scratch(
      "bad.yaml",
      `start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.32.0}]}}
members:
  - {name: a, group: x, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
strategy: {stages: [{name: s, groups: [{name: x}, {name: x}]}]}
managedClusterUpdate: {upgrade: {type: Full}}
`,
    );
    const { code, stdout, stderr } = await run(file, true);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toEqual([
      `${file}: strategy.stages[0].groups[1].name: group 'x' is listed twice (also stages[0].groups[0])`,
      `${file}: managedClusterUpdate.upgrade.kubernetesVersion: is required for a Full upgrade`,
    ]);
  });

  it("exits 2 for a missing file and for text that is not YAML", async () => {
    expect((await run("/nonexistent/scenario.yaml", true)).code).toBe(2);
    const broken = await run(scratch("broken.yaml", "start: [unclosed\n"), true);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/not valid YAML or JSON/);
  });

  it("warns on stderr about members left out and about refused actions, and still exits 0", async () => {
    const file = scratch(
      "warn.yaml",
      `start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.32.0}]}}
members:
  - {name: a, group: g, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
  - {name: lost, group: nowhere, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
strategy: {stages: [{name: s, groups: [{name: g}]}]}
managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}
actions: [{at: 2026-12-05T00:05:00Z, skip: [{type: Member, name: a}]}]
`,
    );
    const { code, stdout, stderr } = await run(file, true);
    expect(code).toBe(0);
    expect(stderr).toContain("warning: member 'lost' is left out of the run: group 'nowhere' is in no stage of the strategy");
    expect(stderr).toContain("warning: action at 2026-12-05T00:05:00Z refused: skip refused, nothing was skipped: Member 'a' is running and cannot be skipped");
    const result = JSON.parse(stdout);
    expect(result.status.stages[0].groups[0].members.map((m: { name: string }) => m.name)).toEqual(["a"]);
    expect(result.status.status.state).toBe("Completed");
  });
});

describe("fleet-update simulate --via arm-emulator", () => {
  it("prints the same result shape plus the emulator's request counts, with the same final states", async () => {
    const file = join(SCENARIOS, "01-default-sequential.yaml");
    const viaArm = await run(file, true, "arm-emulator");
    expect(viaArm.code).toBe(0);
    const result = JSON.parse(viaArm.stdout);
    expect(Object.keys(result)).toEqual(["status", "summary", "clusters", "events", "requests"]);
    expect(result.requests).toMatchObject({ PUT: 2, POST: 0, throttled: 0 });
    const local = JSON.parse((await run(file, true)).stdout);
    const states = (r: typeof result) => r.status.stages[0].groups[0].members.map((m: { name: string; status: { state: string } }) => [m.name, m.status.state]);
    expect(states(result)).toEqual(states(local));
  }, 60_000);

  it("refuses an unknown --via with exit 2", async () => {
    const { code, stderr } = await run(join(SCENARIOS, "01-default-sequential.yaml"), true, "azure-prod");
    expect(code).toBe(2);
    expect(stderr).toContain("--via: unknown backend 'azure-prod'");
  });
});

describe("the demo scenario (npm start)", () => {
  it("completes across three stages, honouring windows and a late version", async () => {
    const { code, stdout } = await run(DEMO, true);
    expect(code).toBe(0);
    const { status, clusters } = JSON.parse(stdout);
    expect(status.status.state).toBe("Completed");
    expect(status.stages.map((s: { name: string }) => s.name)).toEqual(["canary", "early", "production"]);
    const members = status.stages.flatMap((s: { groups: Array<{ members: unknown[] }> }) => s.groups.flatMap((g) => g.members));
    expect(members).toHaveLength(13);
    // prod-asia members wait for 1.32.0 to reach southeastasia at 2026-12-06T00:00Z.
    const asia = members.filter((m: { name: string }) => m.name.startsWith("prod-asia"));
    for (const m of asia) expect(Date.parse(m.status.startTime)).toBeGreaterThanOrEqual(Date.parse("2026-12-06T00:00:00Z"));
    // The cluster already at target is skipped and never touched.
    expect(members.find((m: { name: string }) => m.name === "prod-us-2").status.state).toBe("Skipped");
    expect(clusters.find((c: { name: string }) => c.name === "prod-us-2").operations).toEqual([]);
    for (const c of clusters) expect(c.kubernetesVersion).toBe("1.32.0");
  });
});
