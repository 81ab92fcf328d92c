/**
 * Issue 31: an analysis as it runs (docs/rules.md §19, docs/health-analysis.md) — Argo Rollouts'
 * AnalysisRun for one metric. Everything here is pure but `takeMeasurement`, which asks the injected
 * ports (`MeasurePorts`) and answers as they do (`Answer`: a value at once on the simulated fleet, a
 * promise over HTTP). No clock, no timers: every function takes `now`.
 *
 * Reused outside the engine: the Fleet Manager client runs the same analyses in our process
 * through Fleet's after-gates (`i31-fleet`), with these functions over the same state.
 */
import {
  conditionHolds,
  parseCondition,
  queryIsPerMember,
  renderQuery,
  resolvedTiming,
  shownProbeUrl,
  type AnalysisTemplate,
  type MeasurementPhase,
  type PrometheusProvider,
  type WebProvider,
} from "../model/analysis";
import type { AnalysisRunStatus, MeasurementStatus } from "../model/status";
import { isoInstant as iso } from "../model/instants";
import { isPending, type Answer, type MemberRef, type MetricAnswer, type MetricQuery, type ProbeResult } from "./backend";

export type AnalysisKind = "afterMember" | "preCheck" | "soak";
export type AnalysisPhase = "Running" | "Successful" | "Failed" | "Inconclusive" | "Error";

/** At most this many measurements are kept per analysis (Argo keeps 10); the counts cover all. */
export const MEASUREMENT_RETENTION = 20;

/** One measurement, as journaled: plain JSON, no secret (the query is PromQL, a URL is shown). */
export interface MeasurementState {
  at: number;
  phase: MeasurementPhase;
  value?: number;
  member?: string;
  query?: string;
  message?: string;
}

/** One analysis of one template at one place: its progress, journaled with the run. */
export interface AnalysisRunState {
  template: string;
  kind: AnalysisKind;
  phase: AnalysisPhase;
  provider: "web" | "prometheus";
  /** PromQL as declared (placeholders kept), or the web URL as shown. */
  query: string;
  successCondition?: string;
  failureCondition?: string;
  startedAt: number;
  finishedAt?: number;
  /** When the next measurement is due, while Running. */
  nextMeasurementAt?: number;
  /** Measurements to take: the template's `count`, or resolved at the start (a soak's wait). */
  count: number;
  successful: number;
  failed: number;
  inconclusive: number;
  error: number;
  consecutiveError: number;
  measurements: MeasurementState[];
  /** Why it ended (or what it saw last). */
  message?: string;
}

/** A member an analysis measures: its name and labels (templating), and how to reach it. */
export interface MeasuredMember {
  ref: MemberRef;
  labels?: Readonly<Record<string, string>>;
}

/** The injected I/O: the engine's `ClusterBackend` / `EngineOptions` give these. */
export interface MeasurePorts {
  probe(member: MemberRef | undefined, url: string, options: { headers?: WebProvider["headers"]; timeoutSeconds?: number }): Answer<ProbeResult>;
  queryMetric(query: MetricQuery): Answer<MetricAnswer>;
}

/**
 * A new analysis at `now`. `soakEndsAt`: a soak without `count` takes the measurements whose instants
 * fall within its wait (at least one).
 */
export function startAnalysis(template: AnalysisTemplate, kind: AnalysisKind, now: number, shown: { query: string }, soakEndsAt?: number): AnalysisRunState {
  const timing = resolvedTiming(template);
  const first = now + timing.initialDelayMs;
  const count = timing.count ?? (kind === "soak" && soakEndsAt !== undefined && soakEndsAt >= first ? Math.floor((soakEndsAt - first) / timing.intervalMs) + 1 : 1);
  return {
    template: template.name,
    kind,
    phase: "Running",
    provider: template.provider.web !== undefined ? "web" : "prometheus",
    query: shown.query,
    ...(template.successCondition === undefined ? {} : { successCondition: template.successCondition }),
    ...(template.failureCondition === undefined ? {} : { failureCondition: template.failureCondition }),
    startedAt: now,
    nextMeasurementAt: first,
    count,
    successful: 0,
    failed: 0,
    inconclusive: 0,
    error: 0,
    consecutiveError: 0,
    measurements: [],
  };
}

