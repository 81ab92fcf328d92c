/** The run at a glance: outcome, times, counts per state, and the node images the run selected. */
import { UPDATE_STATES } from "../model/status";
import { escapeHtml } from "./escape";
import { formatDuration, formatTime } from "./format";
import type { ReportRun } from "./input";
import { stateClass } from "./palette";

export function renderSummary(run: ReportRun): string {
  const { summary, status } = run;
  const facts: Array<[string, string, string]> = [
    ["outcome", "Outcome", summary.outcome],
    ["state", "State", summary.state],
    ["start", "Start", summary.startTime === undefined ? "—" : formatTime(summary.startTime)],
    ["end", "End", summary.completedTime === undefined ? "—" : formatTime(summary.completedTime)],
    ["duration", "Duration", summary.durationSeconds === undefined ? "—" : `${formatDuration(summary.durationSeconds)} (${summary.durationSeconds} s)`],
    ["members", "Members", String(summary.members.total)],
  ];
  if (run.generatedUpdate !== undefined) facts.push(["generatedUpdate", "Update (generated at the start)", run.generatedUpdate]);
  if (status.status.error !== undefined) facts.push(["error", "Error", `${status.status.error.code}: ${status.status.error.message}`]);
  const factRows = facts.map(([key, label, value]) => `<tr data-fact="${key}"><th scope="row">${label}</th><td>${escapeHtml(value)}</td></tr>`);
  const countRows = UPDATE_STATES.map(
    (state) => `<tr data-state="${state}"${summary.members[state] === 0 ? ' class="zero"' : ""}><th scope="row"><b class="chip ${stateClass(state)}"></b>${state}</th><td>${summary.members[state]}</td></tr>`,
  );
  const versions = status.nodeImageSelection?.selectedNodeImageVersions ?? [];
  const images = versions.length === 0 ? "<p>None selected.</p>" : `<ul>${versions.map((v) => `<li><code>${escapeHtml(v.version)}</code></li>`).join("")}</ul>`;
  return [
    '<div class="overview">',
    `<table class="facts"><caption>Run</caption><tbody>${factRows.join("")}</tbody></table>`,
    `<table class="counts"><caption>Members per state</caption><tbody>${countRows.join("")}<tr data-state="total" class="total"><th scope="row">Total</th><td>${summary.members.total}</td></tr></tbody></table>`,
    `<div class="images"><h3>Node image selection</h3>${images}</div>`,
    "</div>",
  ].join("\n");
}
