/**
 * Issue 19: user text — a gate's displayName, a member's message, a backend's error, a file path — is
 * printed on a terminal as text, never as control characters: no ESC sequence reaches the terminal
 * (cursor moves, a new window title, a cleared screen), no C1 control (U+009B is CSI on some
 * terminals), no stray line break in a one-line message. One escaping, `src/runtime/printable.ts`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { treeFrame } from "../../src/cli/liveTree";
import { renderTree } from "../../src/cli/render";
import { resultText } from "../../src/cli/runOutcome";
import { simulateCommand } from "../../src/cli/simulate";
import { summarize } from "../../src/engine/summary";
import type { UpdateRunStatus } from "../../src/model/status";
import { renderPlan } from "../../src/plan/render";
import type { Plan } from "../../src/plan/types";
import { printable } from "../../src/runtime/printable";
import { formatProgressLine } from "../../src/drivers/progressLine";

/** What must never reach a terminal from user text (a newline only where the output means one). */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_OR_NEWLINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A window title, a cleared screen, a CSI in C1 form, a bell, DEL, NEL (U+0085) and a line separator. */
const HOSTILE = "ok\u001b]0;owned\u0007\u001b[2J\u009b31m\u007f\u0085\u2028end";
const HOSTILE_SHOWN = "ok\\u001b]0;owned\\u0007\\u001b[2J\\u009b31m\\u007f\\u0085\\u2028end";

function captured() {
  const out = { stdout: "", stderr: "" };
  return { out, io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t) } };
}

function hostileStatus(): UpdateRunStatus {
  const gate = { gateId: "prod/before/0", displayName: HOSTILE, status: { state: "Pending" } };
  return {
    status: { state: "Running", startTime: "2026-12-05T00:00:00Z" },
    nodeImageSelection: { selectedNodeImageVersions: [] },
    failureCount: 1,
    stages: [
      {
        name: "prod",
        status: { state: "Running", startTime: "2026-12-05T00:00:00Z" },
        failureCount: 1,
        beforeGates: [gate],
        groups: [
          {
            name: "eu",
            status: { state: "Running", startTime: "2026-12-05T00:00:00Z" },
            failureCount: 1,
            beforeGates: [gate],
            members: [
              { name: "eu-1", message: HOSTILE, status: { state: "Running", startTime: "2026-12-05T00:00:00Z" } },
              { name: "eu-2", message: HOSTILE, status: { state: "Failed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z", error: { code: `Bad${HOSTILE}`, message: HOSTILE } } },
            ],
          },
        ],
      },
    ],
  } as unknown as UpdateRunStatus;
}

describe("printable", () => {
  it("escapes C0 controls, DEL, C1 controls and line separators as JSON does; keeps newlines only when asked", () => {
    expect(printable(HOSTILE)).toBe(HOSTILE_SHOWN);
    expect(printable("a\nb\tc\r")).toBe("a\\nb\\tc\\r");
    expect(printable("a\nb\u001b[1m", { keepNewlines: true })).toBe("a\nb\\u001b[1m");
    expect(printable("Ünïcödé ✓ → plain text stays")).toBe("Ünïcödé ✓ → plain text stays");
  });
});

