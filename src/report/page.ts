/**
 * `fleet-update report`'s page: one self-contained HTML document (inline CSS, one inline script, no
 * fetch of any kind), the same bytes for the same input — nothing in it depends on when or where it
 * was made.
 */
import { UPDATE_STATES } from "../model/status";
import { escapeHtml } from "./escape";
import { HOVER_CARD_SCRIPT } from "./hoverCard";
import type { ReportRun } from "./input";
import { stateClass } from "./palette";
import { STYLES } from "./styles";
import { renderSummary } from "./summaryTable";
import { renderTimeline } from "./timeline";

export function renderReport(runs: readonly ReportRun[]): string {
  const title = runs.length === 1 ? `Fleet update report: ${runs[0]!.name}` : `Fleet update report: ${runs.length} runs`;
  const sections = runs.map((run, i) =>
    [
      `<section class="run" id="run-${i + 1}" data-run="${escapeHtml(run.name)}">`,
      `<h2>Run ${escapeHtml(run.name)}: ${escapeHtml(run.summary.state)}</h2>`,
      renderSummary(run),
      legend(run.events !== undefined),
      renderTimeline(run),
      "</section>",
    ].join("\n"),
  );
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // An empty icon: without it the browser asks the server for /favicon.ico.
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>\n${STYLES}\n</style>`,
    "</head><body><main>",
    `<h1>${escapeHtml(title)}</h1>`,
    ...sections,
    "</main>",
    '<div id="hovercard" role="tooltip" hidden></div>',
    `<script>\n${HOVER_CARD_SCRIPT}\n</script>`,
    "</body></html>",
    "",
  ].join("\n");
}

function legend(withEvents: boolean): string {
  const states = UPDATE_STATES.map((s) => `<span data-legend="${s}"><b class="chip ${stateClass(s)}"></b>${s}</span>`);
  const pending = withEvents
    ? '<span data-legend="pending-period"><b class="chip pd"></b>Pending period (from events)</span>'
    : '<span data-legend="pending-period">Pending periods not shown: the input has no events</span>';
  return `<div class="legend">${states.join("")}${pending}<span data-legend="wait"><b class="chip wait"></b>After-stage wait</span><span data-legend="gate"><b class="chip gate"></b>Approval gate</span><span data-legend="measurement"><b class="chip ms c-Completed"></b><b class="chip ms c-Failed"></b>Analysis measurement (passed, failed)</span><span>Times in UTC</span></div>`;
}
