/**
 * Issue 23 (docs/behaviour.md#scaled-clock): under `--time-scale`, the real time our own processing
 * takes (the engine's pass, the journal, the fleet's state file) is not simulated delay. Members due at
 * one instant start at that instant, as in `simulate`: with 40 members in two groups of
 * `maxConcurrency: "10"` and 5-minute upgrades, each group starts ten members at the run's start, ten
 * more exactly 5 simulated minutes later, and the run takes 10 simulated minutes, as its plan says.
 * Asserted on the simulated timestamps of the status, never on wall time. Needs `npm run build`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import type { UpdateRunStatus } from "../../src/model/status";

const CLI = path.resolve(__dirname, "../../dist/cli/main.js");
const IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NAMES = Array.from({ length: 40 }, (_, i) => `m-${String(i + 1).padStart(2, "0")}`);
const group = (i: number) => (i % 2 === 0 ? "a" : "b");

it("members due at the same instant start at that simulated instant; the run's makespan is its plan's", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "run-time-scale-"));
  fs.writeFileSync(
    path.join(dir, "fleet.yaml"),
    `regions: {westeurope: {kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}], nodeImages: [{version: ${IMAGE}}]}}
members:
${NAMES.map((n) => `  - {name: ${n}, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${IMAGE}}], simulation: {upgradeMinutes: 5}}`).join("\n")}
`,
  );
  fs.writeFileSync(
    path.join(dir, "rollout.yaml"),
    `members: [${NAMES.map((n, i) => `{name: ${n}, group: ${group(i)}}`).join(", ")}]
strategy: {stages: [{name: only, groups: [{name: a, maxConcurrency: "10"}, {name: b, maxConcurrency: "10"}]}]}
managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}
`,
  );
  // 6000: 5 simulated minutes are 50 real ms, less than a pass over 40 members with its writes may take.
  const run = spawnSync(process.execPath, [CLI, "run", "rollout.yaml", "--backend", "simulator:fleet.yaml", "--time-scale", "6000", "--progress", "lines", "--json"], { cwd: dir, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  const { status } = JSON.parse(run.stdout) as { status: UpdateRunStatus };
  const start = Date.parse(status.status.startTime as string);
  const minutesAfterStart = (iso: string | undefined) => (Date.parse(iso as string) - start) / 60_000;
  for (const g of status.stages[0]!.groups) {
    const starts = g.members.map((m) => minutesAfterStart(m.status.startTime)).sort((x, y) => x - y);
    expect(starts, `group ${g.name}`).toEqual([...Array<number>(10).fill(0), ...Array<number>(10).fill(5)]);
    expect(g.members.map((m) => minutesAfterStart(m.status.completedTime)).sort((x, y) => x - y), `group ${g.name}`).toEqual([...Array<number>(10).fill(5), ...Array<number>(10).fill(10)]);
  }
  expect(minutesAfterStart(status.status.completedTime)).toBe(10);

  // The plan of the same fleet, before the run: the same 10 minutes.
  fs.rmSync(path.join(dir, "fleet.yaml.state.json"));
  fs.rmSync(path.join(dir, "fleet.yaml.state.runs"), { recursive: true });
  const plan = spawnSync(process.execPath, [CLI, "plan", "rollout.yaml", "--backend", "simulator:fleet.yaml", "--json"], { cwd: dir, encoding: "utf8" });
  expect(plan.status, plan.stderr).toBe(0);
  const planned = JSON.parse(plan.stdout) as { predictedEnd?: string; start?: string; members: Array<{ predictedStart: string; predictedEnd: string }> };
  const first = Math.min(...planned.members.map((m) => Date.parse(m.predictedStart)));
  const last = Math.max(...planned.members.map((m) => Date.parse(m.predictedEnd)));
  expect((last - first) / 60_000).toBe(10);
}, 60_000);
