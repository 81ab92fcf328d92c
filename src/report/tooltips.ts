/**
 * The details shown when hovering a bar, as plain lines of text: the first line names the item. They
 * go into `title` attributes (a native tooltip without script), which the page's hover card shows.
 */
import { formatDuration, formatInstant, formatTime } from "./format";
import type { PendingInterval } from "./pending";
import type { GateStatus, ReportAnalysisRun, ReportItemStatus, ReportMember } from "./schema";

export function memberTooltip(member: ReportMember): string {
  const lines = [member.name, `State: ${member.status.state}`, ...timeLines(member.status)];
  if (member.operationId !== undefined) lines.push(`Operation: ${member.operationId}`);
  if (member.clusterResourceId !== undefined) lines.push(`Cluster: ${member.clusterResourceId}`);
  if (member.message !== undefined) lines.push(`Message: ${member.message}`);
  if (member.status.error !== undefined) lines.push(`Error: ${member.status.error.code}: ${member.status.error.message}`);
  return lines.join("\n");
}

export function pendingTooltip(memberName: string, interval: PendingInterval): string {
  const end = interval.open ? "(still Pending at the last event)" : formatInstant(interval.end);
  const lines = [memberName, "State: Pending", `Start: ${formatInstant(interval.start)}`, `End: ${end}`];
  if (!interval.open) lines.push(`Duration: ${formatDuration((interval.end - interval.start) / 1000)}`);
  if (interval.message !== undefined) lines.push(`Message: ${interval.message}`);
  return lines.join("\n");
}

export function waitTooltip(stageName: string, wait: { status: ReportItemStatus; waitDurationInSeconds: number }): string {
  return [`After stage ${stageName}: wait ${formatDuration(wait.waitDurationInSeconds)}`, `State: ${wait.status.state}`, ...timeLines(wait.status)].join("\n");
}

export function spanTooltip(kind: "Stage" | "Group", name: string, status: ReportItemStatus): string {
  const lines = [`${kind} ${name}`, `State: ${status.state}`, ...timeLines(status)];
  if (status.error !== undefined) lines.push(`Error: ${status.error.code}: ${status.error.message}`);
  return lines.join("\n");
}

export function gateTooltip(gate: GateStatus, where: string): string {
  const lines = [`Gate ${gate.displayName ?? gate.gateId ?? "(unnamed)"} ${where}`, `State: ${gate.status.state}`, ...timeLines(gate.status)];
  if (gate.gateId !== undefined) lines.push(`Gate id: ${gate.gateId}`);
  return lines.join("\n");
}

/** Issue 31: `soak error-rate of stage early: Failed`, the value and member, the query and the condition. */
export function measurementTooltip(analysis: ReportAnalysisRun, m: ReportAnalysisRun["measurements"][number], where: string): string {
  const lines = [`${analysis.kind} ${analysis.template} of ${where}: ${m.phase}`, `Measured: ${formatTime(m.measuredAt)}`];
  if (m.value !== undefined) lines.push(`Value: ${m.value}${m.member === undefined ? "" : ` (member ${m.member})`}`);
  if (m.query !== undefined || analysis.query !== undefined) lines.push(`Query: ${m.query ?? analysis.query}`);
  if (analysis.successCondition !== undefined) lines.push(`Success: ${analysis.successCondition}`);
  if (analysis.failureCondition !== undefined) lines.push(`Failure: ${analysis.failureCondition}`);
  if (m.message !== undefined) lines.push(`Message: ${m.message}`);
  return lines.join("\n");
}

function timeLines(status: { startTime?: string | undefined; completedTime?: string | undefined }): string[] {
  const lines: string[] = [];
  if (status.startTime !== undefined) lines.push(`Start: ${formatTime(status.startTime)}`);
  if (status.completedTime !== undefined) lines.push(`End: ${formatTime(status.completedTime)}`);
  if (status.startTime !== undefined && status.completedTime !== undefined) {
    lines.push(`Duration: ${formatDuration((Date.parse(status.completedTime) - Date.parse(status.startTime)) / 1000)}`);
  }
  return lines;
}
