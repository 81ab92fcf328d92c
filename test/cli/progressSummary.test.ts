/**
 * Issue 23: a large run's progress in aggregate. `ProgressTally` counts members per state from the
 * run's events and extrapolates an ETA; `ProgressPrinter` prints a line per transition until the run is
 * known to be large (`auto`), then at most one summary a second, and the last one at the end.
 * `fleet-update run` without a terminal does so for a 300-member run; `--progress lines` keeps a line
 * per transition.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { ProgressPrinter, ProgressTally, SUMMARY_THRESHOLD } from "../../src/drivers/progressSummary";
import type { RunEvent } from "../../src/model/status";

const CLI = path.resolve(__dirname, "../../dist/cli/main.js");
const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 0, minute)).toISOString().replace(".000Z", "Z");
const member = (name: string, from: RunEvent["from"], to: RunEvent["to"], minute: number): RunEvent => ({ time: at(minute), scope: "member", name, from, to });

test("counts members per state, names the stage under way, and extrapolates the ETA from the rate members end at", () => {
  const tally = new ProgressTally("r");
  for (let i = 0; i < 10; i++) tally.onEvent(member(`m${i}`, "NotStarted", "NotStarted", 0));
  tally.onEvent({ time: at(0), scope: "run", name: "r", from: "NotStarted", to: "Running" });
  tally.onEvent({ time: at(0), scope: "stage", name: "prod", from: "NotStarted", to: "Running" });
  // One member ends every 10 minutes from minute 10: m0 at 10, m1 at 20, m2 at 30.
  for (let i = 0; i < 3; i++) {
    tally.onEvent(member(`m${i}`, "NotStarted", "Running", i * 10));
    tally.onEvent(member(`m${i}`, "Running", "Completed", (i + 1) * 10));
  }
  tally.onEvent(member("m3", "NotStarted", "Running", 30));
  // 7 left at 10 minutes each after minute 30: minute 100.
  expect(tally.line()).toBe(`[r] ${at(30)} Running (stage prod): 3 of 10 members done — 3 Completed; 1 Running, 6 NotStarted; ETA ~${at(100)}`);
});

test("auto: a line per transition for a small run; summaries, at most one a second, once the run is large", () => {
  const small: string[] = [];
  const printer = new ProgressPrinter("r", (l) => small.push(l), "auto");
  printer.onEvent(member("a", "NotStarted", "Running", 0));
  printer.onEvent(member("a", "Running", "Completed", 5));
  printer.finish();
  expect(small).toEqual([`[r] ${at(0)} member a NotStarted → Running`, `[r] ${at(5)} member a Running → Completed`]);

  const large: string[] = [];
  const big = new ProgressPrinter("r", (l) => large.push(l), "auto", undefined, 60_000);
  for (let i = 0; i <= SUMMARY_THRESHOLD + 50; i++) big.onEvent(member(`m${i}`, "NotStarted", "Running", 1));
  big.finish();
  // Lines for the first SUMMARY_THRESHOLD members, then one summary (the interval is a minute), then the last at finish.
  expect(large.filter((l) => l.includes(" member "))).toHaveLength(SUMMARY_THRESHOLD);
  const summaries = large.filter((l) => l.includes("members done"));
  expect(summaries).toHaveLength(2);
  expect(summaries.at(-1)).toContain(`0 of ${SUMMARY_THRESHOLD + 51} members done; ${SUMMARY_THRESHOLD + 51} Running`);
});

function bigRun(members: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-progress-"));
  const image = "AKSUbuntu-2204gen2containerd-202610.01.0";
  const names = Array.from({ length: members }, (_, i) => `c${i}`);
  fs.writeFileSync(
    path.join(dir, "fleet.yaml"),
    `regions:\n  westeurope:\n    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]\n    nodeImages: [{version: ${image}}]\nmembers:\n${names
      .map((n) => `  - {name: ${n}, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${image}}]}`)
      .join("\n")}\n`,
  );
  fs.writeFileSync(
    path.join(dir, "rollout.yaml"),
    `members: [${names.map((n) => `{name: ${n}, group: all}`).join(", ")}]\nstrategy: {stages: [{name: all, groups: [{name: all, maxConcurrency: "50"}]}]}\nmanagedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}\n`,
  );
  return dir;
}

test("fleet-update run of 300 members without a terminal prints summaries; --progress lines, a line per transition", () => {
  // Each run on a fleet of its own: the clusters of one already upgraded would be Skipped in the next.
  const run = (...extra: string[]) => spawnSync(process.execPath, [CLI, "run", "rollout.yaml", "--backend", "simulator:fleet.yaml", "--time-scale", "100000", ...extra], { cwd: bigRun(300), encoding: "utf8", timeout: 120_000 });
  const auto = run();
  expect(auto.status).toBe(0);
  expect(auto.stderr).not.toMatch(/ member c\d+ /);
  expect(auto.stderr.trim().split("\n").at(-1)).toMatch(/Completed: 300 of 300 members done — 300 Completed$/);

  const lines = run("--progress", "lines");
  expect(lines.status).toBe(0);
  expect(lines.stderr.match(/ member c\d+ Running → Completed/g)).toHaveLength(300);
  expect(run("--progress", "bars").stderr).toContain("--progress: must be tree, lines, summary, auto, got 'bars'");
});
