/**
 * docs/rules.md §19, docs/health-analysis.md: what one measurement of an analysis asks, what it shows
 * (phase, value, member, query, message: the status a user reads), and how an analysis decides
 * (Argo Rollouts' limits), with the ports answering as a test says. Issue 34: these could be broken
 * without a test failing.
 */
import { describe, expect, it } from "vitest";
import {
  MEASUREMENT_RETENTION,
  failureText,
  hasFailed,
  isDue,
  nextMeasurement,
  recordMeasurement,
  renderAnalysis,
  shownQuery,
  startAnalysis,
  takeMeasurement,
  type AnalysisRunState,
  type MeasurePorts,
  type MeasurementState,
} from "../../src/engine/analysis";
import type { MetricAnswer, MetricQuery, ProbeResult } from "../../src/engine/backend";
import type { AnalysisTemplate } from "../../src/model/analysis";

const ADDRESS = "http://prometheus:9090";
const prom = (query: string, more: Partial<AnalysisTemplate> = {}): AnalysisTemplate => ({ name: "errors", provider: { prometheus: { address: ADDRESS, query } }, successCondition: "result < 0.05", ...more });
const web = (more: Partial<AnalysisTemplate> = {}): AnalysisTemplate => ({ name: "probe", provider: { web: { url: "https://user:secret@status.example/healthz?token=t" } }, ...more });
const members = (...names: string[]) => names.map((name) => ({ ref: { name, clusterResourceId: `/c/${name}` }, labels: { env: `env-of-${name}` } }));

/** Ports answering from `metrics` (by query) and `probe`; every question kept. */
function ports(metrics: Record<string, MetricAnswer> = {}, probe: ProbeResult = { ok: true, detail: "200 OK", status: 200 }) {
  const asked: Array<{ kind: "probe" | "query"; member?: string; what: string; options?: unknown }> = [];
  const p: MeasurePorts = {
    probe: (member, url, options) => {
      asked.push({ kind: "probe", ...(member === undefined ? {} : { member: member.name }), what: url, options });
      return probe;
    },
    queryMetric: (q: MetricQuery) => {
      asked.push({ kind: "query", ...(q.member === undefined ? {} : { member: q.member.name }), what: q.query });
      return metrics[q.query] ?? { values: [] };
    },
  };
  return { ports: p, asked };
}

const measure = (template: AnalysisTemplate, over: ReturnType<typeof members>, p: MeasurePorts) => takeMeasurement(template, over, p, 1_000) as MeasurementState;

