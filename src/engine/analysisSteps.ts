/**
 * Issue 31 in the engine (docs/rules.md §19): which templates apply where, and one step of a list of
 * analyses at `now` — the due measurements taken through the injected ports (the backend's simulated
 * metrics and probe, or the runtime's HTTP ones), recorded, and their events emitted through
 * `Transitions`. The stage's pre-check and soak live here; the member's analyses are stepped from
 * `healthCheck.ts` `verifyStep`.
 */
import { healthCheckTemplate, HEALTH_CHECK_TEMPLATE, type AnalysisTemplate, type StageAnalysis } from "../model/analysis";
import { isoInstant as iso } from "../model/instants";
import { isPending, type Answer } from "./backend";
import {
  failureText as analysisFailureText,
  hasFailed,
  isDue,
  recordMeasurement,
  shownQuery,
  startAnalysis,
  takeMeasurement,
  undeclaredText,
  type AnalysisKind,
  type AnalysisRunState,
  type MeasurePorts,
  type MeasuredMember,
} from "./analysis";
import type { EngineContext } from "./context";
import { startHalt } from "./halt";
import type { MemberRunState, StageRunState } from "./runState";

export const ANALYSIS_FAILED = "AnalysisFailed";
export const PRE_CHECK_FAILED = "PreCheckFailed";

/** The ports of this run: the runtime's when given (`EngineOptions`), else the backend's simulated ones. */
export function measurePorts(ctx: EngineContext): MeasurePorts {
  return {
    probe: (member, url, options) => {
      const probe = ctx.options.probe ?? ctx.backend.probe?.bind(ctx.backend);
      if (probe === undefined) throw new Error(`nothing can probe ${url} with this backend`);
      return probe(member ?? { name: "" }, url, options);
    },
    queryMetric: (query) => {
      const ask = ctx.options.queryMetric ?? ctx.backend.queryMetric?.bind(ctx.backend);
      if (ask === undefined) throw new Error("nothing can query Prometheus with this backend (run it where the runtime measures, or declare the simulated fleet's metrics)");
      return ask(query);
    },
  };
}

/** The uses a stage has (`analysis.stages[]` naming it). */
function stageUses(ctx: EngineContext, stage: string): StageAnalysis | undefined {
  return ctx.run.declaredAnalysis?.spec.stages?.find((s) => s.name === stage);
}

/** A template by name; `health-check` is the member's own short form. */
export function templateNamed(ctx: EngineContext, name: string, member?: MemberRunState): AnalysisTemplate | undefined {
  if (name === HEALTH_CHECK_TEMPLATE && member?.healthCheck !== undefined) return healthCheckTemplate(member.healthCheck);
  return ctx.run.declaredAnalysis?.spec.templates.find((t) => t.name === name);
}

/** The templates measured after a member's upgrade: its `healthCheck`, the run's and its stage's `afterMember`. */
export function memberTemplates(ctx: EngineContext, stage: StageRunState, member: MemberRunState): AnalysisTemplate[] {
  const out: AnalysisTemplate[] = [];
  if (member.healthCheck !== undefined) out.push(healthCheckTemplate(member.healthCheck));
  const spec = ctx.run.declaredAnalysis?.spec;
  for (const name of [...(spec?.afterMember ?? []), ...(stageUses(ctx, stage.name)?.afterMember ?? [])]) {
    const template = templateNamed(ctx, name);
    if (template !== undefined && !out.some((t) => t.name === template.name)) out.push(template);
  }
  return out;
}

export function measuredMember(ctx: EngineContext, member: MemberRunState): MeasuredMember {
  const labels = ctx.run.declaredAnalysis?.labels[member.name];
  return { ref: ctx.ref(member), ...(labels === undefined ? {} : { labels }) };
}

/** An analysis's id in events: `<member>/afterMember/<template>`, `<stage>/<kind>/<template>`. */
export function analysisId(owner: string, analysis: { kind: AnalysisKind; template: string }): string {
  return `${owner}/${analysis.kind}/${analysis.template}`;
}

/** Start analyses of `templates` at `now`, emitting their start. */
export function startAnalyses(ctx: EngineContext, owner: string, templates: readonly AnalysisTemplate[], kind: AnalysisKind, now: number, soakEndsAt?: number): AnalysisRunState[] {
  return templates.map((template) => {
    const analysis = startAnalysis(template, kind, now, { query: shownQuery(template) }, soakEndsAt);
    ctx.transitions.analysisStarted(analysis, analysisId(owner, analysis), now, `Measuring ${analysis.query} from ${iso(analysis.nextMeasurementAt as number)}, ${analysis.count} measurement${analysis.count === 1 ? "" : "s"}.`);
    return analysis;
  });
}

