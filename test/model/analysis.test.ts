/**
 * docs/rules.md §19, docs/health-analysis.md: the analysis model's rules — how a URL is shown without
 * its secrets, durations, Argo's comparisons at their boundaries, queries per member, a healthCheck as
 * the template it is short for, and Argo's defaults. Issue 34: these could be broken without a test
 * failing.
 */
import { describe, expect, it } from "vitest";
import {
  conditionHolds,
  durationMs,
  healthCheckTemplate,
  parseCondition,
  queryIsPerMember,
  renderQuery,
  resolvedTiming,
  shownProbeUrl,
  unknownAnalysisStages,
} from "../../src/model/analysis";

describe("a URL as statuses, events and logs show it", () => {
  it("without credentials, query or fragment; with scheme, host, port and path", () => {
    expect(shownProbeUrl("https://user:pw@status.example:8443/a/b?token=x#frag")).toBe("https://…@status.example:8443/a/b?…");
    expect(shownProbeUrl("https://user@status.example/")).toBe("https://…@status.example/");
    expect(shownProbeUrl("https://:pw@status.example/")).toBe("https://…@status.example/");
    expect(shownProbeUrl("http://status.example/healthz")).toBe("http://status.example/healthz");
    expect(shownProbeUrl("http://status.example/healthz#top")).toBe("http://status.example/healthz");
  });

  it("a text that is not a URL is never echoed", () => {
    expect(shownProbeUrl("token=secret and no scheme")).toBe("(an invalid URL)");
  });
});

describe("durations in Argo's form", () => {
  it("every unit, summed in any order", () => {
    expect(durationMs("500ms")).toBe(500);
    expect(durationMs("30s")).toBe(30_000);
    expect(durationMs("5m")).toBe(300_000);
    expect(durationMs("2h")).toBe(7_200_000);
    expect(durationMs("1h30m15s250ms")).toBe(5_415_250);
    expect(durationMs("10s1m")).toBe(70_000);
  });
});

describe("conditions", () => {
  const holds = (text: string, ...values: number[]) => conditionHolds(parseCondition(text), values);

  it("each comparison at its threshold and on either side", () => {
    expect([holds("result < 1", 0.9), holds("result < 1", 1), holds("result < 1", 1.1)]).toStrictEqual([true, false, false]);
    expect([holds("result <= 1", 0.9), holds("result <= 1", 1), holds("result <= 1", 1.1)]).toStrictEqual([true, true, false]);
    expect([holds("result > 1", 0.9), holds("result > 1", 1), holds("result > 1", 1.1)]).toStrictEqual([false, false, true]);
    expect([holds("result >= 1", 0.9), holds("result >= 1", 1), holds("result >= 1", 1.1)]).toStrictEqual([false, true, true]);
    expect([holds("result == 1", 0.9), holds("result == 1", 1), holds("result == 1", 1.1)]).toStrictEqual([false, true, false]);
    expect([holds("result != 1", 0.9), holds("result != 1", 1), holds("result != 1", 1.1)]).toStrictEqual([true, false, true]);
  });

  it("numbers written as Argo writes them: negative, with exponents, with or without digits around the point", () => {
    expect(holds("result > -0.5", -0.4)).toBe(true);
    expect(holds("result < 1e-3", 0.0005)).toBe(true);
    expect(holds("result < 2E+1", 19)).toBe(true);
    expect(holds("result > .5", 0.6)).toBe(true);
    expect(holds("result < 5.", 4.9)).toBe(true);
    expect(holds("  result<0.05  ", 0.01)).toBe(true);
  });

  it("a sample that is not a number never meets a comparison, even !=", () => {
    expect(holds("result != 1", Number.NaN)).toBe(false);
    expect(holds("result[0] < 1", Number.NaN, 0.5)).toBe(false);
  });

  it("result[0] judges the first sample alone, result every one", () => {
    expect(holds("result[0] < 1", 0.5, 5)).toBe(true);
    expect(holds("result < 1", 0.5, 5)).toBe(false);
    expect(holds("result[0] < 1", 5, 0.5)).toBe(false);
  });

  it("&& needs every comparison, || any alternative", () => {
    expect(holds("result > 0 && result < 1", 0.5)).toBe(true);
    expect(holds("result > 0 && result < 1", 1.5)).toBe(false);
    expect(holds("result < 0 || result > 1", 1.5)).toBe(true);
    expect(holds("result < 0 || result > 1", 0.5)).toBe(false);
  });

  it("at most 500 characters", () => {
    expect(() => parseCondition(`result < 1${" ".repeat(490)}`)).not.toThrow();
    expect(() => parseCondition(`result < 1${" ".repeat(491)}`)).toThrow("must be at most 500 characters");
  });
});

describe("queries per member", () => {
  it("a query with a placeholder is evaluated per member; one without, once", () => {
    expect(queryIsPerMember('err{cluster="{{member.name}}"}')).toBe(true);
    expect(queryIsPerMember('err{team="{{ member.labels.team }}"}')).toBe(true);
    expect(queryIsPerMember("sum(err)")).toBe(false);
    expect(queryIsPerMember('err{cluster="{member.name}"}')).toBe(false);
  });

  it("rendered for no member, every placeholder is empty", () => {
    expect(renderQuery('err{cluster="{{member.name}}", team="{{member.labels.team}}"}', undefined)).toBe('err{cluster="", team=""}');
    expect(renderQuery("sum(err)", { name: "c1" })).toBe("sum(err)");
  });
});

describe("Argo's defaults, and a healthCheck as the template it is short for", () => {
  it("a template with nothing but its provider and condition", () => {
    expect(resolvedTiming({ name: "t", provider: { web: { url: "https://x.example/" } } })).toStrictEqual({
      initialDelayMs: 0,
      intervalMs: 60_000,
      count: undefined,
      failureLimit: 0,
      inconclusiveLimit: 0,
      consecutiveErrorLimit: 4,
    });
  });

  it("settleSeconds is the delay, intervalSeconds the interval, retries + 1 probes of which retries may fail", () => {
    const template = healthCheckTemplate({ url: "https://c1.example/healthz", settleSeconds: 30, intervalSeconds: 15, retries: 2 });
    expect(template).toStrictEqual({ name: "health-check", provider: { web: { url: "https://c1.example/healthz" } }, initialDelay: "30s", interval: "15s", count: 3, failureLimit: 2 });
    expect(resolvedTiming(template)).toMatchObject({ initialDelayMs: 30_000, intervalMs: 15_000, count: 3, failureLimit: 2 });
  });
});

describe("stage uses the strategy lacks", () => {
  it("each named by its path, with the strategy's stages; none without an analysis", () => {
    const analysis = { templates: [{ name: "t", provider: { web: { url: "https://x.example/" } } }], stages: [{ name: "canary" }, { name: "prod" }, { name: "eu" }] };
    expect(unknownAnalysisStages(analysis, ["canary", "eu"])).toStrictEqual([{ path: "analysis.stages[1].name", message: "no stage named 'prod' in the run's strategy (its stages: canary, eu)" }]);
    expect(unknownAnalysisStages(undefined, ["canary"])).toStrictEqual([]);
    expect(unknownAnalysisStages({ templates: analysis.templates }, ["canary"])).toStrictEqual([]);
  });
});
