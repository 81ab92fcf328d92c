/**
 * The compact tree `fleet-update run` keeps redrawn on a terminal: stage → group → member with state
 * and message. Only what is under way is opened up (a finished or untouched group is one line), and
 * the frame fits the terminal: lines are cut to its width and the tree to its height, since a frame
 * taller than the screen cannot be redrawn in place.
 */
import { summarize } from "../engine/summary";
import { MARK } from "./render";
import type { GateStatus, MemberUpdateStatus, UpdateGroupStatus, UpdateRunStatus, UpdateState } from "../model/status";
import { printable } from "../runtime/printable";


/** Nothing to look at inside: one line says it all. */
const CLOSED: ReadonlySet<UpdateState> = new Set(["NotStarted", "Completed", "Skipped"]);

export interface FrameSize {
  columns: number;
  rows: number;
}

export function treeFrame(status: UpdateRunStatus, runName: string, size: FrameSize): string[] {
  const summary = summarize(status);
  const m = summary.members;
  const counts = [`${m.Completed + m.Skipped} of ${m.total} done`, ...(m.Running > 0 ? [`${m.Running} running`] : []), ...(m.Failed > 0 ? [`${m.Failed} failed`] : [])];
  const lines = [`Run ${runName}: ${status.status.state} · ${counts.join(" · ")}`];
  for (const stage of status.stages) {
    lines.push(`  Stage ${stage.name}: ${stage.status.state}`);
    if (CLOSED.has(stage.status.state)) continue;
    for (const gate of stage.beforeGates ?? []) lines.push(...gateLine(gate, "    "));
    for (const group of stage.groups) lines.push(...groupLines(group));
    for (const gate of stage.afterGates ?? []) lines.push(...gateLine(gate, "    "));
    const wait = stage.afterStageWaitStatus;
    if (wait !== undefined && wait.status.state === "Running") lines.push(`    then wait ${duration(wait.waitDurationInSeconds)}: Running since ${wait.status.startTime ?? "…"}`);
  }
  return fit(lines, size);
}

function groupLines(group: UpdateGroupStatus): string[] {
  const done = group.members.filter((member) => member.status.state === "Completed" || member.status.state === "Skipped").length;
  const lines = [`    Group ${group.name}: ${group.status.state} (${done}/${group.members.length})`];
  if (CLOSED.has(group.status.state)) return lines;
  for (const gate of group.beforeGates ?? []) lines.push(...gateLine(gate, "      "));
  const width = Math.max(...group.members.map((member) => member.name.length), 1);
  for (const member of group.members) lines.push(`      ${memberLine(member, width)}`);
  for (const gate of group.afterGates ?? []) lines.push(...gateLine(gate, "      "));
  return lines;
}

function memberLine(member: MemberUpdateStatus, width: number): string {
  const error = member.status.error;
  const detail = error !== undefined ? `${error.code}: ${error.message}` : (member.message ?? "");
  return `${MARK[member.status.state]} ${member.name.padEnd(width)}  ${member.status.state}${detail === "" ? "" : `  ${printable(detail)}`}`;
}

/** Only gates someone has to act on, or that are under way, are worth a line. */
function gateLine(gate: GateStatus, indent: string): string[] {
  return gate.status.state === "Pending" ? [`${indent}${MARK.Pending} gate ${gate.gateId} (${printable(gate.displayName)}): waiting for approval`] : [];
}

function duration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

function fit(lines: string[], size: FrameSize): string[] {
  const width = Math.max(size.columns - 1, 10);
  const cut = (line: string) => (line.length > width ? `${line.slice(0, width - 1)}…` : line);
  const height = Math.max(size.rows - 1, 2);
  if (lines.length <= height) return lines.map(cut);
  return [...lines.slice(0, height - 1).map(cut), `  … ${lines.length - height + 1} more lines`];
}