/**
 * Take the due measurements of `analyses` over `members` at `now` and record them. An analysis whose
 * template is gone ends in Error. Answers at once unless a port answers later.
 */
export function stepAnalyses(ctx: EngineContext, owner: string, analyses: readonly AnalysisRunState[], members: readonly MeasuredMember[], now: number, member?: MemberRunState): Answer<void> {
  const ports = measurePorts(ctx);
  const pending: Array<Promise<void>> = [];
  for (const analysis of analyses) {
    if (!isDue(analysis, now)) continue;
    const template = templateNamed(ctx, analysis.template, member);
    if (template === undefined) {
      ctx.transitions.analysisEnded(analysis, analysisId(owner, analysis), "Error", now, undeclaredText(analysis));
      continue;
    }
    const record = (measurement: Parameters<typeof recordMeasurement>[2]) => {
      const ended = recordMeasurement(analysis, template, measurement, now);
      ctx.transitions.measured(analysis, analysisId(owner, analysis), measurement, now, ended);
    };
    const measured = takeMeasurement(template, members, ports, now);
    if (isPending(measured)) pending.push(measured.then(record));
    else record(measured);
  }
  if (pending.length > 0) return Promise.all(pending).then(() => undefined);
  return undefined;
}

type StageKind = Exclude<AnalysisKind, "afterMember">;

/**
 * One step of a stage's `preCheck` or `soak` analyses at `now`; returns whether they have all passed
 * (true when the stage declares none and has none under way, or there is no member to measure: a
 * pre-check whose members were all skipped while it ran ends, Successful, saying so — measuring no
 * member would only find no data). A failure halts the run (`refreshStage` then fails the stage with
 * the analysis's error). One under way
 * whose use the run's inputs no longer declare (a resumed run given other inputs) is stepped all the
 * same, and ends in Error (`stepAnalyses`), rather than being waited for forever.
 */
export function passStageAnalyses(ctx: EngineContext, stage: StageRunState, kind: StageKind, now: number, soakEndsAt?: number): Answer<boolean> {
  const names = stageUses(ctx, stage.name)?.[kind] ?? [];
  const analyses = (stage.analysis ?? []).filter((a) => a.kind === kind);
  if (names.length === 0 && analyses.length === 0) return true;
  const verdict = (): boolean => {
    if (analyses.some(hasFailed)) {
      startHalt(ctx, "failure", now);
      return false;
    }
    return analyses.every((a) => a.phase === "Successful");
  };
  const members = stageScope(ctx, stage, kind);
  if (members.length === 0) {
    for (const a of analyses) if (a.phase === "Running") ctx.transitions.analysisEnded(a, analysisId(stage.name, a), "Successful", now, `Nothing left to measure: every member of stage '${stage.name}' was skipped.`);
    return verdict();
  }
  const missing = names.filter((name) => !analyses.some((a) => a.template === name));
  if (missing.length > 0) {
    const templates = missing.map((name) => templateNamed(ctx, name)).filter((t): t is AnalysisTemplate => t !== undefined);
    const started = startAnalyses(ctx, stage.name, templates, kind, now, soakEndsAt);
    stage.analysis = [...(stage.analysis ?? []), ...started];
    analyses.push(...started);
  }
  const stepped = stepAnalyses(ctx, stage.name, analyses, members, now);
  return isPending(stepped) ? stepped.then(verdict) : verdict();
}

/** A pre-check measures the members about to be upgraded; a soak, the members the stage upgraded. */
function stageScope(ctx: EngineContext, stage: StageRunState, kind: StageKind): MeasuredMember[] {
  const out: MeasuredMember[] = [];
  for (const group of stage.groups) {
    for (const member of group.members) {
      const inScope = kind === "soak" ? member.state === "Completed" : member.state !== "Completed" && member.state !== "Skipped";
      if (inScope) out.push(measuredMember(ctx, member));
    }
  }
  return out;
}

/** The error a failed stage analysis gives its stage, or undefined. */
export function stageAnalysisError(ctx: EngineContext, stage: StageRunState): { code: string; message: string } | undefined {
  const failed = stage.analysis?.find(hasFailed);
  if (failed === undefined) return undefined;
  const where = failed.kind === "preCheck" ? "Pre-check" : "Soak";
  const text = analysisFailureText(failed, templateNamed(ctx, failed.template));
  return { code: failed.kind === "preCheck" ? PRE_CHECK_FAILED : ANALYSIS_FAILED, message: `${where} of stage '${stage.name}': ${text}` };
}

