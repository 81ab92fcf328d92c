/**
 * The timeline: a header row per stage and per group, a row per member, bars on one time axis.
 * A member's bar runs from its start to its end in the colour of its final state; hatched segments
 * before or inside it are its Pending periods (from the events); a stage's row shows the stage's
 * span, its after-stage wait and its approval gates; a group's row its span and gates. Issue 31: each
 * measurement of an analysis is a dot on its stage's or member's row, in the colour of its verdict.
 */
import { escapeAttribute, escapeHtml } from "./escape";
import type { ReportRun } from "./input";
import { stateClass } from "./palette";
import { memberPendingIntervals, type PendingInterval } from "./pending";
import type { GateStatus, ReportAnalysisRun, ReportItemStatus, ReportMember } from "./schema";
import { TimeScale, timeScaleFor } from "./timeScale";
import { gateTooltip, measurementTooltip, memberTooltip, pendingTooltip, spanTooltip, waitTooltip } from "./tooltips";

const LAST_LABEL_AT = 0.94;

export function renderTimeline(run: ReportRun): string {
  const scale = timeScaleFor(run.status, run.events);
  const pending = run.events === undefined ? new Map<string, PendingInterval[]>() : memberPendingIntervals(run.events, scale.end);
  const out: string[] = ['<div class="tl" role="table" aria-label="Timeline">', gridLines(scale), axisRow(scale)];
  for (const stage of run.status.stages) {
    const where = `stage ${stage.name}`;
    out.push(
      row("sg", "data-stage", stage.name, `Stage ${stage.name}`, stage.status.state, [
        span(scale, stage.status, spanTooltip("Stage", stage.name, stage.status)),
        stage.afterStageWaitStatus === undefined ? "" : item(scale, "wait", stage.afterStageWaitStatus.status, waitTooltip(stage.name, stage.afterStageWaitStatus)),
        gates(scale, stage.beforeGates, `before ${where}`, stage.status.startTime),
        gates(scale, stage.afterGates, `after ${where}`, stage.status.completedTime),
        measurements(scale, stage.analysisRuns, `stage ${stage.name}`),
      ]),
    );
    for (const group of stage.groups) {
      const groupWhere = `group ${group.name}`;
      out.push(
        row("gp", "data-group", group.name, `Group ${group.name}`, group.status.state, [
          span(scale, group.status, spanTooltip("Group", group.name, group.status)),
          gates(scale, group.beforeGates, `before ${groupWhere}`, group.status.startTime),
          gates(scale, group.afterGates, `after ${groupWhere}`, group.status.completedTime),
        ]),
      );
      for (const member of group.members) out.push(memberRow(scale, member, pending.get(member.name) ?? []));
    }
  }
  out.push("</div>");
  return out.join("\n");
}

function memberRow(scale: TimeScale, member: ReportMember, pending: readonly PendingInterval[]): string {
  const track = pending.map((p) => `<i class="pd${p.open ? " open" : ""}" style="left:${scale.position(p.start)};width:${scale.width(p.start, p.end)}" title="${escapeAttribute(pendingTooltip(member.name, p))}"></i>`);
  track.push(item(scale, `bar ${stateClass(member.status.state)}`, member.status, memberTooltip(member)));
  track.push(measurements(scale, member.analysisRuns, member.name));
  return row("m", "data-member", member.name, member.name, member.status.state, track);
}

function row(kind: string, key: string, name: string, label: string, state: string, track: readonly string[]): string {
  return (
    `<div class="r ${kind}" role="row" ${key}="${escapeAttribute(name)}">` +
    `<div class="n" role="rowheader">${escapeHtml(label)}</div>` +
    `<div class="st" role="cell"><b class="chip ${stateClass(state)}"></b>${escapeHtml(state)}</div>` +
    `<div class="tk" role="cell">${track.join("")}</div></div>`
  );
}

/** A stage's or group's span: a light band behind its members' bars. */
function span(scale: TimeScale, status: ReportItemStatus, tooltip: string): string {
  return item(scale, `span ${stateClass(status.state)}`, status, tooltip);
}