/** What an analysis of `template` shows as its query: PromQL as declared, a web URL without secrets. */
export function shownQuery(template: AnalysisTemplate): string {
  // A template has exactly one provider (model/analysis.ts).
  return template.provider.prometheus?.query ?? shownProbeUrl((template.provider.web as WebProvider).url);
}

/** An analysis that ended in a failure. */
export type FailedAnalysis = AnalysisRunState & { phase: "Failed" | "Inconclusive" | "Error" };

/** Failed, Inconclusive or Error: every one counts as a failure of the analysis. */
export function hasFailed(analysis: AnalysisRunState): analysis is FailedAnalysis {
  return analysis.phase === "Failed" || analysis.phase === "Inconclusive" || analysis.phase === "Error";
}

/** Whether a measurement is due. */
export function isDue(analysis: AnalysisRunState, now: number): boolean {
  return analysis.phase === "Running" && (analysis.nextMeasurementAt ?? now) <= now;
}

/** The earliest next measurement of the analyses still running. */
export function nextMeasurement(analyses: readonly AnalysisRunState[] | undefined): number | undefined {
  let next: number | undefined;
  for (const a of analyses ?? []) if (a.phase === "Running" && a.nextMeasurementAt !== undefined) next = next === undefined ? a.nextMeasurementAt : Math.min(next, a.nextMeasurementAt);
  return next;
}

/** One sample's (or one answer's) verdict under the template's conditions (Argo's rules). */
export function judge(template: AnalysisTemplate, values: readonly number[]): MeasurementPhase {
  if (values.length === 0) return template.noData ?? "Inconclusive";
  const success = template.successCondition === undefined ? undefined : conditionHolds(parseCondition(template.successCondition), values);
  const failure = template.failureCondition === undefined ? undefined : conditionHolds(parseCondition(template.failureCondition), values);
  if (failure === true) return "Failed";
  if (success === undefined) return "Successful";
  if (success) return "Successful";
  return failure === undefined ? "Failed" : "Inconclusive";
}

/** The sample that decides an answer: the first that alone is not Successful, else the first. */
function decidingValue(template: AnalysisTemplate, values: readonly number[]): number | undefined {
  return values.find((v) => judge(template, [v]) !== "Successful") ?? values[0];
}

/** One member's (or the one unsplit query's) part of a measurement. */
interface Part {
  phase: MeasurementPhase;
  value?: number;
  member?: string;
  query: string;
  message: string;
}

function fromAnswer(template: AnalysisTemplate, query: string, member: string | undefined, answer: MetricAnswer): Part {
  const who = member === undefined ? "" : ` for member ${member}`;
  if ("error" in answer) return { phase: "Error", ...(member === undefined ? {} : { member }), query, message: `${query}${who} could not be measured: ${answer.error}` };
  const phase = judge(template, answer.values);
  const value = decidingValue(template, answer.values);
  const condition = conditionText(template);
  const message =
    value === undefined
      ? `${query}${who} returned no data (${phase})`
      : phase === "Successful"
        ? `${query} = ${value}${who}, ${condition}`
        : `${query} = ${value}${who}, not ${condition}${phase === "Inconclusive" ? " (Inconclusive)" : ""}`;
  return { phase, ...(value === undefined ? {} : { value }), ...(member === undefined ? {} : { member }), query, message };
}

function conditionText(template: AnalysisTemplate): string {
  if (template.successCondition !== undefined && template.failureCondition !== undefined) return `${template.successCondition} (failure when ${template.failureCondition})`;
  if (template.successCondition !== undefined) return template.successCondition;
  return `not ${template.failureCondition as string}`;
}

function fromProbe(url: string, member: string | undefined, answer: ProbeResult): Part {
  return {
    // No answer is as unhealthy as a 5xx (issue 5's probe counted it a failed attempt).
    phase: answer.ok ? "Successful" : "Failed",
    ...(answer.status === undefined ? {} : { value: answer.status }),
    ...(member === undefined ? {} : { member }),
    query: url,
    message: answer.detail,
  };
}

const PHASE_ORDER: readonly MeasurementPhase[] = ["Failed", "Inconclusive", "Error"];

