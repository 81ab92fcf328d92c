/**
 * Issue 31: health analysis, declared once and used at three places (docs/health-analysis.md,
 * docs/rules.md §19). The shape and the names are Argo Rollouts' `AnalysisTemplate` metric
 * (`initialDelay`, `interval`, `count`, `failureLimit`, `inconclusiveLimit`, `consecutiveErrorLimit`,
 * `successCondition`, `failureCondition`, `provider.web` / `provider.prometheus`), one metric per
 * template. A run's `analysis` declares its templates and says where each is used: after each
 * member's upgrade (`afterMember`), before a stage starts (`stages[].preCheck`) and through a stage's
 * soak, its after-stage wait (`stages[].soak`).
 *
 * A member's `healthCheck` (issue 5, docs/rules.md §11) is the short form of a `web` template used
 * after that member's upgrade (`healthCheckTemplate`).
 *
 * Secrets: header values, a web URL's query and credentials, a Prometheus address's credentials may be
 * secrets. None of the analysis is stored in the engine's state (journal, `engineState`): a resumed run
 * takes it from its inputs again, as the health checks (`src/drivers/engine/healthChecks.ts`); what is shown
 * goes through `shownProbeUrl` / `shownAddress`.
 */
import { z } from "zod";
import { NameSchema, orRequired } from "./values";
import type { FieldIssue } from "./issues";
import type { HealthCheck } from "./healthCheck";

/**
 * Probe URLs may carry secrets — a token in the query, credentials before the host (issue 11):
 * statuses, events and logs show the URL without either (`https://…@host/healthz?…`), nor a fragment.
 */
export function shownProbeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(an invalid URL)";
  }
  const credentials = parsed.username !== "" || parsed.password !== "" ? "…@" : "";
  return `${parsed.protocol}//${credentials}${parsed.host}${parsed.pathname}${parsed.search !== "" ? "?…" : ""}`;
}

/** The longest duration an analysis field takes: a week. */
export const MAX_ANALYSIS_DURATION_MS = 7 * 86_400_000;
export const MAX_TEMPLATES = 20;
export const MAX_MEASUREMENT_COUNT = 1_000;

const DURATION_PART = /(\d+)(ms|s|m|h)/g;
const DURATION = /^(\d+(ms|s|m|h))+$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a duration in Argo's (Go's) form: `30s`, `5m`, `1h30m`, `500ms`. */
export function durationMs(text: string): number {
  let total = 0;
  for (const [, n, unit] of text.matchAll(DURATION_PART)) total += Number(n) * (UNIT_MS[unit as string] as number);
  return total;
}

const DurationSchema = z
  .string({ error: orRequired("must be a duration such as 30s, 5m or 1h30m") })
  .regex(DURATION, "must be a duration such as 30s, 5m or 1h30m (units ms, s, m, h)")
  .refine((text) => durationMs(text) <= MAX_ANALYSIS_DURATION_MS, "must be at most a week (168h)");

const HttpUrlSchema = z.url({ protocol: /^https?$/, error: orRequired("must be an http or https URL") });

/** An HTTP header sent with each measurement; its value may be a secret (a token) and is never shown. */
export const AnalysisHeaderSchema = z
  .strictObject({
    key: z
      .string({ error: orRequired("must be a header name") })
      .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, "must be an HTTP header name such as X-Scope-OrgID")
      .meta({ description: "The header's name." }),
    value: z.string({ error: orRequired("must be a string") }).max(8_192, "must be at most 8192 characters").meta({ description: "The header's value; may be a secret: never shown, never stored.", secret: true }),
  })
  .meta({ objectType: { name: "AnalysisHeader", description: "An HTTP header sent with each measurement (Argo's `{key, value}`)." } });
export type AnalysisHeader = z.infer<typeof AnalysisHeaderSchema>;

const HeadersSchema = z.array(AnalysisHeaderSchema, { error: "must be a list of {key, value}" }).max(20, "at most 20 headers");

const TimeoutSchema = z.number({ error: "must be a number of seconds" }).int("must be a whole number of seconds").min(1, "must be at least 1").max(300, "must be at most 300");

