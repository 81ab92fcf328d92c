/**
 * `fleet-update run` as a user runs it: the built command in a child process, on small simulated fleets
 * in temporary directories, simulated time running fast. What is checked is what a user or a pipeline
 * sees: the exit code, stdout (`--json`), stderr progress, and what happened to the clusters (the
 * fleet state file's operation log). Needs `npm run build` (`npm test` does it).
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { treeFrame } from "../../src/cli/liveTree";
import type { RunSummary } from "../../src/engine/summary";
import type { RunEvent, UpdateRunStatus } from "../../src/model/status";
import { formatProgressLine } from "../../src/drivers/progressLine";
import { readFleetState } from "../../src/backends/simulator/stateFile";

const CLI = path.resolve(__dirname, "../../dist/cli/main.js");
const IMAGE_BEFORE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const IMAGE_AFTER = "AKSUbuntu-2204gen2containerd-202611.24.0";

/** `simulation` settings by member; every member starts at 1.31.2 in westeurope. */
function fleetYaml(simulation: Record<string, string> = {}): string {
  const member = (name: string) =>
    `  - {name: ${name}, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${IMAGE_BEFORE}}]${simulation[name] === undefined ? "" : `, simulation: ${simulation[name]}`}}`;
  return `regions:
  westeurope:
    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]
    nodeImages: [{version: ${IMAGE_AFTER}}]
members:
${["canary-1", "eu-1", "eu-2"].map(member).join("\n")}
`;
}

interface SpecParts {
  /** The prod group's extra fields, e.g. `maxAllowedFailures: "1"`. */
  prodGroup?: string;
  /** The prod stage's extra fields, e.g. `beforeGates: [{type: Approval}]`. */
  prodStage?: string;
  waitSeconds?: number;
  /** Extra top-level lines (approvals, timeoutMinutes, ...). */
  extra?: string;
  kubernetesVersion?: string;
}

/** Canary first (one member), a wait, then prod (two members, one at a time). */
function specYaml(parts: SpecParts = {}): string {
  const prodGroup = parts.prodGroup === undefined ? "{name: prod}" : `{name: prod, ${parts.prodGroup}}`;
  const prodStage = parts.prodStage === undefined ? "" : `, ${parts.prodStage}`;
  return `members: [{name: canary-1, group: canary}, {name: eu-1, group: prod}, {name: eu-2, group: prod}]
strategy:
  stages:
    - {name: canary, groups: [{name: canary}], afterStageWaitInSeconds: ${parts.waitSeconds ?? 600}}
    - {name: prod, groups: [${prodGroup}]${prodStage}}
managedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: ${parts.kubernetesVersion ?? "1.32.0"}}}
${parts.extra ?? ""}
`;
}

/** A fresh directory with `fleet.yaml` and the spec `rollout.yaml` (so the run is named `rollout`). */
function workspace(simulation: Record<string, string> = {}, spec: SpecParts = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-run-"));
  fs.writeFileSync(path.join(dir, "fleet.yaml"), fleetYaml(simulation));
  fs.writeFileSync(path.join(dir, "rollout.yaml"), specYaml(spec));
  return dir;
}

function runArgs(timeScale: number, ...more: string[]): string[] {
  return ["run", "rollout.yaml", "--backend", "simulator:fleet.yaml", "--time-scale", String(timeScale), ...more];
}

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command running in `dir`: its output so far, a wait for a line on stderr, and its end. */
function launch(dir: string, args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const watchers: Array<{ pattern: RegExp; resolve: () => void }> = [];
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    for (const w of watchers.filter((w) => w.pattern.test(stderr))) {
      watchers.splice(watchers.indexOf(w), 1);
      w.resolve();
    }
  });
  const finished = new Promise<Finished>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return {
    child,
    finished,
    /** Resolves once stderr matches (or fails the test if the command ends first). */
    stderrMatches: (pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(stderr)) return resolve();
        watchers.push({ pattern, resolve });
        void finished.then((f) => reject(new Error(`ended (exit ${f.code}) before stderr matched ${pattern}:\n${f.stderr}`)));
      }),
  };
}

function runCli(dir: string, args: string[]): Promise<Finished> {
  return launch(dir, args).finished;
}

interface JsonResult {
  status: UpdateRunStatus;
  summary: RunSummary;
  failedMembers: Array<{ name: string; group: string }>;
  appliedNodeImageVersions: Array<{ version: string }>;
}

