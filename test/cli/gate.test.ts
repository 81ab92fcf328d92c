/**
 * `fleet-update gate list|approve`: a run driven by `fleet-update run` stops (exit 4) at an unapproved
 * gate; `gate list` shows it Pending, `gate approve` records the approval in the run's journal, and
 * the same `run` command then continues to the end — each cluster upgraded once.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { readFleetState } from "../../src/backends/simulator/stateFile";

const CLI = path.resolve(__dirname, "../../dist/cli/main.js");
const IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";

function workspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-gate-"));
  const member = (name: string) => `  - {name: ${name}, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${IMAGE}}]}`;
  fs.writeFileSync(
    path.join(dir, "fleet.yaml"),
    `regions:\n  westeurope:\n    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]\n    nodeImages: [{version: ${IMAGE}}]\nmembers:\n${["canary-1", "eu-1"].map(member).join("\n")}\n`,
  );
  fs.writeFileSync(
    path.join(dir, "rollout.yaml"),
    `members: [{name: canary-1, group: canary}, {name: eu-1, group: prod}]
strategy:
  stages:
    - {name: canary, groups: [{name: canary}]}
    - {name: prod, beforeGates: [{displayName: Change board, type: Approval}], groups: [{name: prod}]}
managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}
`,
  );
  return dir;
}

const cli = (dir: string, ...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: "utf8", timeout: 60_000 });
const BACKEND = ["--backend", "simulator:fleet.yaml", "--time-scale", "20000"];

it("run stops at the gate (exit 4); gate list shows it; gate approve records it; run again finishes", () => {
  const dir = workspace();
  expect(cli(dir, "gate", "list", "rollout.yaml", ...BACKEND).stderr).toMatch(/no journal of run 'rollout'/);

  const first = cli(dir, "run", "rollout.yaml", ...BACKEND, "--progress", "lines");
  expect(first.status).toBe(4);
  const listed = cli(dir, "gate", "list", "rollout.yaml", ...BACKEND);
  expect(listed.status).toBe(0);
  expect(listed.stdout).toBe("prod/before/0\tPending\tChange board\n");

  const wrong = cli(dir, "gate", "approve", "rollout.yaml", "prod/after/0", ...BACKEND);
  expect(wrong.status).toBe(2);
  expect(wrong.stderr).toContain("no gate 'prod/after/0' in this run (its gates: prod/before/0)");

  const approved = cli(dir, "gate", "approve", "rollout.yaml", "prod/before/0", ...BACKEND);
  expect(approved.status).toBe(0);
  expect(cli(dir, "gate", "list", "rollout.yaml", ...BACKEND).stdout).toBe("prod/before/0\tCompleted\tChange board\n");

  const second = cli(dir, "run", "rollout.yaml", ...BACKEND, "--progress", "lines", "--json");
  expect(second.status).toBe(0);
  expect(JSON.parse(second.stdout).summary).toMatchObject({ state: "Completed", outcome: "Succeeded" });
  const state = readFleetState(path.join(dir, "fleet.yaml.state.json")) as { clusters: Record<string, { operations: unknown[] }> };
  for (const [name, cluster] of Object.entries(state.clusters)) expect(cluster.operations, name).toHaveLength(1);
}, 120_000);

it("gate approve while a live process drives the run (its journal lease) is refused, exit 2, naming it (issue 11)", () => {
  const dir = workspace();
  expect(cli(dir, "run", "rollout.yaml", ...BACKEND, "--progress", "lines").status).toBe(4);
  const journal = path.join(dir, "fleet.yaml.state.runs", "rollout.json");
  const now = new Date().toISOString();
  fs.writeFileSync(`${journal}.lease`, JSON.stringify({ pid: process.pid, host: os.hostname(), run: "rollout", since: now, heartbeat: now }));
  const before = fs.readFileSync(journal, "utf8");
  const refused = cli(dir, "gate", "approve", "rollout.yaml", "prod/before/0", ...BACKEND);
  expect(refused.status).toBe(2);
  expect(refused.stderr).toContain(`run 'rollout' is being driven by process ${process.pid} on host ${os.hostname()}`);
  expect(fs.readFileSync(journal, "utf8")).toBe(before);
});