describe("every printed view escapes user text", () => {
  it("the simulate tree: gate displayName, member messages, error codes and messages", () => {
    const text = renderTree(hostileStatus(), "r");
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain(`(${HOSTILE_SHOWN})`);
  });

  it("the live tree of fleet-update run", () => {
    const frame = treeFrame(hostileStatus(), "r", { columns: 400, rows: 40 });
    expect(frame.join("")).not.toMatch(CONTROL_OR_NEWLINE);
    expect(frame.join("\n")).toContain(HOSTILE_SHOWN);
  });

  it("progress lines (fleet-update run without a terminal, the Pulumi provider's log)", () => {
    const line = formatProgressLine("r", { time: "2026-12-05T00:00:00Z", scope: "gate", name: "prod/before/0", from: "NotStarted", to: "Pending", message: HOSTILE });
    expect(line).not.toMatch(CONTROL_OR_NEWLINE);
    expect(line).toContain(HOSTILE_SHOWN);
  });

  it("the run's result paragraph", () => {
    const status = hostileStatus();
    const text = resultText("r", status, summarize(status), 1);
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain(`Bad${HOSTILE_SHOWN}: ${HOSTILE_SHOWN}`);
  });

  it("the plan: pending reasons, messages, findings", () => {
    const plan = {
      plannedFrom: "2026-12-05T00:00:00Z",
      horizon: "2027-01-04T00:00:00Z",
      run: { predictedState: "Completed", predictedEnd: "2026-12-05T01:00:00Z" },
      selectedNodeImageVersions: [],
      stages: [{ name: "prod", predictedStart: "2026-12-05T00:00:00Z", predictedEnd: "2026-12-05T01:00:00Z", predictedState: "Completed", afterStageWaitInSeconds: 0, groups: [] }],
      members: [
        { name: "eu-1", stage: "prod", group: "eu", priorityClass: "noWindow", predictedState: "Skipped", message: HOSTILE, pending: [{ from: "2026-12-05T00:00:00Z", until: "2026-12-05T00:10:00Z", reason: HOSTILE }] },
        { name: "eu-2", stage: "prod", group: "eu", priorityClass: "noWindow", predictedState: "Failed", message: HOSTILE, pending: [] },
      ],
      findings: [{ severity: "warning", code: "DOWNGRADE", member: "eu-1", message: HOSTILE }],
    } as unknown as Plan;
    const text = renderPlan(plan);
    expect(text).not.toMatch(CONTROL);
    expect(text.split(HOSTILE_SHOWN)).toHaveLength(5);
  });
});

describe("the commands", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "terminal-escapes-"));
  const pool = "{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}";
  const scenario = `start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}], nodeImages: [{version: AKSUbuntu-2204gen2containerd-202611.24.0}]}}
members:
  - {name: c-1, group: canary, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [${pool}], simulation: {fail: {code: DrainFailed, message: ${JSON.stringify(HOSTILE)}}}}
strategy: {stages: [{name: canary, groups: [{name: canary}], beforeGates: [{type: Approval, displayName: ${JSON.stringify(HOSTILE.slice(0, 40))}}]}]}
managedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}}
actions: [{at: 2026-12-05T01:00:00Z, approve: [{stage: canary, timing: Before}]}]
`;

  it("simulate prints a hostile displayName and a backend's hostile error message as text", async () => {
    const file = path.join(dir, "scenario.yaml");
    fs.writeFileSync(file, scenario);
    const { out, io } = captured();
    expect(await simulateCommand(file, {}, io)).toBe(0);
    expect(out.stdout).not.toMatch(CONTROL);
    expect(out.stdout).toContain("\\u001b]0;owned\\u0007");
    expect(out.stdout).toContain(HOSTILE_SHOWN);
  });

  it("an error line naming a file with control characters in its name (C1 included) prints them escaped", async () => {
    const { out, io } = captured();
    expect(await simulateCommand(path.join(dir, "no\u009b2Jsuch\u001b[31m.yaml"), {}, io)).toBe(2);
    expect(out.stderr.slice(0, -1)).not.toMatch(CONTROL_OR_NEWLINE);
    expect(out.stderr).toContain("no\\u009b2Jsuch\\u001b[31m.yaml: no such file");
  });

  const cli = path.resolve(__dirname, "../../dist/cli/main.js");
  it.skipIf(!fs.existsSync(cli))("fleet-update gate list prints a hostile displayName as text", () => {
    fs.writeFileSync(path.join(dir, "fleet.yaml"), scenario.split("strategy:")[0]!);
    fs.writeFileSync(
      path.join(dir, "gated.yaml"),
      `members: [{name: c-1, group: canary}]
strategy: {stages: [{name: canary, groups: [{name: canary}], beforeGates: [{type: Approval, displayName: ${JSON.stringify(HOSTILE.slice(0, 40))}}]}]}
managedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}}
`,
    );
    const backend = ["--backend", "simulator:fleet.yaml"];
    const run = spawnSync(process.execPath, [cli, "run", "gated.yaml", ...backend, "--time-scale", "6000"], { cwd: dir, encoding: "utf8" });
    expect(run.status).toBe(4);
    expect(run.stdout + run.stderr).not.toMatch(/\u001b|\u009b|\u0007/);
    const list = spawnSync(process.execPath, [cli, "gate", "list", "gated.yaml", ...backend], { cwd: dir, encoding: "utf8" });
    expect(list.status).toBe(0);
    expect(list.stdout).toBe(`canary/before/0\tPending\t${printable(HOSTILE.slice(0, 40))}\n`);
  });
});
