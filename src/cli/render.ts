/**
 * The readable form of a simulation: stages → groups → members with state, times and messages.
 */
import type { AnalysisRunStatus, GateStatus, MemberUpdateStatus, UpdateRunStatus, UpdateState, UpdateStatus } from "../model/status";
import { printable } from "../runtime/printable";
import { describeUpdate, type ManagedClusterUpdate } from "../model/update";

/** One character per state, for trees and progress. */
export const MARK: Record<UpdateState, string> = {
  Completed: "✓",
  Skipped: "–",
  Failed: "✗",
  Running: "▶",
  Pending: "…",
  NotStarted: "·",
  Stopping: "■",
  Stopped: "■",
};

/** `generatedUpdate`: what a run given an `autoUpgradeProfile` generated at its start (docs/rules.md §18). */
export function renderTree(status: UpdateRunStatus, runName: string, generatedUpdate?: ManagedClusterUpdate): string {
  const lines: string[] = [];
  // Completed with tolerated failures must not read as a clean success.
  const failures = status.failureCount > 0 ? ` — ${status.failureCount} member${status.failureCount === 1 ? "" : "s"} failed` : "";
  lines.push(`Run ${runName}: ${describe(status.status)}${failures}`);
  if (generatedUpdate !== undefined) lines.push(`  update (generated at the start): ${printable(describeUpdate(generatedUpdate))}`);
  const images = status.nodeImageSelection.selectedNodeImageVersions.map((v) => v.version);
  if (images.length > 0) lines.push(`  node images: ${printable(images.join(", "))}`);
  for (const stage of status.stages) {
    lines.push(`  Stage ${stage.name}: ${describe(stage.status)}`);
    for (const gate of stage.beforeGates ?? []) lines.push(`    ${gateLine(gate)}`);
    for (const a of stage.analysisRuns ?? []) if (a.kind === "preCheck") lines.push(`    ${analysisLine(a)}`);
    for (const group of stage.groups) {
      lines.push(`    Group ${group.name}: ${describe(group.status)}`);
      for (const gate of group.beforeGates ?? []) lines.push(`      ${gateLine(gate)}`);
      const width = Math.max(...group.members.map((m) => m.name.length), 1);
      for (const member of group.members) lines.push(`      ${memberLine(member, width)}`);
      for (const gate of group.afterGates ?? []) lines.push(`      ${gateLine(gate)}`);
    }
    for (const gate of stage.afterGates ?? []) lines.push(`    ${gateLine(gate)}`);
    const wait = stage.afterStageWaitStatus;
    if (wait !== undefined) lines.push(`    then wait ${formatSeconds(wait.waitDurationInSeconds)}: ${describe(wait.status)}`);
    for (const a of stage.analysisRuns ?? []) if (a.kind === "soak") lines.push(`    ${analysisLine(a)}`);
  }
  return lines.join("\n");
}

const PHASE_MARK: Record<AnalysisRunStatus["phase"], string> = { Running: "▶", Successful: "✓", Failed: "✗", Inconclusive: "?", Error: "!" };

/**
 * Issue 31: `✗ soak error-rate  Failed: cluster_error_rate{…} result < 0.05 — 00:40 0.31 (c3) ✗`: the
 * analysis, what it asks, and its last measurements (value, member, verdict).
 */
function analysisLine(a: AnalysisRunStatus): string {
  const condition = [a.successCondition, a.failureCondition === undefined ? undefined : `fails when ${a.failureCondition}`].filter((c) => c !== undefined).join(", ");
  const shown = a.measurements.slice(-5).map((m) => `${m.measuredAt.slice(11, 19)} ${m.value ?? "no data"}${m.member === undefined ? "" : ` (${m.member})`} ${PHASE_MARK[m.phase]}`);
  const more = a.measurements.length > 5 ? "… " : "";
  return printable(`${PHASE_MARK[a.phase]} ${a.kind} ${a.template}  ${a.phase}: ${a.query}${condition === "" ? "" : ` ${condition}`}${shown.length === 0 ? "" : ` — ${more}${shown.join(", ")}`}`);
}

function gateLine(gate: GateStatus): string {
  return `${MARK[gate.status.state] ?? "?"} gate ${gate.gateId} (${printable(gate.displayName)}): ${describe(gate.status)}`;
}

function memberLine(member: MemberUpdateStatus, width: number): string {
  const head = `${MARK[member.status.state] ?? "?"} ${member.name.padEnd(width)}  ${describe(member.status)}`;
  const op = member.operationId === undefined ? "" : `  [${member.operationId}]`;
  const message = member.message === undefined ? "" : `\n          ${printable(member.message)}`;
  const analyses = (member.analysisRuns ?? []).map((a) => `\n          ${analysisLine(a)}`).join("");
  return head + op + message + analyses;
}

function describe(status: UpdateStatus): string {
  const span = status.startTime === undefined ? (status.completedTime === undefined ? "" : ` at ${status.completedTime}`) : ` ${status.startTime} → ${status.completedTime ?? "…"}`;
  const error = status.error === undefined ? "" : `  (${printable(status.error.code)}: ${printable(status.error.message)})`;
  return `${status.state}${span}${error}`;
}

function formatSeconds(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}