describe("what a measurement asks", () => {
  it("a web probe after one member's upgrade asks once for that member, with the template's headers and timeout; the status shows the URL without its secrets", () => {
    const { ports: p, asked } = ports({}, { ok: true, detail: "GET https://…@status.example/healthz?… answered 204", status: 204 });
    const template = web();
    template.provider.web!.headers = [{ key: "X-Org", value: "hidden" }];
    template.provider.web!.timeoutSeconds = 3;
    const m = measure(template, members("c1"), p);
    expect(asked).toStrictEqual([{ kind: "probe", member: "c1", what: "https://user:secret@status.example/healthz?token=t", options: { headers: [{ key: "X-Org", value: "hidden" }], timeoutSeconds: 3 } }]);
    expect(m).toStrictEqual({ at: 1_000, phase: "Successful", value: 204, member: "c1", query: "https://…@status.example/healthz?…", message: "GET https://…@status.example/healthz?… answered 204" });
  });

  it("a web probe over a stage's members asks once, for no member, with no options when none are declared", () => {
    const { ports: p, asked } = ports({}, { ok: false, detail: "no answer: connection refused" });
    const m = measure(web(), members("c1", "c2"), p);
    expect(asked).toStrictEqual([{ kind: "probe", what: "https://user:secret@status.example/healthz?token=t", options: {} }]);
    // No answer is as unhealthy as a 5xx: Failed, with no value.
    expect(m).toStrictEqual({ at: 1_000, phase: "Failed", query: "https://…@status.example/healthz?…", message: "no answer: connection refused" });
  });

  it("a query naming its member is asked once per member, each with its member and labels filled in", () => {
    const { ports: p, asked } = ports({ 'err{c="c1",env="env-of-c1"}': { values: [0.01] }, 'err{c="c2",env="env-of-c2"}': { values: [0.02] } });
    measure(prom('err{c="{{member.name}}",env="{{member.labels.env}}"}'), members("c1", "c2"), p);
    expect(asked).toStrictEqual([
      { kind: "query", member: "c1", what: 'err{c="c1",env="env-of-c1"}' },
      { kind: "query", member: "c2", what: 'err{c="c2",env="env-of-c2"}' },
    ]);
  });

  it("a query naming no member is asked once, for no member, whatever the members; one naming its member over no member is asked once, its placeholders empty", () => {
    const once = ports({ "sum(err)": { values: [0.01] } });
    expect(measure(prom("sum(err)"), members("c1", "c2"), once.ports)).toStrictEqual({ at: 1_000, phase: "Successful", value: 0.01, query: "sum(err)", message: "sum(err) = 0.01, result < 0.05" });
    expect(once.asked).toStrictEqual([{ kind: "query", what: "sum(err)" }]);
    const none = ports();
    measure(prom('err{c="{{member.name}}"}'), [], none.ports);
    expect(none.asked).toStrictEqual([{ kind: "query", what: 'err{c=""}' }]);
  });

  it("a web template's query is its URL as shown; a Prometheus template's, its PromQL as declared", () => {
    expect(shownQuery(web())).toBe("https://…@status.example/healthz?…");
    expect(shownQuery(prom('err{c="{{member.name}}"}'))).toBe('err{c="{{member.name}}"}');
  });
});

