/**
 * The plan for people: stage ETAs, a table of members (stage/group, class, predicted start and end,
 * state) with their predicted Pending periods and skip reasons beneath, then the findings.
 */
import { describeUpdate } from "../model/update";
import type { ChainPlan } from "./fromChain";
import type { Finding, Plan, PlannedMember } from "./types";
import { printable } from "../runtime/printable";

const NONE = "-";

export function renderPlan(plan: Plan): string {
  const lines: string[] = [];
  const end = plan.run.predictedEnd === undefined ? `not finished by ${plan.horizon}` : `ends ${plan.run.predictedEnd}`;
  lines.push(`Plan from ${plan.plannedFrom}: run ${plan.run.predictedState}, ${end}`);
  if (plan.managedClusterUpdate !== undefined) lines.push(`  update (generated at the start): ${describeUpdate(plan.managedClusterUpdate)}`);
  if (plan.selectedNodeImageVersions.length > 0) lines.push(`  node images: ${plan.selectedNodeImageVersions.join(", ")}`);
  lines.push("", "Stages");
  lines.push(...table(plan.stages.map((s) => [s.name, s.predictedStart ?? NONE, "→", s.predictedEnd ?? NONE, s.predictedState, stageExtras(s)])).map((l) => `  ${l}`));
  lines.push("", ...membersTable(plan.members));
  lines.push("", ...renderFindings(plan.findings));
  return lines.join("\n");
}

/** A chained scenario's plan: each run's plan under its name, or why it has none. */
export function renderChainPlan(chain: ChainPlan): string {
  return chain.runs
    .map((run) => ("notPlanned" in run ? `Run ${run.name}: not planned: ${printable(run.notPlanned)}` : `Run ${run.name}\n${renderPlan(run)}`))
    .join("\n\n");
}

function membersTable(members: readonly PlannedMember[]): string[] {
  const rows = [["MEMBER", "STAGE/GROUP", "CLASS", "START", "END", "STATE"], ...members.map((m) => [m.name, `${m.stage}/${m.group}`, m.priorityClass, m.predictedStart ?? NONE, m.predictedEnd ?? NONE, m.predictedState])];
  const rendered = table(rows);
  const out = [rendered[0] as string];
  members.forEach((m, i) => {
    out.push(rendered[i + 1] as string);
    for (const p of m.pending) out.push(`    pending ${p.from} → ${p.until ?? "…"}: ${printable(p.reason)}`);
    if (m.predictedState === "Skipped" && m.message !== undefined) out.push(`    skipped: ${printable(m.message)}`);
    if (m.predictedState === "Failed" && m.message !== undefined) out.push(`    fails: ${printable(m.message)}`);
  });
  return out;
}

/** The findings block, also what the Pulumi preview prints. */
export function renderFindings(findings: readonly Finding[]): string[] {
  if (findings.length === 0) return ["Findings: none"];
  const rows = findings.map((f) => {
    const subject = f.member ?? f.region ?? f.group;
    return [f.severity, f.code, `${subject === undefined ? "" : `${subject}: `}${printable(f.message)}`];
  });
  return ["Findings", ...table(rows).map((l) => `  ${l}`)];
}

/** Columns padded to their widest cell; the last column is not padded. */
function table(rows: readonly string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] as number))).join("  ").trimEnd());
}

export /** `(incl. wait 10m; soak error-rate 3× to 00:20:00Z; pre-check error-rate ✓)`: what a stage's end includes (issue 31). */
function stageExtras(stage: Plan["stages"][number]): string {
  const parts: string[] = [];
  if (stage.afterStageWaitInSeconds > 0) parts.push(`incl. wait ${duration(stage.afterStageWaitInSeconds)}`);
  for (const a of stage.analyses ?? []) {
    const until = a.predictedEnd === undefined ? "" : ` to ${a.predictedEnd}`;
    parts.push(`${a.kind === "soak" ? "soak" : "pre-check"} ${a.template} ${a.measurements}×${until} ${a.predictedPhase}`);
  }
  return parts.length === 0 ? "" : `(${parts.join("; ")})`;
}

function duration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}