function memberStates(status: UpdateRunStatus): Record<string, string> {
  return Object.fromEntries(status.stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((m) => [m.name, m.status.state]))));
}

/** Every upgrade the simulated fleet accepted, by cluster: `op-id:result` (no result = still in flight). */
function operations(dir: string): Record<string, string[]> {
  const state = readFleetState(path.join(dir, "fleet.yaml.state.json")) as {
    clusters: Record<string, { operations: Array<{ operationId: string; result?: string }> }>;
  };
  return Object.fromEntries(Object.entries(state.clusters).map(([name, c]) => [name, c.operations.map((o) => `${o.operationId}:${o.result ?? "in flight"}`)]));
}

const EACH_UPGRADED_ONCE = { "canary-1": ["op-canary-1-1:Succeeded"], "eu-1": ["op-eu-1-1:Succeeded"], "eu-2": ["op-eu-2-1:Succeeded"] };

beforeAll(() => {
  if (!fs.existsSync(path.resolve(__dirname, "../../dist/cli/run.js"))) throw new Error("dist/ has no `run` command: run `npm run build` first");
});

describe("fleet-update run: exit codes", () => {
  it("exits 0 when the run succeeds, printing {status, summary, failedMembers, appliedNodeImageVersions} with --json", async () => {
    const dir = workspace();
    const { code, stdout } = await runCli(dir, runArgs(6000, "--json"));
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as JsonResult;
    expect(Object.keys(result)).toEqual(["status", "summary", "failedMembers", "appliedNodeImageVersions"]);
    expect(result.summary.outcome).toBe("Succeeded");
    expect(result.status.status.state).toBe("Completed");
    expect(result.failedMembers).toEqual([]);
    expect(result.appliedNodeImageVersions).toEqual([{ version: IMAGE_AFTER }]);
    expect(operations(dir)).toEqual(EACH_UPGRADED_ONCE);
  });

  it("exits 1 when a member fails, naming it and its error", async () => {
    const dir = workspace({ "eu-1": "{fail: {code: UpgradeFailed, message: drain timed out}}" });
    const { code, stdout } = await runCli(dir, runArgs(6000));
    expect(code).toBe(1);
    expect(stdout).toContain("Run rollout: Failed");
    expect(stdout).toContain("✗ eu-1: UpgradeFailed: drain timed out");
    expect(operations(dir)["eu-2"]).toEqual([]);
  });

  it("exits 1 when the run completes with failures tolerated by maxAllowedFailures", async () => {
    const dir = workspace({ "eu-1": "{fail: {code: UpgradeFailed, message: drain timed out}}" }, { prodGroup: 'maxAllowedFailures: "1"' });
    const { code, stdout } = await runCli(dir, runArgs(6000, "--json"));
    expect(code).toBe(1);
    const result = JSON.parse(stdout) as JsonResult;
    expect(result.summary.outcome).toBe("CompletedWithFailures");
    expect(result.status.status.state).toBe("Completed");
    expect(memberStates(result.status)).toEqual({ "canary-1": "Completed", "eu-1": "Failed", "eu-2": "Completed" });
    expect(result.failedMembers).toEqual([{ name: "eu-1", group: "prod" }]);
  });

  it("exits 3 when the deadline comes with an upgrade in flight; a changed spec is then refused unless --new", async () => {
    // A 10-hour upgrade is a minute of real time; the deadline is a fraction of a second away.
    const dir = workspace({ "canary-1": "{upgradeMinutes: 600}" }, { extra: "timeoutMinutes: 0.005" });
    const first = await runCli(dir, runArgs(600, "--json"));
    expect(first.code).toBe(3);
    const result = JSON.parse(first.stdout) as JsonResult;
    expect(result.summary.outcome).toBe("Pending");
    expect(memberStates(result.status)["canary-1"]).toBe("Running");
    expect(operations(dir)["canary-1"]).toEqual(["op-canary-1-1:in flight"]);

    fs.writeFileSync(path.join(dir, "rollout.yaml"), specYaml({ kubernetesVersion: "1.32.1", extra: "timeoutMinutes: 0.005" }));
    const changed = await runCli(dir, runArgs(600));
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain("started from a different spec");
    expect(changed.stderr).toContain("--new");

    // A new run never races the old run's upgrade: the cluster is busy, so its member waits.
    const fresh = await runCli(dir, runArgs(600, "--new", "--json"));
    expect(fresh.stderr).toMatch(/Starting run rollout/);
    expect(fresh.code).toBe(4);
    expect(memberStates((JSON.parse(fresh.stdout) as JsonResult).status)["canary-1"]).toBe("Pending");
    expect(operations(dir)["canary-1"]).toEqual(["op-canary-1-1:in flight"]);
  });

  it("exits 4 at a gate waiting for approval; with the approval in the spec, re-running continues to the end", async () => {
    const dir = workspace({}, { prodStage: "beforeGates: [{type: Approval}]" });
    const waiting = await runCli(dir, runArgs(6000));
    expect(waiting.code).toBe(4);
    expect(waiting.stdout).toContain("Waiting for approval of 'prod/before/0'");
    expect(operations(dir)).toEqual({ "canary-1": ["op-canary-1-1:Succeeded"], "eu-1": [], "eu-2": [] });

    fs.writeFileSync(path.join(dir, "rollout.yaml"), specYaml({ prodStage: "beforeGates: [{type: Approval}]", extra: "approvals: [prod/before/0]" }));
    const approved = await runCli(dir, runArgs(6000));
    expect(approved.stderr).toContain("Resuming run rollout");
    expect(approved.code).toBe(0);
    expect(operations(dir)).toEqual(EACH_UPGRADED_ONCE);
  });

  it("exits 4 when returnAfterMinutes ends the call during a long after-stage wait", async () => {
    // A day's wait is 144 real seconds at this scale; returnAfterMinutes 1 is 10 simulated hours.
    const dir = workspace({}, { waitSeconds: 86_400, extra: "returnAfterMinutes: 1" });
    const { code, stdout } = await runCli(dir, runArgs(600));
    expect(code).toBe(4);
    expect(stdout).toContain("after-stage wait is running");
    expect(operations(dir)).toEqual({ "canary-1": ["op-canary-1-1:Succeeded"], "eu-1": [], "eu-2": [] });
  });

  it("exits 2 on an invalid spec, one line per problem naming the field path, touching nothing", async () => {
    const dir = workspace();
    fs.writeFileSync(
      path.join(dir, "rollout.yaml"),
      `members: [{name: canary-1, group: canary}]
strategy: {stages: [{name: canary, groups: [{name: Canary}]}]}
managedClusterUpdate: {upgrade: {type: Full}}
`,
    );
    const { code, stdout, stderr } = await runCli(dir, runArgs(6000));
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("rollout.yaml: strategy.stages[0].groups[0].name: must be lowercase letters");
    expect(stderr).toContain("rollout.yaml: managedClusterUpdate.upgrade.kubernetesVersion: ");
    expect(fs.existsSync(path.join(dir, "fleet.yaml.state.json"))).toBe(false);
  });

  it("exits 2 on bad flags, naming the flag", async () => {
    const dir = workspace();
    const unknown = await runCli(dir, ["run", "rollout.yaml", "--backend", "aws"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--backend: must be simulator:FLEET_FILE, azure or azure-fleet:FLEET_ID, got 'aws'");
    const mixed = await runCli(dir, runArgs(0, "--endpoint", "https://127.0.0.1:1"));
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--time-scale: must be greater than 0");
    expect(mixed.stderr).toContain("--endpoint: applies to --backend azure only");
    const emulator = await runCli(dir, ["run", "rollout.yaml", "--backend", "azure", "--credential", "emulator", "--endpoint", "https://example.com"]);
    expect(emulator.code).toBe(2);
    expect(emulator.stderr).toContain("--credential: emulator credentials are only accepted with an endpoint on https://127.0.0.1 or https://localhost");
  });
});

describe("fleet-update run: Ctrl-C and resume", () => {
  // canary-1's upgrade takes 3 real seconds, long enough to be interrupted while in flight.
  const SLOW_CANARY = { "canary-1": "{upgradeMinutes: 30}" };
  const CANARY_STARTED = /member canary-1 NotStarted → Running/;

  it("stops gracefully on Ctrl-C (exit 3: the upgrade in flight completed, no new member started); re-running resumes to the end", async () => {
    const dir = workspace(SLOW_CANARY);
    const run = launch(dir, runArgs(600, "--json"));
    await run.stderrMatches(CANARY_STARTED);
    run.child.kill("SIGINT");
    const stopped = await run.finished;
    expect(stopped.code).toBe(3);
    expect(stopped.stderr).toContain("Ctrl-C: stopping");
    const result = JSON.parse(stopped.stdout) as JsonResult;
    expect(result.summary.outcome).toBe("Stopped");
    expect(memberStates(result.status)).toEqual({ "canary-1": "Completed", "eu-1": "NotStarted", "eu-2": "NotStarted" });
    expect(operations(dir)).toEqual({ "canary-1": ["op-canary-1-1:Succeeded"], "eu-1": [], "eu-2": [] });

    const resumed = await runCli(dir, runArgs(600));
    expect(resumed.stderr).toContain("Resuming run rollout");
    expect(resumed.code).toBe(0);
    expect(operations(dir)).toEqual(EACH_UPGRADED_ONCE);
  });

  it("leaves at once on a second Ctrl-C (exit 130, the upgrade still in flight); re-running follows that upgrade instead of starting another", async () => {
    const dir = workspace(SLOW_CANARY);
    const run = launch(dir, runArgs(600));
    await run.stderrMatches(CANARY_STARTED);
    run.child.kill("SIGINT");
    await run.stderrMatches(/Ctrl-C: stopping/);
    run.child.kill("SIGINT");
    const left = await run.finished;
    expect(left.code).toBe(130);
    expect(left.stderr).toContain("Ctrl-C again: leaving now");
    expect(operations(dir)["canary-1"]).toEqual(["op-canary-1-1:in flight"]);

    const resumed = await runCli(dir, runArgs(600));
    expect(resumed.code).toBe(0);
    expect(operations(dir)).toEqual(EACH_UPGRADED_ONCE);
  });

  it("re-running a stopped run with state Stopped keeps it Stopped (exit 3) and starts nothing", async () => {
    const dir = workspace(SLOW_CANARY);
    const run = launch(dir, runArgs(600));
    await run.stderrMatches(CANARY_STARTED);
    run.child.kill("SIGINT");
    expect((await run.finished).code).toBe(3);
    fs.writeFileSync(path.join(dir, "rollout.yaml"), specYaml({ extra: "state: Stopped" }));
    const again = await runCli(dir, runArgs(600));
    expect(again.code).toBe(3);
    expect(operations(dir)).toEqual({ "canary-1": ["op-canary-1-1:Succeeded"], "eu-1": [], "eu-2": [] });
  });
});

describe("fleet-update run: a journal that cannot be read", () => {
  const journal = (dir: string) => path.join(dir, "fleet.yaml.state.runs", "rollout.json");

  it.each([
    ["a corrupt journal", "{\"runId\": \"rollout-1\", \"identity\": ", /not valid JSON/],
    ["a journal of a future format", JSON.stringify({ format: 3, runId: "rollout-1", identity: "x", engineState: { stages: [] } }), /format 3 is not one this version reads \(1, 2\)/],
    ["a file that is not a run journal", JSON.stringify({ hello: "world" }), /not a run journal/],
  ])("%s is refused with its file's name (exit 2), and nothing is upgraded or rewritten", async (_kind, text, message) => {
    const dir = workspace();
    fs.mkdirSync(path.dirname(journal(dir)), { recursive: true });
    fs.writeFileSync(journal(dir), text);
    const refused = await runCli(dir, runArgs(6000));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(message);
    expect(refused.stderr).toContain(journal(dir));
    expect(refused.stdout).toBe("");
    expect(fs.readFileSync(journal(dir), "utf8")).toBe(text);
    expect(fs.existsSync(path.join(dir, "fleet.yaml.state.json")) ? Object.values(operations(dir)).flat() : []).toEqual([]);
  });
});

describe("fleet-update run: progress", () => {
  it("without a terminal, prints one line per transition: exactly the events, in order", async () => {
    const dir = workspace();
    const { code, stderr } = await runCli(dir, runArgs(6000, "--events", "events.jsonl"));
    expect(code).toBe(0);
    const events = fs
      .readFileSync(path.join(dir, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as RunEvent);
    expect(events.length).toBeGreaterThan(10);
    const progressLines = stderr.split("\n").filter((line) => line.startsWith("[rollout] "));
    expect(progressLines).toEqual(events.map((e) => formatProgressLine("rollout", e)));
  });

  it("a resumed run adds to its --events file instead of starting it afresh", async () => {
    const dir = workspace({}, { prodStage: "beforeGates: [{type: Approval}]" });
    expect((await runCli(dir, runArgs(6000, "--events", "events.jsonl"))).code).toBe(4);
    const before = fs.readFileSync(path.join(dir, "events.jsonl"), "utf8");
    fs.writeFileSync(path.join(dir, "rollout.yaml"), specYaml({ prodStage: "beforeGates: [{type: Approval}]", extra: "approvals: [prod/before/0]" }));
    expect((await runCli(dir, runArgs(6000, "--events", "events.jsonl"))).code).toBe(0);
    const after = fs.readFileSync(path.join(dir, "events.jsonl"), "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(after.trim().split("\n").map((l) => (JSON.parse(l) as RunEvent).to).at(-1)).toBe("Completed");
  });

  const hasScript = spawnSync("script", ["--version"]).status === 0;
  it.skipIf(!hasScript)("on a terminal, redraws a tree in place (cursor up, clear) and ends on the final tree", () => {
    const dir = workspace();
    // `script` runs the command on a pseudo-terminal, as a user's shell would.
    const command = [process.execPath, CLI, ...runArgs(6000)].map((a) => `'${a}'`).join(" ");
    const result = spawnSync("script", ["-qec", command, "/dev/null"], { cwd: dir, encoding: "utf8", env: { ...process.env, COLUMNS: "100", LINES: "30" } });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/\x1b\[\d+A\x1b\[J/);
    expect(result.stdout).not.toMatch(/\[rollout\] .* NotStarted → Running/);
    const lastFrame = result.stdout.split("\x1b[J").at(-1) ?? "";
    expect(lastFrame).toContain("Run rollout: Completed · 3 of 3 done");
  });

  it("fits the tree to the terminal: long lines are cut, a tall tree ends with how many lines are hidden", () => {
    const members = Array.from({ length: 30 }, (_, i) => ({ name: `m-${i}`, message: "x".repeat(200), status: { state: i === 0 ? ("Running" as const) : ("NotStarted" as const) } }));
    const status = {
      status: { state: "Running" },
      stages: [{ name: "all", status: { state: "Running" }, failureCount: 0, groups: [{ name: "g", status: { state: "Running" }, failureCount: 0, members }] }],
      nodeImageSelection: { selectedNodeImageVersions: [] },
      failureCount: 0,
    } as unknown as UpdateRunStatus;
    const frame = treeFrame(status, "big", { columns: 60, rows: 12 });
    expect(frame).toHaveLength(11);
    expect(frame.every((line) => line.length <= 59)).toBe(true);
    expect(frame.at(-1)).toBe("  … 23 more lines");
    expect(frame[0]).toBe("Run big: Running · 0 of 30 done · 1 running");
  });
});

describe("fleet-update run and plan with an autoUpgradeProfile (docs/rules.md §18)", () => {
  /** The spec with its managedClusterUpdate replaced by `profile`. */
  function profileWorkspace(profile: string): string {
    const dir = workspace();
    const spec = fs.readFileSync(path.join(dir, "rollout.yaml"), "utf8").replace(/^managedClusterUpdate: .*$/m, `autoUpgradeProfile: ${profile}`);
    fs.writeFileSync(path.join(dir, "rollout.yaml"), spec);
    return dir;
  }

  it("plan shows the update the channel would generate; run applies it and says so, in text and JSON", async () => {
    const dir = profileWorkspace("{channel: Rapid}");
    const plan = await runCli(dir, ["plan", "rollout.yaml", "--backend", "simulator:fleet.yaml"]);
    expect(plan.stdout).toContain("update (generated at the start): Full to 1.32.0, Latest images");
    const text = await runCli(dir, runArgs(6000));
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("  update (generated at the start): Full to 1.32.0, Latest images");
    expect(operations(dir)).toEqual(EACH_UPGRADED_ONCE);
    const again = await runCli(dir, runArgs(6000, "--json"));
    expect((JSON.parse(again.stdout) as JsonResult & { generatedUpdate: unknown }).generatedUpdate).toEqual({ upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Latest" } });
  });

  it("no qualifying version: exit 1, the reason named, no cluster touched", async () => {
    const dir = profileWorkspace("{channel: TargetKubernetesVersion, targetKubernetesVersion: '1.40'}");
    const { code, stdout } = await runCli(dir, runArgs(6000));
    expect(code).toBe(1);
    expect(stdout).toContain("✗ autoUpgradeProfile.targetKubernetesVersion: no generally available patch of 1.40 is offered in region westeurope");
    expect(operations(dir)).toEqual({ "canary-1": [], "eu-1": [], "eu-2": [] });
  });
});