describe("what a measurement shows", () => {
  it("per member, the worst part decides, with how many more members fared alike", () => {
    const { ports: p } = ports({ 'e{c="a"}': { values: [0.01] }, 'e{c="b"}': { values: [0.2] }, 'e{c="c"}': { values: [0.3] } });
    expect(measure(prom('e{c="{{member.name}}"}'), members("a", "b", "c"), p)).toStrictEqual({
      at: 1_000,
      phase: "Failed",
      value: 0.2,
      member: "b",
      query: 'e{c="b"}',
      message: 'e{c="b"} = 0.2 for member b, not result < 0.05 (and 1 more of 3 members)',
    });
  });

  it("a Failed part outranks an Inconclusive one, which outranks an Error, which outranks a Successful one", () => {
    const both = { successCondition: "result < 0.05", failureCondition: "result > 0.5" };
    const answers = { 'e{c="ok"}': { values: [0.01] }, 'e{c="err"}': { error: "bad_data: parse error" }, 'e{c="mid"}': { values: [0.2] }, 'e{c="bad"}': { values: [0.9] } };
    const { ports: p } = ports(answers);
    const phase = (...names: string[]) => measure(prom('e{c="{{member.name}}"}', both), members(...names), p).phase;
    expect(phase("ok", "err", "mid", "bad")).toBe("Failed");
    expect(phase("ok", "err", "mid")).toBe("Inconclusive");
    expect(phase("ok", "err")).toBe("Error");
    expect(phase("ok", "ok")).toBe("Successful");
    // Every member Successful: the first is shown, and no "more".
    expect(measure(prom('e{c="{{member.name}}"}', both), members("ok", "ok"), p).message).toBe('e{c="ok"} = 0.01 for member ok, result < 0.05 (failure when result > 0.5)');
    // One member alone in its phase: no "more".
    expect(measure(prom('e{c="{{member.name}}"}', both), members("ok", "mid"), p).message).toBe('e{c="mid"} = 0.2 for member mid, not result < 0.05 (failure when result > 0.5) (Inconclusive)');
  });

  it("the sample shown is the first that alone is not Successful, else the first", () => {
    const { ports: p } = ports({ q: { values: [0.01, 0.3, 0.4] }, r: { values: [0.02, 0.01] } });
    expect(measure(prom("q"), [], p)).toMatchObject({ phase: "Failed", value: 0.3, message: "q = 0.3, not result < 0.05" });
    expect(measure(prom("r"), [], p)).toMatchObject({ phase: "Successful", value: 0.02 });
  });

  it("a failure condition alone is shown as what must not hold", () => {
    const { ports: p } = ports({ q: { values: [0.9] }, r: { values: [0.1] } });
    const template = prom("q", { successCondition: undefined, failureCondition: "result > 0.5" });
    expect(measure(template, [], p).message).toBe("q = 0.9, not not result > 0.5");
    expect(measure({ ...template, provider: { prometheus: { address: ADDRESS, query: "r" } } }, [], p).message).toBe("r = 0.1, not result > 0.5");
  });

  it("no sample: no value, and the phase noData gives", () => {
    const { ports: p } = ports();
    expect(measure(prom('e{c="{{member.name}}"}'), members("c1"), p)).toStrictEqual({ at: 1_000, phase: "Inconclusive", member: "c1", query: 'e{c="c1"}', message: 'e{c="c1"} for member c1 returned no data (Inconclusive)' });
    expect(measure(prom("q", { noData: "Successful" }), [], p)).toStrictEqual({ at: 1_000, phase: "Successful", query: "q", message: "q returned no data (Successful)" });
  });

  it("a query the server refuses is an Error measurement saying why, for its member", () => {
    const { ports: p } = ports({ 'e{c="c1"}': { error: "bad_data: parse error" } });
    expect(measure(prom('e{c="{{member.name}}"}'), members("c1"), p)).toStrictEqual({ at: 1_000, phase: "Error", member: "c1", query: 'e{c="c1"}', message: 'e{c="c1"} for member c1 could not be measured: bad_data: parse error' });
    expect(measure(prom("q"), [], ports({ q: { error: "timeout" } }).ports)).toStrictEqual({ at: 1_000, phase: "Error", query: "q", message: "q could not be measured: timeout" });
  });

  it("a port that throws, at once or later, is an Error measurement, never the engine's", async () => {
    const throwing: MeasurePorts = {
      probe: () => {
        throw new Error("socket hang up");
      },
      queryMetric: (q) => {
        if (q.member?.name === "later") return Promise.reject(new Error("ECONNRESET"));
        throw "not an Error";
      },
    };
    expect(takeMeasurement(web(), members("c1"), throwing, 5)).toStrictEqual({ at: 5, phase: "Error", member: "c1", query: "https://…@status.example/healthz?…", message: "https://…@status.example/healthz?… could not be measured: socket hang up" });
    expect(takeMeasurement(prom("q"), [], throwing, 5)).toStrictEqual({ at: 5, phase: "Error", query: "q", message: "q could not be measured: not an Error" });
    const later = takeMeasurement(prom('e{c="{{member.name}}"}'), members("later"), throwing, 5);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toStrictEqual({ at: 5, phase: "Error", member: "later", query: 'e{c="later"}', message: 'e{c="later"} could not be measured: ECONNRESET' });
  });

  it("answers given later are combined as answers given at once", async () => {
    const slow: MeasurePorts = {
      probe: () => Promise.resolve({ ok: true, detail: "200", status: 200 }),
      queryMetric: (q) => (q.member?.name === "a" ? { values: [0.01] } : Promise.resolve({ values: [0.4] })),
    };
    expect(await takeMeasurement(prom('e{c="{{member.name}}"}'), members("a", "b"), slow, 7)).toStrictEqual({ at: 7, phase: "Failed", value: 0.4, member: "b", query: 'e{c="b"}', message: 'e{c="b"} = 0.4 for member b, not result < 0.05' });
    expect(await takeMeasurement(web(), members("a"), slow, 7)).toMatchObject({ phase: "Successful", value: 200 });
  });
});