/** Argo's `web` provider, as our HTTP probe: GET the URL; any 2xx answer is a Successful measurement. */
export const WebProviderSchema = z
  .strictObject({
    url: HttpUrlSchema.meta({ description: "HTTP(S) URL to GET; any 2xx answer is Successful. May hold a token in its query or credentials: shown without them.", secret: true }),
    headers: HeadersSchema.optional().meta({ description: "Headers sent with the request (values never shown)." }),
    timeoutSeconds: TimeoutSchema.optional().meta({ description: "Seconds to wait for an answer; default 10." }),
  })
  .meta({ objectType: { name: "WebAnalysisProvider", description: "An HTTP probe: GET `url`; any 2xx answer is a Successful measurement, anything else Failed." } });
export type WebProvider = z.infer<typeof WebProviderSchema>;

/** The default scope of a token for an Azure Monitor workspace's Prometheus query endpoint. */
export const AZURE_MONITOR_PROMETHEUS_SCOPE = "https://prometheus.monitor.azure.com/.default";

/** Argo's `prometheus` provider: PromQL to a Prometheus-compatible `/api/v1/query`. */
export const PrometheusProviderSchema = z
  .strictObject({
    address: HttpUrlSchema.meta({ description: "Base URL of a Prometheus-compatible HTTP API, e.g. http://prometheus:9090 or an Azure Monitor workspace's query endpoint; `/api/v1/query` is appended." }),
    query: z
      .string({ error: orRequired("must be a PromQL query") })
      .min(1, "must not be empty")
      .max(10_000, "must be at most 10000 characters")
      .superRefine((query, ctx) => {
        for (const problem of templateProblems(query)) ctx.addIssue({ code: "custom", message: problem });
      })
      .meta({ description: "PromQL, evaluated at the measurement's instant. May use `{{member.name}}` and `{{member.labels.<key>}}`: then it is evaluated once per member measured." }),
    headers: HeadersSchema.optional().meta({ description: "Headers sent with each query, e.g. a bearer token (values never shown, never stored)." }),
    timeoutSeconds: TimeoutSchema.optional().meta({ description: "Seconds to wait for an answer; default 10." }),
    authentication: z
      .strictObject({
        azureIdentity: z
          .strictObject({
            scope: z.string({ error: "must be a token scope" }).min(1, "must not be empty").optional().meta({ description: `Token scope; default ${AZURE_MONITOR_PROMETHEUS_SCOPE}.` }),
          })
          .meta({
            objectType: {
              name: "AzureIdentityAuthentication",
              description: "Send a bearer token from @azure/identity's DefaultAzureCredential (az login, environment, managed or workload identity): an Azure Monitor workspace's query endpoint.",
            },
            description: "A bearer token from DefaultAzureCredential, for an Azure Monitor workspace's query endpoint.",
          }),
      })
      .meta({ objectType: { name: "PrometheusAuthentication", description: "How a query authenticates besides its `headers`." } })
      .optional()
      .meta({ description: "How to authenticate besides `headers`." }),
  })
  .meta({ objectType: { name: "PrometheusAnalysisProvider", description: "A PromQL query to a Prometheus-compatible HTTP API; each sample of the answer is judged by the conditions." } });
export type PrometheusProvider = z.infer<typeof PrometheusProviderSchema>;

/** `{{member.name}}` and `{{member.labels.<key>}}`: anything else between braces is refused. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const KNOWN_PLACEHOLDER = /^member\.(name|labels\.[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?)$/;

function templateProblems(query: string): string[] {
  const problems: string[] = [];
  for (const [, inner] of query.matchAll(PLACEHOLDER)) {
    if (!KNOWN_PLACEHOLDER.test(inner as string)) problems.push(`unknown placeholder {{${inner}}}: use {{member.name}} or {{member.labels.<key>}}`);
  }
  return problems;
}

/** Whether a query names its member (then it is evaluated once per member measured). */
export function queryIsPerMember(query: string): boolean {
  for (const _ of query.matchAll(PLACEHOLDER)) return true;
  return false;
}

/**
 * The query for one member. Label values are escaped for a PromQL string (`\` and `"`), so a value
 * can neither end the string nor inject a matcher; a label the member lacks is empty.
 */
export function renderQuery(query: string, member: { name: string; labels?: Readonly<Record<string, string>> } | undefined): string {
  return query.replace(PLACEHOLDER, (_all, inner: string) => {
    if (member === undefined) return "";
    const value = inner === "member.name" ? member.name : (member.labels?.[inner.slice("member.labels.".length)] ?? "");
    return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  });
}