/** Parts to one measurement: the worst part decides (Failed, then Inconclusive, then Error, else Successful). */
function combine(parts: readonly Part[], now: number): MeasurementState {
  const phase = PHASE_ORDER.find((p) => parts.some((part) => part.phase === p)) ?? "Successful";
  const deciding = parts.find((part) => part.phase === phase) as Part;
  const alike = parts.filter((part) => part.phase === phase).length;
  const more = phase !== "Successful" && alike > 1 ? ` (and ${alike - 1} more of ${parts.length} members)` : "";
  return {
    at: now,
    phase,
    ...(deciding.value === undefined ? {} : { value: deciding.value }),
    ...(deciding.member === undefined ? {} : { member: deciding.member }),
    query: deciding.query,
    message: `${deciding.message}${more}`,
  };
}

/**
 * Take one measurement of `template` over `members` at `now` through the ports. A Prometheus query
 * that names its member is asked once per member; otherwise once. A web probe is asked once (for the
 * one member after its upgrade, or unbound for a stage). A port that throws is an Error measurement.
 */
export function takeMeasurement(template: AnalysisTemplate, members: readonly MeasuredMember[], ports: MeasurePorts, now: number): Answer<MeasurementState> {
  const { web, prometheus } = template.provider;
  if (web !== undefined) {
    const member = members.length === 1 ? (members[0] as MeasuredMember).ref : undefined;
    const shown = shownProbeUrl(web.url);
    const options = { ...(web.headers === undefined ? {} : { headers: web.headers }), ...(web.timeoutSeconds === undefined ? {} : { timeoutSeconds: web.timeoutSeconds }) };
    return settle([asked(() => ports.probe(member, web.url, options), (answer) => fromProbe(shown, member?.name, answer), shown, member?.name)], now);
  }
  const provider = prometheus as PrometheusProvider;
  if (!queryIsPerMember(provider.query) || members.length === 0) {
    const query = renderQuery(provider.query, undefined);
    return settle([asked(() => ports.queryMetric({ provider, query }), (answer) => fromAnswer(template, query, undefined, answer), query, undefined)], now);
  }
  const parts = members.map((m) => {
    const query = renderQuery(provider.query, { name: m.ref.name, ...(m.labels === undefined ? {} : { labels: m.labels }) });
    return asked(() => ports.queryMetric({ provider, query, member: m.ref }), (answer) => fromAnswer(template, query, m.ref.name, answer), query, m.ref.name);
  });
  return settle(parts, now);
}

/** Ask a port; an exception (at once or later) is the part's Error, never the engine's. */
function asked<T>(ask: () => Answer<T>, toPart: (answer: T) => Part, query: string, member: string | undefined): Answer<Part> {
  const failed = (e: unknown): Part => ({ phase: "Error", ...(member === undefined ? {} : { member }), query, message: `${query} could not be measured: ${e instanceof Error ? e.message : String(e)}` });
  let answer: Answer<T>;
  try {
    answer = ask();
  } catch (e) {
    return failed(e);
  }
  return isPending(answer) ? answer.then(toPart, failed) : toPart(answer);
}

function settle(parts: ReadonlyArray<Answer<Part>>, now: number): Answer<MeasurementState> {
  if (parts.some(isPending)) return Promise.all(parts).then((all) => combine(all, now));
  return combine(parts as Part[], now);
}

/**
 * Record a measurement and decide (Argo's rules, docs/rules.md §19): Failed past `failureLimit`,
 * Inconclusive past `inconclusiveLimit`, Error past `consecutiveErrorLimit` errors in a row,
 * Successful after `count` measurements — or as soon as no remaining measurement can change that.
 * Returns the verdict when the analysis ends with this measurement; its phase is set by the caller
 * through `Transitions.measured`, the one place states change.
 */