describe("how an analysis decides (Argo's limits)", () => {
  const at = (phase: MeasurementState["phase"], t = 0): MeasurementState => ({ at: t, phase, message: `${phase} at ${t}` });
  const run = (template: AnalysisTemplate, phases: Array<MeasurementState["phase"]>) => {
    const a = startAnalysis(template, "afterMember", 0, { query: shownQuery(template) });
    const verdicts = phases.map((p, i) => recordMeasurement(a, template, at(p, i), i));
    return { a, verdicts };
  };

  it("errors in a row past consecutiveErrorLimit end it in Error; a measurement between them starts the count again", () => {
    const template = prom("q", { count: 10, consecutiveErrorLimit: 1 });
    expect(run(template, ["Error", "Error"]).verdicts).toStrictEqual([undefined, "Error"]);
    const { a, verdicts } = run(template, ["Error", "Successful", "Error", "Successful"]);
    expect(verdicts).toStrictEqual([undefined, undefined, undefined, undefined]);
    expect(a).toMatchObject({ error: 2, successful: 2, consecutiveError: 0 });
    // Errors are not measurements taken: count 2 needs two that are.
    expect(run(prom("q", { count: 2 }), ["Error", "Successful", "Error", "Successful"]).verdicts).toStrictEqual([undefined, undefined, undefined, "Successful"]);
    // The default limit is 4 errors in a row.
    expect(run(prom("q", { count: 10 }), ["Error", "Error", "Error", "Error", "Error"]).verdicts).toStrictEqual([undefined, undefined, undefined, undefined, "Error"]);
  });

  it("Inconclusive past inconclusiveLimit ends it Inconclusive; Failed past failureLimit ends it Failed, whichever comes first", () => {
    expect(run(prom("q", { count: 5, inconclusiveLimit: 1 }), ["Inconclusive", "Inconclusive"]).verdicts).toStrictEqual([undefined, "Inconclusive"]);
    expect(run(prom("q", { count: 5 }), ["Inconclusive"]).verdicts).toStrictEqual(["Inconclusive"]);
    expect(run(prom("q", { count: 5, failureLimit: 1 }), ["Failed", "Failed"]).verdicts).toStrictEqual([undefined, "Failed"]);
    expect(run(prom("q", { count: 5 }), ["Failed"]).verdicts).toStrictEqual(["Failed"]);
  });

  it("an Inconclusive measurement within its limit is a measurement taken: count 2 ends Successful at the second", () => {
    expect(run(prom("q", { count: 2, inconclusiveLimit: 1 }), ["Inconclusive", "Successful"]).verdicts).toStrictEqual([undefined, "Successful"]);
  });

  it("Successful once no remaining measurement can change it, counting the ones that could be Inconclusive", () => {
    // count 3, failureLimit 2: one success leaves 2 that can fail: within the limit... but each could be
    // Inconclusive (both conditions), past inconclusiveLimit 0: it goes on.
    const both = prom("q", { count: 3, failureLimit: 2, failureCondition: "result > 1" });
    expect(run(both, ["Successful", "Successful", "Successful"]).verdicts).toStrictEqual([undefined, undefined, "Successful"]);
    expect(run({ ...both, inconclusiveLimit: 2 }, ["Successful"]).verdicts).toStrictEqual(["Successful"]);
    // A success condition alone, and noData Successful or Failed: nothing can be Inconclusive.
    expect(run(prom("q", { count: 3, failureLimit: 2, noData: "Failed" }), ["Successful"]).verdicts).toStrictEqual(["Successful"]);
    expect(run(prom("q", { count: 3, failureLimit: 2 }), ["Successful"]).verdicts).toStrictEqual([undefined]);
    // A web probe is never Inconclusive.
    expect(run(web({ count: 3, failureLimit: 2 }), ["Successful"]).verdicts).toStrictEqual(["Successful"]);
    expect(run(web({ count: 3, failureLimit: 1 }), ["Successful"]).verdicts).toStrictEqual([undefined]);
    // noData Failed: a failure condition alone cannot give Inconclusive; both conditions still can.
    const failureOnly = prom("q", { count: 3, failureLimit: 2, successCondition: undefined, failureCondition: "result > 1", noData: "Failed" });
    expect(run(failureOnly, ["Successful"]).verdicts).toStrictEqual(["Successful"]);
    expect(run({ ...failureOnly, successCondition: "result < 0.05" }, ["Successful"]).verdicts).toStrictEqual([undefined]);
  });

  it("at most MEASUREMENT_RETENTION measurements are kept, the newest; the counts cover all", () => {
    const template = web({ count: 30 });
    const { a } = run(template, Array.from({ length: MEASUREMENT_RETENTION + 1 }, () => "Successful" as const));
    expect(a.measurements).toHaveLength(MEASUREMENT_RETENTION);
    expect(a.measurements[0]?.at).toBe(1);
    expect(a.measurements.at(-1)?.at).toBe(MEASUREMENT_RETENTION);
    expect(a.successful).toBe(MEASUREMENT_RETENTION + 1);
    expect(a.message).toBe(`Successful at ${MEASUREMENT_RETENTION}`);
  });

  it("the next measurement is on the template's schedule; one taken late is followed one interval after it", () => {
    const template = web({ count: 6, initialDelay: "10s", interval: "30s" });
    const a = startAnalysis(template, "afterMember", 0, { query: "" });
    expect(a.nextMeasurementAt).toBe(10_000);
    recordMeasurement(a, template, at("Successful", 10_000), 10_000);
    expect(a.nextMeasurementAt).toBe(40_000);
    recordMeasurement(a, template, at("Successful", 45_000), 45_000);
    expect(a.nextMeasurementAt).toBe(70_000);
    recordMeasurement(a, template, at("Successful", 70_000), 70_000);
    expect(a.nextMeasurementAt).toBe(100_000);
    recordMeasurement(a, template, at("Successful", 200_000), 200_000);
    expect(a.nextMeasurementAt).toBe(230_000);
    // Taken exactly one interval late (due at 230 s, taken at 260 s): the next is one interval after it, not at once.
    recordMeasurement(a, template, at("Successful", 260_000), 260_000);
    expect(a.nextMeasurementAt).toBe(290_000);
  });

  it("a soak without count takes the measurements that fit in its wait, at least one", () => {
    const template = web({ initialDelay: "1m", interval: "5m" });
    expect(startAnalysis(template, "soak", 0, { query: "" }, 60_000 + 15 * 60_000).count).toBe(4);
    expect(startAnalysis(template, "soak", 0, { query: "" }, 60_000 + 15 * 60_000 - 1).count).toBe(3);
    expect(startAnalysis(template, "soak", 0, { query: "" }, 60_000).count).toBe(1);
    expect(startAnalysis(template, "soak", 0, { query: "" }, 59_999).count).toBe(1);
    expect(startAnalysis(template, "soak", 0, { query: "" }).count).toBe(1);
    expect(startAnalysis(template, "preCheck", 0, { query: "" }, 60_000 + 15 * 60_000).count).toBe(1);
    expect(startAnalysis({ ...template, count: 2 }, "soak", 0, { query: "" }, 60_000 + 15 * 60_000).count).toBe(2);
  });

  it("which analyses are due, and when the next one measures", () => {
    const a = startAnalysis(web({ initialDelay: "1m" }), "afterMember", 0, { query: "" });
    const b = startAnalysis(web({ initialDelay: "2m" }), "afterMember", 0, { query: "" });
    expect([isDue(a, 59_999), isDue(a, 60_000)]).toStrictEqual([false, true]);
    expect(nextMeasurement([b, a])).toBe(60_000);
    expect(nextMeasurement([a, b])).toBe(60_000);
    expect(nextMeasurement(undefined)).toBeUndefined();
    a.phase = "Successful";
    expect(isDue(a, 60_000)).toBe(false);
    expect(nextMeasurement([a, b])).toBe(120_000);
    delete b.nextMeasurementAt;
    expect(isDue(b, 0)).toBe(true);
    expect(nextMeasurement([a, b])).toBeUndefined();
  });
});

