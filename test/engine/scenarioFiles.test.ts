/**
 * The test suite's scenario files (test/scenarios, docs/rules.md §7 format, each with an `# Expected:` comment)
 * end in process as their comment says: the run's state and end, and every member's state. Each run is
 * also checked for the invariants every run keeps (events agree with the status, well-formed output,
 * never two operations at once on a cluster). The same files run through ARM in test/backends/azure/parity.
 */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, it } from "vitest";
import { simulate } from "./helpers";

const DIR = resolve(__dirname, "../scenarios");

/** `run state, end | member state, ...` in status-tree order, as each file's `# Expected:` comment describes. */
const EXPECTED: Record<string, string> = {
  "auto-upgrade-stable.yaml": "Completed 2026-12-05T06:10:00Z | eu-1 Completed, us-1 Completed, eu-2 Completed",
  "at-or-past-target.yaml": "Completed 2026-12-05T00:10:00Z | at Skipped, ahead Skipped, behind Completed",
  "busy-cluster.yaml": "Completed 2026-12-05T03:10:00Z | busy-1 Completed, free-1 Completed",
  "control-plane-only.yaml": "Completed 2026-12-05T00:10:00Z | cp-1 Completed, cp-done Skipped",
  "empty-groups.yaml": "Completed 2026-12-05T00:40:00Z | c-1 Completed, p-1 Completed, p-2 Completed",
  "excluded-members.yaml": "Completed 2026-12-05T00:10:00Z | in-1 Completed",
  "failing-member-retried.yaml": "Failed 2026-12-05T10:10:00Z | there-1 Skipped, f-1 Failed, y-1 Completed, y-2 Completed",
  "gates-approved.yaml": "Pending - | c-1 Completed, eu-1 Completed, us-1 Completed, f-1 NotStarted",
  "failing-member.yaml": "Failed 2026-12-05T05:00:00Z | a-1 Failed, a-2 NotStarted, b-1 Completed, b-2 NotStarted, p-1 NotStarted, c-1 NotStarted",
  "label-selected-groups.yaml": "Completed 2026-12-05T00:20:00Z | c-1 Completed, s-1 Completed, e-1 Completed, e-2 Completed",
  "long-horizon-windows.yaml": "Completed 2027-01-04T07:10:00Z | canary-sat Completed, day-26 Completed, last-thursday Completed, wednesday-night Completed, no-window Completed, monday-morning Completed",
  "max-concurrency-count.yaml": "Completed 2026-12-05T00:50:00Z | g-1 Completed, g-2 Completed, g-3 Completed, g-4 Completed, x-1 Completed, x-2 Completed, y-1 Completed, y-2 Completed",
  "max-concurrency-percent.yaml": "Completed 2026-12-05T00:30:00Z | h-1 Completed, h-2 Completed, h-3 Completed, h-4 Completed, h-5 Completed, t-1 Completed, t-2 Completed, t-3 Completed",
  "node-image-consistent.yaml": "Completed 2026-12-05T00:30:00Z | eu-1 Completed, us-1 Completed, eu-2 Completed",
  "node-image-custom-arrives-late.yaml": "Completed 2026-12-05T06:10:00Z | m-1 Completed",
  "node-image-custom.yaml": "Completed 2026-12-05T00:20:00Z | mixed Completed, ahead Completed",
  "node-image-latest.yaml": "Completed 2026-12-05T14:10:00Z | eu-mixed Completed, eu-late Completed, us-mixed Completed",
  "node-image-latest-during-full-upgrade.yaml": "Completed 2026-12-05T20:00:00Z | lagging Completed",
  "node-image-latest-during-upgrade.yaml": "Completed 2026-12-05T20:00:00Z | three-pools Completed, one-pool Completed",
  "node-image-only.yaml": "Completed 2026-12-05T00:10:00Z | fresh Skipped, stale Completed",
  "pending-at-horizon.yaml": "Pending - | m-1 Pending",
  "refused-minor-skip.yaml": "Failed 2026-12-05T00:00:00Z | old-1 Failed, ok-1 NotStarted",
  "scheduled-start-gate.yaml": "Completed 2026-12-08T12:10:00Z | c-1 Completed, p-1 Completed, p-2 Completed",
  "skip-member-and-group.yaml": "Completed 2026-12-05T06:00:00Z | c-1 Completed, a-1 Completed, a-2 Skipped, a-3 Skipped, b-1 Skipped, b-2 Skipped",
  "skip-stage-and-wait.yaml": "Completed 2026-12-05T00:20:00Z | o-1 Skipped, t-1 Completed, r-1 Completed",
  "skip-wait-under-way.yaml": "Completed 2026-12-05T01:40:00Z | c-1 Completed, p-1 Completed, p-2 Completed, f-1 Completed",
  "stages-and-waits.yaml": "Completed 2026-12-05T01:40:00Z | a-1 Completed, b-1 Completed, done-1 Skipped, c-1 Completed",
  "stop-and-start.yaml": "Completed 2026-12-05T20:10:00Z | long-1 Completed, m-2 Completed, m-3 Completed, late-1 Completed",
  "stop-for-good.yaml": "Stopped 2026-12-05T05:00:00Z | a-1 Completed, b-1 Completed, b-2 NotStarted, c-1 NotStarted",
  "stopped-cluster.yaml": "Failed 2026-12-05T00:10:00Z | prod-1 Completed, prod-2 Failed, prod-3 NotStarted",
  "tolerated-failures.yaml": "Completed 2026-12-05T00:30:00Z | a-1 Completed, a-2 Failed, a-3 Completed, b-1 Failed, b-2 Completed, c-1 Completed",
  "version-arrives-late.yaml": "Completed 2026-12-05T06:20:00Z | eu-1 Completed, eu-2 Completed, us-1 Completed",
  "windows-daily-weekly.yaml": "Completed 2026-12-06T06:10:00Z | daily-plus2 Completed, weekly-sunday Completed, none-1 Completed, weekly-open Completed",
  "windows-monthly.yaml": "Completed 2026-12-06T04:10:00Z | day-5 Completed, first-saturday Completed, blocked-today Completed, every-other-day Completed",
  "windows-node-os.yaml": "Completed 2026-12-05T12:10:00Z | os-closed Completed, os-open Completed, auto-only Completed",
};

const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)).sort();

it("every scenario file has its expectation written down, here and in its `# Expected:` comment", () => {
  expect(files).toEqual(Object.keys(EXPECTED).sort());
  for (const file of files) expect(readFileSync(resolve(DIR, file), "utf8"), file).toMatch(/^# Expected: /m);
});

it.each(files)("%s ends as its comment says", async (file) => {
  const out = await simulate(readFileSync(resolve(DIR, file), "utf8"));
  const members = out.result.status.stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((m) => `${m.name} ${m.status.state}`)));
  expect(`${out.run.state} ${out.run.completedTime ?? "-"} | ${members.join(", ")}`).toBe(EXPECTED[file]);
});