/**
 * A bar from start to end; with no end yet it runs to the end of the timeline (faded), and with an
 * end but no start (a member skipped before it began) it is a thin mark at the end.
 */
function item(scale: TimeScale, cls: string, status: { startTime?: string | undefined; completedTime?: string | undefined }, tooltip: string): string {
  const start = status.startTime === undefined ? undefined : Date.parse(status.startTime);
  const end = status.completedTime === undefined ? undefined : Date.parse(status.completedTime);
  const title = escapeAttribute(tooltip);
  if (start !== undefined && end !== undefined) return `<i class="${cls}" style="left:${scale.position(start)};width:${scale.width(start, end)}" title="${title}"></i>`;
  if (start !== undefined) return `<i class="${cls} open" style="left:${scale.position(start)};width:${scale.width(start, scale.end)}" title="${title}"></i>`;
  if (end !== undefined) return `<i class="${cls} mark" style="left:${scale.position(end)}" title="${title}"></i>`;
  return "";
}

/**
 * Gate markers: at the gate's end (approval), else its start, else its stage's or group's start or end;
 * behind each, the line of its wait.
 */
function gates(scale: TimeScale, list: readonly GateStatus[] | undefined, where: string, fallback: string | undefined): string {
  if (list === undefined) return "";
  return list
    .map((gate) => {
      const time = gate.status.completedTime ?? gate.status.startTime ?? fallback;
      const at = time === undefined ? (where.startsWith("before") ? scale.start : scale.end) : Date.parse(time);
      const title = escapeAttribute(gateTooltip(gate, where));
      const waited = gate.status.startTime === undefined ? "" : gateWait(scale, Date.parse(gate.status.startTime), gate.status.completedTime);
      return `${waited}<i class="gate ${stateClass(gate.status.state)}" style="left:${scale.position(at)}" title="${title}"></i>`;
    })
    .join("");
}

/** Issue 31: a measurement's verdict as a state colour: Successful green, Failed red, the rest amber. */
const MEASUREMENT_STATE: Record<string, string> = { Successful: "Completed", Failed: "Failed", Inconclusive: "Pending", Error: "Pending" };

/** Issue 31: each analysis's measurements, a dot at its instant in the colour of its verdict. */
function measurements(scale: TimeScale, analyses: readonly ReportAnalysisRun[] | undefined, where: string): string {
  if (analyses === undefined) return "";
  return analyses
    .flatMap((analysis) =>
      analysis.measurements.map(
        (m) =>
          `<i class="ms ${stateClass(MEASUREMENT_STATE[m.phase] ?? m.phase)}" data-phase="${escapeAttribute(m.phase)}" style="left:${scale.position(Date.parse(m.measuredAt))}" title="${escapeAttribute(measurementTooltip(analysis, m, where))}"></i>`,
      ),
    )
    .join("");
}

/** How long a gate waited for approval: a line from its start to its end, or on to the axis's end while it waits. */
function gateWait(scale: TimeScale, start: number, completedTime: string | undefined): string {
  const end = completedTime === undefined ? scale.end : Date.parse(completedTime);
  return `<i class="gspan${completedTime === undefined ? " open" : ""}" style="left:${scale.position(start)};width:${scale.width(start, end)}"></i>`;
}

function axisRow(scale: TimeScale): string {
  // A label too close to the right edge would be cut off: its line alone marks the tick.
  const labels = scale
    .ticks()
    .filter((t) => t.at <= scale.start + (scale.end - scale.start) * LAST_LABEL_AT)
    .map((t) => `<span style="left:${scale.position(t.at)}">${escapeHtml(t.label)}</span>`);
  return `<div class="r ax" role="row"><div class="n" role="columnheader">Stage / group / member</div><div class="st" role="columnheader">State</div><div class="tk" role="columnheader">${labels.join("")}</div></div>`;
}

/** Vertical lines at the ticks, drawn once behind all rows. */
function gridLines(scale: TimeScale): string {
  return `<div class="grid" aria-hidden="true">${scale.ticks().map((t) => `<i style="left:${scale.position(t.at)}"></i>`).join("")}</div>`;
}
