/**
 * How `fleet-update run` ends: its exit code and its last words. A pipeline tests the code:
 *
 * | code | the run                                                                                |
 * |------|----------------------------------------------------------------------------------------|
 * | 0    | Succeeded: every member Completed or Skipped                                           |
 * | 1    | Failed, or CompletedWithFailures (failures within `maxAllowedFailures` are still failures) |
 * | 2    | did not start: invalid spec or flags, or the journal holds another spec's unfinished run |
 * | 3    | Stopped (`state: Stopped`, Ctrl-C), or the deadline came with upgrades in flight        |
 * | 4    | not finished, nothing in flight: waiting for an approval, a wait, a window (`returnAfterMinutes` or the deadline) |
 * | 130  | left at once by a second Ctrl-C                                                        |
 */
import { describeUpdate, type ManagedClusterUpdate } from "../model/update";
import { NO_UPGRADE_VERSION } from "../engine/autoUpgrade";
import type { UpdateRunEngine } from "../engine/engine";
import type { RunSummary } from "../engine/summary";
import type { UpdateRunStatus } from "../model/status";
import { waitingLine } from "../drivers/waiting";
import { printable } from "../runtime/printable";

export const EXIT_SUCCEEDED = 0;
export const EXIT_FAILED = 1;
export const EXIT_STOPPED = 3;
export const EXIT_WAITING = 4;
/** 128 + SIGINT, as a shell reports a process ended by Ctrl-C. */
export const EXIT_INTERRUPTED = 130;

export function exitCodeFor(summary: RunSummary, engine: Pick<UpdateRunEngine, "busy">): number {
  switch (summary.outcome) {
    case "Succeeded":
      return EXIT_SUCCEEDED;
    case "CompletedWithFailures":
    case "Failed":
      return EXIT_FAILED;
    case "Stopped":
      return EXIT_STOPPED;
    case "Pending":
      // Returned with an upgrade in flight (the deadline) or waiting with nothing to follow.
      return engine.busy ? EXIT_STOPPED : EXIT_WAITING;
  }
}

/** One paragraph for stdout: the outcome, the counts, the failures, and what to do next. */
export function resultText(runName: string, status: UpdateRunStatus, summary: RunSummary, code: number, generatedUpdate?: ManagedClusterUpdate): string {
  const m = summary.members;
  const counts = `${m.Completed + m.Skipped} of ${m.total} members done (${m.Completed} Completed, ${m.Skipped} Skipped${m.Failed > 0 ? `, ${m.Failed} Failed` : ""})`;
  const lines = [`Run ${runName}: ${headline(summary, code)}: ${counts}.`];
  // docs/rules.md §18: what the run's autoUpgradeProfile chose, and a run it failed at its start.
  if (generatedUpdate !== undefined) lines.push(`  update (generated at the start): ${printable(describeUpdate(generatedUpdate))}`);
  if (status.status.error?.code === NO_UPGRADE_VERSION) lines.push(`  ✗ ${printable(status.status.error.message)}`);
  for (const stage of status.stages) {
    for (const member of stage.groups.flatMap((g) => g.members)) {
      const error = member.status.error;
      if (member.status.state === "Failed") lines.push(`  ✗ ${member.name}: ${error === undefined ? "failed" : printable(`${error.code}: ${error.message}`)}`);
    }
  }
  lines.push(nextStep(status, summary, code));
  return `${lines.join("\n")}\n`;
}

function headline(summary: RunSummary, code: number): string {
  if (summary.outcome !== "Pending") return summary.outcome;
  return code === EXIT_STOPPED ? `${summary.state}, not finished before its deadline` : `${summary.state}, waiting`;
}

function nextStep(status: UpdateRunStatus, summary: RunSummary, code: number): string {
  if (summary.outcome === "CompletedWithFailures") return "The failures were within maxAllowedFailures; --json lists failedMembers, the members of a run that retries them.";
  if (code === EXIT_SUCCEEDED) return "Nothing left to do.";
  if (code === EXIT_FAILED) return "Run the same command again to retry the failed members.";
  if (code === EXIT_WAITING) return `${printable(waitingLine(status))} Run the same command again to continue.`;
  if (summary.outcome === "Stopped") return "Run the same command again to resume it.";
  return "Upgrades in flight go on on the clusters; run the same command again to continue.";
}