// Conditions: Argo writes an expression over `result`; we take the threshold part of that language —
// comparisons of `result` (every sample) or `result[0]` (the first) with a number, joined by `&&` or
// `||` (`&&` binds tighter) — parsed here once, evaluated by `conditionHolds` (no eval, no surprises).

export type ComparisonOperator = "<" | "<=" | ">" | ">=" | "==" | "!=";
export interface Comparison {
  /** `result[0]`: the first sample only; `result`: every sample. */
  first: boolean;
  op: ComparisonOperator;
  threshold: number;
}
/** Alternatives (`||`) of conjunctions (`&&`) of comparisons. */
export type Condition = Comparison[][];

export class ConditionError extends Error {}

const COMPARISON = /^\s*(result(?:\[0\])?)\s*(<=|>=|==|!=|<|>)\s*(-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*$/;

export function parseCondition(text: string): Condition {
  if (text.length > 500) throw new ConditionError("must be at most 500 characters");
  const alternatives = text.split("||").map((alternative) =>
    alternative.split("&&").map((part): Comparison => {
      const match = COMPARISON.exec(part);
      if (match === null) {
        throw new ConditionError(`'${part.trim()}' is not a comparison: write result < 0.05 (every sample) or result[0] >= 0.95 (the first), joined by && or ||`);
      }
      return { first: match[1] === "result[0]", op: match[2] as ComparisonOperator, threshold: Number(match[3]) };
    }),
  );
  return alternatives;
}

const ConditionSchema = z.string({ error: orRequired("must be a condition such as result < 0.05") }).superRefine((text, ctx) => {
  try {
    parseCondition(text);
  } catch (e) {
    if (!(e instanceof ConditionError)) throw e;
    ctx.addIssue({ code: "custom", message: e.message });
  }
});

function compare(value: number, op: ComparisonOperator, threshold: number): boolean {
  switch (op) {
    case "<":
      return value < threshold;
    case "<=":
      return value <= threshold;
    case ">":
      return value > threshold;
    case ">=":
      return value >= threshold;
    case "==":
      return value === threshold;
    case "!=":
      return value !== threshold;
  }
}

/** Whether `condition` holds for the samples `values` (at least one: no data is decided by `noData`). */
export function conditionHolds(condition: Condition, values: readonly number[]): boolean {
  return condition.some((all) =>
    all.every((c) => {
      const judged = c.first ? values.slice(0, 1) : values;
      return judged.length > 0 && judged.every((v) => !Number.isNaN(v) && compare(v, c.op, c.threshold));
    }),
  );
}

/** Argo's measurement phases (the analysis's own adds Running). */
export const MEASUREMENT_PHASES = ["Successful", "Failed", "Inconclusive", "Error"] as const;
export type MeasurementPhase = (typeof MEASUREMENT_PHASES)[number];
export const NO_DATA_PHASES = ["Successful", "Failed", "Inconclusive"] as const;

export const AnalysisProviderSchema = z
  .strictObject({
    web: WebProviderSchema.optional().meta({ description: "Measure with an HTTP probe." }),
    prometheus: PrometheusProviderSchema.optional().meta({ description: "Measure with a PromQL query." }),
  })
  .superRefine((provider, ctx) => {
    const set = [provider.web, provider.prometheus].filter((p) => p !== undefined).length;
    if (set !== 1) ctx.addIssue({ code: "custom", message: "set exactly one of web, prometheus" });
  })
  .meta({ objectType: { name: "AnalysisProvider", description: "What measures: exactly one of `web` (an HTTP probe) and `prometheus` (a PromQL query)." } });

/** One analysis template: one Argo metric, named. */
export const AnalysisTemplateSchema = z
  .strictObject({
    name: NameSchema.meta({ description: "The template's name, unique in the run; uses refer to it." }),
    provider: AnalysisProviderSchema.meta({ description: "What measures: `web` or `prometheus`." }),
    initialDelay: DurationSchema.optional().meta({ description: "Wait this long before the first measurement (Argo duration: 30s, 5m, 1h); default 0s." }),
    interval: DurationSchema.refine((text) => durationMs(text) >= 1_000, "must be at least 1s").optional().meta({ description: "Time between measurements; default 1m." }),
    count: z
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(MAX_MEASUREMENT_COUNT, `must be at most ${MAX_MEASUREMENT_COUNT}`)
      .optional()
      .meta({ description: "Measurements to take; default 1 after a member and before a stage, and as many as fit in the after-stage wait during a soak." }),
    failureLimit: z.number({ error: "must be a number" }).int("must be a whole number").min(0, "must not be negative").optional().meta({ description: "Failed measurements tolerated; one more fails the analysis. Default 0." }),
    inconclusiveLimit: z.number({ error: "must be a number" }).int("must be a whole number").min(0, "must not be negative").optional().meta({ description: "Inconclusive measurements tolerated; one more ends the analysis Inconclusive, which counts as a failure. Default 0." }),
    consecutiveErrorLimit: z.number({ error: "must be a number" }).int("must be a whole number").min(0, "must not be negative").optional().meta({ description: "Measurements in a row that could not be taken (the server unreachable, a bad query) tolerated; one more ends the analysis in Error, a failure. Default 4." }),
    successCondition: ConditionSchema.optional().meta({ description: "prometheus: when a measurement is Successful, e.g. `result < 0.05` (every sample) or `result[0] >= 0.95` (the first); comparisons joined by && or ||." }),
    failureCondition: ConditionSchema.optional().meta({ description: "prometheus: when a measurement is Failed. With both conditions, a measurement meeting neither is Inconclusive." }),
    noData: z.enum(NO_DATA_PHASES, { error: "must be Successful, Failed or Inconclusive" }).optional().meta({ description: "prometheus: what a measurement whose query returns no sample is; default Inconclusive." }),
  })
  .superRefine((template, ctx) => {
    const { web, prometheus } = template.provider;
    if (web !== undefined) {
      for (const field of ["successCondition", "failureCondition", "noData"] as const) {
        if (template[field] !== undefined) ctx.addIssue({ code: "custom", path: [field], message: "is taken by prometheus templates only: a web measurement is Successful on any 2xx answer" });
      }
    }
    if (prometheus !== undefined && template.successCondition === undefined && template.failureCondition === undefined) {
      ctx.addIssue({ code: "custom", path: ["successCondition"], message: "is required for a prometheus template (or give failureCondition), e.g. result < 0.05" });
    }
  })
  .meta({ objectType: { name: "AnalysisTemplate", description: "One analysis (an Argo Rollouts metric): what is measured, when, and what passes." } });
export type AnalysisTemplate = z.infer<typeof AnalysisTemplateSchema>;

const TemplateRefsSchema = z
  .array(NameSchema, { error: "must be a list of template names" })
  .max(MAX_TEMPLATES, `at most ${MAX_TEMPLATES} templates`);

/** Where a stage uses templates. */
export const StageAnalysisSchema = z
  .strictObject({
    name: NameSchema.meta({ description: "The stage of the strategy these uses belong to." }),
    preCheck: TemplateRefsSchema.optional().meta({ description: "Templates measured over the stage's members about to be upgraded, before any starts; a failure halts the run, nothing of the stage touched." }),
    soak: TemplateRefsSchema.optional().meta({ description: "Templates measured over the stage's upgraded members through its after-stage wait; a failure halts the run before the next stage." }),
    afterMember: TemplateRefsSchema.optional().meta({ description: "Templates measured after each of the stage's members is upgraded (besides the run's `afterMember`)." }),
  })
  .meta({ objectType: { name: "StageAnalysis", description: "The analyses one stage uses." } });
export type StageAnalysis = z.infer<typeof StageAnalysisSchema>;

export const AnalysisSchema = z
  .strictObject({
    templates: z
      .array(AnalysisTemplateSchema, { error: orRequired("must be a list of templates") })
      .min(1, "must declare at least one template")
      .max(MAX_TEMPLATES, `at most ${MAX_TEMPLATES} templates`)
      .meta({ description: "The analyses, declared once; each use names one." }),
    afterMember: TemplateRefsSchema.optional().meta({ description: "Templates measured after each member's upgrade, before it counts as Completed; a failure fails the member (tolerance applies)." }),
    stages: z.array(StageAnalysisSchema, { error: "must be a list of stage uses" }).optional().meta({ description: "Per stage: pre-checks, soak analyses, and afterMember analyses for its members." }),
  })
  .superRefine((analysis, ctx) => {
    for (const issue of analysisReferenceIssues(analysis)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  })
  .meta({ objectType: { name: "Analysis", description: "Health analysis: templates declared once, used after each member, before a stage and through its soak (docs/health-analysis.md)." } });
export type Analysis = z.infer<typeof AnalysisSchema>;

/** Template names declared twice, uses naming no template, a stage listed twice: paths relative to `analysis`. */
function analysisReferenceIssues(analysis: Analysis): Array<{ path: PropertyKey[]; message: string }> {
  const issues: Array<{ path: PropertyKey[]; message: string }> = [];
  const declared = new Map<string, number>();
  analysis.templates.forEach((t, i) => {
    const first = declared.get(t.name);
    if (first !== undefined) issues.push({ path: ["templates", i, "name"], message: `duplicate template name '${t.name}' (also templates[${first}])` });
    else declared.set(t.name, i);
  });
  const known = [...declared.keys()].join(", ");
  const check = (refs: readonly string[] | undefined, at: PropertyKey[]) =>
    refs?.forEach((name, j) => {
      if (!declared.has(name)) issues.push({ path: [...at, j], message: `no template named '${name}' (templates: ${known})` });
    });
  check(analysis.afterMember, ["afterMember"]);
  const stages = new Map<string, number>();
  analysis.stages?.forEach((stage, s) => {
    const first = stages.get(stage.name);
    if (first !== undefined) issues.push({ path: ["stages", s, "name"], message: `stage '${stage.name}' is listed twice (also stages[${first}])` });
    else stages.set(stage.name, s);
    check(stage.preCheck, ["stages", s, "preCheck"]);
    check(stage.soak, ["stages", s, "soak"]);
    check(stage.afterMember, ["stages", s, "afterMember"]);
  });
  return issues;
}

/** Uses naming a stage the strategy lacks (`analysis.stages[i].name`): needs the strategy, so `crossValidateRun` asks. */
export function unknownAnalysisStages(analysis: Analysis | undefined, stageNames: readonly string[]): FieldIssue[] {
  const known = new Set(stageNames);
  return (analysis?.stages ?? []).flatMap((stage, s) =>
    known.has(stage.name) ? [] : [{ path: `analysis.stages[${s}].name`, message: `no stage named '${stage.name}' in the run's strategy (its stages: ${stageNames.join(", ")})` }],
  );
}

/** The template name a member's `healthCheck` (the short form) takes. */
export const HEALTH_CHECK_TEMPLATE = "health-check";

/**
 * A member's `healthCheck` as the analysis it is short for (docs/rules.md §11 H3): a web probe after
 * `settleSeconds`, then every `intervalSeconds`, at most `retries + 1` probes, healthy at the first
 * 2xx (`failureLimit` = `retries`: the analysis ends as soon as its verdict cannot change).
 */
export function healthCheckTemplate(check: HealthCheck): AnalysisTemplate {
  return {
    name: HEALTH_CHECK_TEMPLATE,
    provider: { web: { url: check.url } },
    initialDelay: `${check.settleSeconds}s`,
    interval: `${check.intervalSeconds}s`,
    count: check.retries + 1,
    failureLimit: check.retries,
  };
}

/** A template's timing and limits with Argo's defaults filled in (ms). */
export interface ResolvedTiming {
  initialDelayMs: number;
  intervalMs: number;
  count: number | undefined;
  failureLimit: number;
  inconclusiveLimit: number;
  consecutiveErrorLimit: number;
}

export const DEFAULT_INTERVAL = "1m";
export const DEFAULT_CONSECUTIVE_ERROR_LIMIT = 4;

export function resolvedTiming(template: AnalysisTemplate): ResolvedTiming {
  return {
    initialDelayMs: durationMs(template.initialDelay ?? "0s"),
    intervalMs: durationMs(template.interval ?? DEFAULT_INTERVAL),
    count: template.count,
    failureLimit: template.failureLimit ?? 0,
    inconclusiveLimit: template.inconclusiveLimit ?? 0,
    consecutiveErrorLimit: template.consecutiveErrorLimit ?? DEFAULT_CONSECUTIVE_ERROR_LIMIT,
  };
}
