/**
 * Issue 31 (docs/rules.md §19, docs/health-analysis.md): analysis after members, before stages and
 * through soaks, on the simulated fleet's declared metrics, on the virtual clock, with no server.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCondition, conditionHolds, renderQuery, AnalysisSchema } from "../../src/model/analysis";
import { recordMeasurement, startAnalysis, judge } from "../../src/engine/analysis";
import { parseScenario } from "../../src/simulation/scenario";
import { ValidationError } from "../../src/model/issues";
import { evaluateSelector, exposition } from "../../src/backends/simulator/metrics";
import { Outcome, simulate } from "./helpers";
import { simulateScenario } from "../../src/simulation/simulateScenario";

const SICK = readFileSync(join(__dirname, "../../examples/health-analysis/sick-cluster.yaml"), "utf8");
/** The same rollout with every cluster healthy after its upgrade. */
const HEALTHY = SICK.replace("afterUpgrade: 0.31", "afterUpgrade: 0.02");
const T = (minutes: number) => new Date(Date.parse("2026-12-05T00:00:00Z") + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");

describe("a soak analysis halts the run before the next stage (Must show: simulate, in process)", () => {
  it("the 3rd cluster's error rate rises: stage early fails at its soak, stage rest never starts, the status names the query, the values and the threshold", async () => {
    const o = await simulate(SICK);
    expect(o.run.state).toBe("Failed");
    const early = o.stage("early");
    expect(early.status).toMatchObject({ state: "Failed", error: { code: "AnalysisFailed" } });
    expect(early.status.error?.message).toBe(
      `Soak of stage 'early': Analysis 'error-rate' failed: cluster_error_rate{cluster="c3"} = 0.31 for member c3, not result < 0.05 (1 failed of 1, failureLimit 0).`,
    );
    // Nothing of the next stage was touched.
    expect(o.stage("rest").status.state).toBe("NotStarted");
    expect(o.ops("c4")).toEqual([]);
    const soak = early.analysisRuns?.find((a) => a.kind === "soak");
    expect(soak).toMatchObject({
      template: "error-rate",
      phase: "Failed",
      provider: "prometheus",
      query: 'cluster_error_rate{cluster="{{member.name}}"}',
      successCondition: "result < 0.05",
      startedAt: T(40),
      finishedAt: T(40),
      failed: 1,
    });
    expect(soak?.measurements).toEqual([
      {
        measuredAt: T(40),
        phase: "Failed",
        value: 0.31,
        member: "c3",
        query: 'cluster_error_rate{cluster="c3"}',
        message: `cluster_error_rate{cluster="c3"} = 0.31 for member c3, not result < 0.05`,
      },
    ]);
    // The pre-check of early measured the members about to be upgraded, before either started.
    const pre = early.analysisRuns?.find((a) => a.kind === "preCheck");
    expect(pre).toMatchObject({ phase: "Successful", startedAt: T(20), finishedAt: T(20), successful: 1 });
    expect(o.opStarts("c2")).toEqual([T(20)]);
  });

  it("each measurement is an event of scope analysis carrying it", async () => {
    const o = await simulate(SICK);
    const soak = o.eventsOf("analysis", "early/soak/error-rate");
    expect(soak.map((e) => `${e.time} ${e.from}->${e.to}`)).toEqual([`${T(40)} NotStarted->Running`, `${T(40)} Running->Failed`]);
    expect(soak[1]?.measurement).toMatchObject({ phase: "Failed", value: 0.31, member: "c3" });
  });

  it("the same rollout healthy completes, each stage starting only after its predecessor's soak (the wait's measurements at 0, 5 and 10 minutes)", async () => {
    const o = await simulate(HEALTHY);
    expect(o.run.state).toBe("Completed");
    expect(o.opStarts("c2")).toEqual([T(20)]);
    expect(o.opStarts("c4")).toEqual([T(50)]);
    const soak = o.stage("canary").analysisRuns?.find((a) => a.kind === "soak");
    expect(soak?.measurements.map((m) => m.measuredAt)).toEqual([T(10), T(15), T(20)]);
    expect(soak).toMatchObject({ phase: "Successful", count: 3, successful: 3 });
    // Over the stage's two upgraded members, the deciding (worst) value is shown.
    const earlySoak = o.stage("early").analysisRuns?.find((a) => a.kind === "soak");
    expect(earlySoak?.measurements[0]).toMatchObject({ phase: "Successful", value: 0.02 });
  });

  it("a soak whose count outlasts the wait holds the stage until its last measurement", async () => {
    const o = await simulate(HEALTHY.replace("      interval: 5m\n", "      interval: 5m\n      count: 4\n"));
    // The pre-check takes 4 too (00:00 to 00:15); c1 runs 00:15 to 00:25; the wait ends at 00:35 and
    // the soak's 4th measurement is at 00:40.
    expect(o.opStarts("c1")).toEqual([T(15)]);
    expect(o.stage("canary").afterStageWaitStatus?.status.completedTime).toBe(T(35));
    expect(o.stage("canary").status.completedTime).toBe(T(40));
    expect(o.opStarts("c2")).toEqual([T(55)]);
  });

  it("a start after a soak failure measures the soak again, from the beginning, without upgrading anyone again", async () => {
    const o = await simulate(SICK + "actions:\n  - {at: 2026-12-05T01:00:00Z, start: true}\n");
    const soak = o.stage("early").analysisRuns?.filter((a) => a.kind === "soak") ?? [];
    expect(soak).toHaveLength(1);
    expect(soak[0]).toMatchObject({ phase: "Failed", startedAt: T(60) });
    expect(o.ops("c3")).toHaveLength(1);
  });
});

describe("a pre-check holds the stage's members; an after-member analysis fails the member", () => {
  it("a cluster already sick before its stage: the pre-check fails the stage, none of its members starts", async () => {
    const text = SICK.replace("value: 0.01, afterUpgrade: 0.31", "value: 0.2");
    const o = await simulate(text);
    expect(o.stage("early").status).toMatchObject({ state: "Failed", error: { code: "PreCheckFailed" } });
    expect(o.stage("early").status.error?.message).toContain(`cluster_error_rate{cluster="c3"} = 0.2 for member c3, not result < 0.05`);
    expect(o.ops("c2")).toEqual([]);
    expect(o.ops("c3")).toEqual([]);
  });

  it("afterMember: the member fails with AnalysisFailed after its upgrade, and failure tolerance applies", async () => {
    const text = SICK.replace("  stages:\n    - {name: canary, preCheck", "  afterMember: [error-rate]\n  stages:\n    - {name: canary, preCheck")
      .replace("{name: early, groups: [{name: early}]", `{name: early, groups: [{name: early, maxAllowedFailures: "1"}]`);
    const o = await simulate(text);
    const c3 = o.member("c3");
    expect(c3.status).toMatchObject({ state: "Failed", error: { code: "AnalysisFailed" } });
    expect(c3.message).toContain("Analysis 'error-rate' failed: cluster_error_rate{cluster=\"c3\"} = 0.31 for member c3");
    expect(c3.analysisRuns?.[0]).toMatchObject({ kind: "afterMember", phase: "Failed", measurements: [{ value: 0.31, phase: "Failed" }] });
    expect(o.member("c2").analysisRuns?.[0]).toMatchObject({ phase: "Successful" });
    // Within the group's tolerance the group completes; the soak (over Completed members) passes.
    expect(o.group("early").status.state).toBe("Completed");
    expect(o.member("c4").status.state).toBe("Completed");
  });

  it("no data is Inconclusive by default, and fails the analysis; noData: Successful lets it pass", async () => {
    const missing = SICK.replace('cluster_error_rate{cluster="{{member.name}}"}', 'missing_metric{cluster="{{member.name}}"}');
    const o = await simulate(missing);
    expect(o.stage("canary").status.error?.message).toContain("was inconclusive: missing_metric{cluster=\"c1\"} for member c1 returned no data (Inconclusive)");
    const passing = await simulate(missing.replace("      successCondition: result < 0.05\n", "      successCondition: result < 0.05\n      noData: Successful\n"));
    expect(passing.run.state).toBe("Completed");
  });

  it("a query the simulated fleet cannot evaluate is an Error measurement; past consecutiveErrorLimit the analysis ends in Error", async () => {
    const o = await simulate(SICK.replace('cluster_error_rate{cluster="{{member.name}}"}', 'rate(x[5m])').replace("      interval: 5m\n", "      interval: 5m\n      consecutiveErrorLimit: 1\n"));
    const pre = o.stage("canary").analysisRuns?.[0];
    expect(pre).toMatchObject({ phase: "Error", error: 2 });
    expect(pre?.measurements.map((m) => m.measuredAt)).toEqual([T(0), T(5)]);
    expect(o.stage("canary").status.error?.message).toContain("evaluates instant selectors only");
  });
});

describe("the pure parts", () => {
  it("conditions: every sample (result) or the first (result[0]), && binding tighter than ||", () => {
    expect(conditionHolds(parseCondition("result < 0.05"), [0.01, 0.04])).toBe(true);
    expect(conditionHolds(parseCondition("result < 0.05"), [0.01, 0.06])).toBe(false);
    expect(conditionHolds(parseCondition("result[0] < 0.05"), [0.01, 0.06])).toBe(true);
    expect(conditionHolds(parseCondition("result > 1 || result >= 0 && result < 0.05"), [0.01])).toBe(true);
    expect(conditionHolds(parseCondition("result > 1 || result >= 0 && result < 0.05"), [0.5])).toBe(false);
    expect(() => parseCondition("len(result) == 0")).toThrow(/'len\(result\) == 0' is not a comparison/);
  });

  it("Argo's verdicts: success only, failure only, both (neither met: Inconclusive)", () => {
    const prom = { name: "t", provider: { prometheus: { address: "http://p:9090", query: "x" } } };
    expect(judge({ ...prom, successCondition: "result < 1" }, [2])).toBe("Failed");
    expect(judge({ ...prom, failureCondition: "result > 5" }, [2])).toBe("Successful");
    expect(judge({ ...prom, successCondition: "result < 1", failureCondition: "result > 5" }, [2])).toBe("Inconclusive");
    expect(judge({ ...prom, successCondition: "result < 1" }, [])).toBe("Inconclusive");
    expect(judge({ ...prom, successCondition: "result < 1", noData: "Failed" }, [])).toBe("Failed");
  });

  it("an analysis ends as soon as its verdict cannot change: count 4, failureLimit 3 ends at the first success", () => {
    const template = { name: "t", provider: { web: { url: "https://x.test/" } }, count: 4, failureLimit: 3, interval: "30s" };
    const a = startAnalysis(template, "afterMember", 0, { query: "https://x.test/" });
    expect(recordMeasurement(a, template, { at: 0, phase: "Failed" }, 0)).toBeUndefined();
    expect(a.nextMeasurementAt).toBe(30_000);
    expect(recordMeasurement(a, template, { at: 30_000, phase: "Successful" }, 30_000)).toBe("Successful");
    const b = startAnalysis(template, "afterMember", 0, { query: "" });
    for (let i = 0; i < 3; i++) expect(recordMeasurement(b, template, { at: i, phase: "Failed" }, i)).toBeUndefined();
    expect(recordMeasurement(b, template, { at: 3, phase: "Failed" }, 3)).toBe("Failed");
  });

  it("templating fills member names and labels, escaped for a PromQL string", () => {
    expect(renderQuery('x{cluster="{{member.name}}", env="{{ member.labels.env }}"}', { name: "c1", labels: { env: 'p"rod\\' } })).toBe('x{cluster="c1", env="p\\"rod\\\\"}');
    expect(renderQuery('x{team="{{member.labels.team}}"}', { name: "c1" })).toBe('x{team=""}');
  });

  it("the simulated fleet's selectors, and its /metrics text", () => {
    const series = [
      { name: "err", labels: { cluster: "a", svc: "api" }, value: 0.1 },
      { name: "err", labels: { cluster: "b", svc: "web" }, value: 0.2 },
    ];
    expect(evaluateSelector('err{cluster="a"}', series)).toEqual({ values: [0.1] });
    expect(evaluateSelector('err{cluster=~"a|b", svc!="web"}', series)).toEqual({ values: [0.1] });
    expect(evaluateSelector("err", series)).toEqual({ values: [0.1, 0.2] });
    expect(evaluateSelector('nothing{cluster="a"}', series)).toEqual({ values: [] });
    expect(exposition(series)).toBe('# HELP err Simulated by fleet-update (the fleet file\'s simulation.metrics).\n# TYPE err gauge\nerr{cluster="a",svc="api"} 0.1\nerr{cluster="b",svc="web"} 0.2\n');
  });
});

describe("bad input names the field path", () => {
  const issues = (text: string): string[] => {
    try {
      parseScenario(text);
    } catch (e) {
      if (e instanceof ValidationError) return e.issues.map((i) => `${i.path}: ${i.message}`);
      throw e;
    }
    return [];
  };

  it("unknown templates, unknown stages, bad conditions, unknown placeholders, bad durations, a web template with a condition", () => {
    const text = SICK.replace("preCheck: [error-rate], soak: [error-rate]}\n    - {name: rest", "preCheck: [error-rat], soak: [error-rate]}\n    - {name: rst")
      .replace("result < 0.05", "result < five")
      .replace("{{member.name}}", "{{member.nam}}")
      .replace("interval: 5m", "interval: 5 minutes");
    expect(issues(text)).toEqual(
      expect.arrayContaining([
        "analysis.stages[1].preCheck[0]: no template named 'error-rat' (templates: error-rate)",
        "analysis.templates[0].successCondition: 'result < five' is not a comparison: write result < 0.05 (every sample) or result[0] >= 0.95 (the first), joined by && or ||",
        "analysis.templates[0].provider.prometheus.query: unknown placeholder {{member.nam}}: use {{member.name}} or {{member.labels.<key>}}",
        "analysis.templates[0].interval: must be a duration such as 30s, 5m or 1h30m (units ms, s, m, h)",
      ]),
    );
    expect(issues(SICK.replace("{name: rest, preCheck", "{name: rst, preCheck"))).toEqual([
      "analysis.stages[2].name: no stage named 'rst' in the run's strategy (its stages: canary, early, rest)",
    ]);
    const web = AnalysisSchema.safeParse({ templates: [{ name: "w", provider: { web: { url: "https://x.test/" } }, successCondition: "result < 1" }] });
    expect(web.success).toBe(false);
    expect(web.error?.issues[0]).toMatchObject({ path: ["templates", 0, "successCondition"], message: expect.stringContaining("prometheus templates only") });
  });
});

describe("plan and simulate agree on the virtual clock", () => {
  it("simulate is deterministic with analysis", async () => {
    const a = JSON.stringify((await simulateScenario(parseScenario(SICK))).result);
    const b = JSON.stringify((await simulateScenario(parseScenario(SICK))).result);
    expect(a).toBe(b);
    expect(new Outcome(await simulateScenario(parseScenario(SICK))).run.state).toBe("Failed");
  });
});