describe("what an ended analysis says", () => {
  const ended = (phase: AnalysisRunState["phase"], more: Partial<AnalysisRunState> = {}): AnalysisRunState => ({
    ...startAnalysis(prom("q"), "soak", 0, { query: "q" }),
    phase,
    successful: 1,
    failed: 2,
    inconclusive: 3,
    consecutiveError: 4,
    message: "q = 0.3, not result < 0.05",
    ...more,
  });

  it("Failed, Inconclusive and Error count as failures; Running and Successful do not", () => {
    expect((["Failed", "Inconclusive", "Error", "Running", "Successful"] as const).map((p) => hasFailed(ended(p)))).toStrictEqual([true, true, true, false, false]);
  });

  it("each verdict with its tally and the limit it passed, the template's or Argo's default", () => {
    const t = prom("q", { failureLimit: 1, inconclusiveLimit: 2, consecutiveErrorLimit: 3 });
    expect(failureText(ended("Failed"), t)).toBe("Analysis 'errors' failed: q = 0.3, not result < 0.05 (2 failed of 6, failureLimit 1).");
    expect(failureText(ended("Inconclusive"), t)).toBe("Analysis 'errors' was inconclusive: q = 0.3, not result < 0.05 (3 inconclusive of 6, inconclusiveLimit 2).");
    expect(failureText(ended("Error"), t)).toBe("Analysis 'errors' could not be measured: q = 0.3, not result < 0.05 (4 errors in a row, consecutiveErrorLimit 3).");
    expect(failureText(ended("Error", { message: undefined }), undefined)).toBe("Analysis 'errors' could not be measured: no measurement (4 errors in a row, consecutiveErrorLimit 0).");
    expect(failureText(ended("Failed"), undefined)).toContain("failureLimit 0).");
    expect(failureText(ended("Inconclusive"), undefined)).toContain("inconclusiveLimit 0).");
    expect(failureText(ended("Error"), prom("q"))).toContain("consecutiveErrorLimit 4).");
  });

  it("its status shows what it has, and leaves out what it has not", () => {
    const a = startAnalysis(web(), "afterMember", 0, { query: "https://…@status.example/healthz?…" });
    expect(renderAnalysis(a)).toStrictEqual({
      template: "probe",
      kind: "afterMember",
      phase: "Running",
      provider: "web",
      query: "https://…@status.example/healthz?…",
      startedAt: "1970-01-01T00:00:00Z",
      nextMeasurementAt: "1970-01-01T00:00:00Z",
      count: 1,
      successful: 0,
      failed: 0,
      inconclusive: 0,
      error: 0,
      measurements: [],
    });
    const b = startAnalysis(prom("q", { failureCondition: "result > 1" }), "preCheck", 0, { query: "q" });
    recordMeasurement(b, prom("q"), { at: 60_000, phase: "Successful", value: 0, member: "c1", query: "q", message: "q = 0, result < 0.05" }, 60_000);
    b.phase = "Successful";
    b.finishedAt = 60_000;
    delete b.nextMeasurementAt;
    expect(renderAnalysis(b)).toMatchObject({ successCondition: "result < 0.05", failureCondition: "result > 1", finishedAt: "1970-01-01T00:01:00Z", message: "q = 0, result < 0.05", provider: "prometheus" });
    expect(renderAnalysis(b).nextMeasurementAt).toBeUndefined();
    expect(renderAnalysis(b).measurements).toStrictEqual([{ measuredAt: "1970-01-01T00:01:00Z", phase: "Successful", value: 0, member: "c1", query: "q", message: "q = 0, result < 0.05" }]);
    expect(renderAnalysis(startAnalysis(web(), "afterMember", 0, { query: "" })).successCondition).toBeUndefined();
    recordMeasurement(a, web(), { at: 0, phase: "Failed" }, 0);
    expect(renderAnalysis(a).measurements).toStrictEqual([{ measuredAt: "1970-01-01T00:00:00Z", phase: "Failed" }]);
  });
});