export function recordMeasurement(analysis: AnalysisRunState, template: AnalysisTemplate, measurement: MeasurementState, now: number): Exclude<AnalysisPhase, "Running"> | undefined {
  const timing = resolvedTiming(template);
  analysis.measurements.push(measurement);
  // The oldest beyond the retention go (a count below zero removes none).
  analysis.measurements.splice(0, analysis.measurements.length - MEASUREMENT_RETENTION);
  analysis.message = measurement.message;
  switch (measurement.phase) {
    case "Successful":
      analysis.successful++;
      break;
    case "Failed":
      analysis.failed++;
      break;
    case "Inconclusive":
      analysis.inconclusive++;
      break;
    case "Error":
      analysis.error++;
      break;
  }
  analysis.consecutiveError = measurement.phase === "Error" ? analysis.consecutiveError + 1 : 0;
  const taken = analysis.successful + analysis.failed + analysis.inconclusive;
  const remaining = Math.max(0, analysis.count - taken);
  if (analysis.failed > timing.failureLimit) return "Failed";
  if (analysis.inconclusive > timing.inconclusiveLimit) return "Inconclusive";
  if (analysis.consecutiveError > timing.consecutiveErrorLimit) return "Error";
  const inconclusiveAhead = canBeInconclusive(template) ? remaining : 0;
  // Within both limits (checked above), so with none remaining this holds too.
  if (analysis.failed + remaining <= timing.failureLimit && analysis.inconclusive + inconclusiveAhead <= timing.inconclusiveLimit) return "Successful";
  // On the template's schedule; a pass that came late measures next one interval after it.
  const scheduled = (analysis.nextMeasurementAt ?? now) + timing.intervalMs;
  analysis.nextMeasurementAt = scheduled > now ? scheduled : now + timing.intervalMs;
  return undefined;
}

/** Whether a measurement can be Inconclusive: never a web one; a prometheus one with both conditions, or when no data is. */
function canBeInconclusive(template: AnalysisTemplate): boolean {
  if (template.provider.web !== undefined) return false;
  return (template.successCondition !== undefined && template.failureCondition !== undefined) || (template.noData ?? "Inconclusive") === "Inconclusive";
}

/** Why an analysis whose template is no longer declared ends in Error (a resumed run given other inputs). */
export function undeclaredText(analysis: AnalysisRunState): string {
  return `template '${analysis.template}' is no longer declared in the run's analysis`;
}

/** `Analysis 'error-rate' failed: <what the deciding measurement saw> (1 failed of 1, failureLimit 0).` */
export function failureText(analysis: AnalysisRunState, template: AnalysisTemplate | undefined): string {
  const timing = template === undefined ? undefined : resolvedTiming(template);
  const verdict = analysis.phase === "Failed" ? "failed" : analysis.phase === "Inconclusive" ? "was inconclusive" : "could not be measured";
  const tally =
    analysis.phase === "Failed"
      ? `${analysis.failed} failed of ${analysis.successful + analysis.failed + analysis.inconclusive}, failureLimit ${timing?.failureLimit ?? 0}`
      : analysis.phase === "Inconclusive"
        ? `${analysis.inconclusive} inconclusive of ${analysis.successful + analysis.failed + analysis.inconclusive}, inconclusiveLimit ${timing?.inconclusiveLimit ?? 0}`
        : `${analysis.consecutiveError} errors in a row, consecutiveErrorLimit ${timing?.consecutiveErrorLimit ?? 0}`;
  return `Analysis '${analysis.template}' ${verdict}: ${analysis.message ?? "no measurement"} (${tally}).`;
}

/** The analysis in the status (`AnalysisRunStatus`, ours). */
export function renderAnalysis(analysis: AnalysisRunState): AnalysisRunStatus {
  return {
    template: analysis.template,
    kind: analysis.kind,
    phase: analysis.phase,
    provider: analysis.provider,
    query: analysis.query,
    ...(analysis.successCondition === undefined ? {} : { successCondition: analysis.successCondition }),
    ...(analysis.failureCondition === undefined ? {} : { failureCondition: analysis.failureCondition }),
    startedAt: iso(analysis.startedAt),
    ...(analysis.finishedAt === undefined ? {} : { finishedAt: iso(analysis.finishedAt) }),
    ...(analysis.nextMeasurementAt === undefined ? {} : { nextMeasurementAt: iso(analysis.nextMeasurementAt) }),
    count: analysis.count,
    successful: analysis.successful,
    failed: analysis.failed,
    inconclusive: analysis.inconclusive,
    error: analysis.error,
    ...(analysis.message === undefined ? {} : { message: analysis.message }),
    measurements: analysis.measurements.map(renderMeasurement),
  };
}

export function renderMeasurement(m: MeasurementState): MeasurementStatus {
  return {
    measuredAt: iso(m.at),
    phase: m.phase,
    ...(m.value === undefined ? {} : { value: m.value }),
    ...(m.member === undefined ? {} : { member: m.member }),
    ...(m.query === undefined ? {} : { query: m.query }),
    ...(m.message === undefined ? {} : { message: m.message }),
  };
}
