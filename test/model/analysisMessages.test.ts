/**
 * docs/rules.md §19 and docs/health-analysis.md: a run's `analysis` refused field by field, each wrong
 * value with the exact path and message a user reads, beside the values just inside each rule (which
 * must be accepted). Issue 34: most of these messages and boundaries could be changed without a test
 * failing.
 */
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/simulation/scenario";
import { expectValid, issuesOf, scenarioYaml, type Doc } from "./helpers";

/** The valid scenario with an analysis: a Prometheus template and a web one, used by both stages. */
function withAnalysis(s: Doc): Doc {
  s.analysis = {
    templates: [
      { name: "error-rate", provider: { prometheus: { address: "http://prometheus:9090", query: 'err{cluster="{{member.name}}"}' } }, successCondition: "result < 0.05" },
      { name: "probe", provider: { web: { url: "https://status.example/healthz" } } },
    ],
    afterMember: ["probe"],
    stages: [
      { name: "canary", preCheck: ["error-rate"], soak: ["error-rate"] },
      { name: "production", afterMember: ["error-rate"] },
    ],
  };
  return s.analysis;
}
const parse = (mutate: (analysis: Doc) => void) => () => parseScenario(scenarioYaml((s) => mutate(withAnalysis(s))));
const prom = (a: Doc): Doc => a.templates[0];
const web = (a: Doc): Doc => a.templates[1];
const P = "analysis.templates[0]";
const W = "analysis.templates[1]";
const DURATION_RULE = "must be a duration such as 30s, 5m or 1h30m (units ms, s, m, h)";
const HEADER_RULE = "must be an HTTP header name such as X-Scope-OrgID";

type Case = [what: string, mutate: (a: Doc) => void, path: string, message: string];

function expectExactly(cases: Case[]) {
  it.each(cases)("%s", (_what, mutate, path, message) => {
    const issues = issuesOf(parse(mutate));
    expect(issues, issues.map((i) => `${i.path}: ${i.message}`).join("\n")).toContainEqual({ path, message });
  });
}

function expectAccepted(cases: Array<[what: string, mutate: (a: Doc) => void]>) {
  it.each(cases)("accepts %s", (_what, mutate) => {
    expectValid(parse(mutate));
  });
}

describe("the analysis as a whole", () => {
  it("accepts the valid analysis", () => {
    expect(expectValid(parse(() => {})).analysis?.templates.map((t) => t.name)).toEqual(["error-rate", "probe"]);
  });
  expectExactly([
    ["no templates", (a) => delete a.templates, "analysis.templates", "is required"],
    ["templates that are not a list", (a) => (a.templates = "error-rate"), "analysis.templates", "must be a list of templates"],
    ["an empty list of templates", (a) => (a.templates = []), "analysis.templates", "must declare at least one template"],
    ["21 templates", (a) => (a.templates = Array.from({ length: 21 }, (_, i) => ({ ...web(a), name: `t-${i}` }))), "analysis.templates", "at most 20 templates"],
    ["a template name used twice", (a) => (web(a).name = "error-rate"), `${W}.name`, "duplicate template name 'error-rate' (also templates[0])"],
    ["afterMember naming no template", (a) => (a.afterMember = ["probe", "prob"]), "analysis.afterMember[1]", "no template named 'prob' (templates: error-rate, probe)"],
    ["afterMember that is not a list", (a) => (a.afterMember = "probe"), "analysis.afterMember", "must be a list of template names"],
    ["afterMember naming 21 templates", (a) => (a.afterMember = Array.from({ length: 21 }, () => "probe")), "analysis.afterMember", "at most 20 templates"],
    ["stages that are not a list", (a) => (a.stages = { canary: {} }), "analysis.stages", "must be a list of stage uses"],
    ["a stage listed twice", (a) => a.stages.push({ name: "canary" }), "analysis.stages[2].name", "stage 'canary' is listed twice (also stages[0])"],
    ["a stage's preCheck naming no template", (a) => (a.stages[0].preCheck = ["errors"]), "analysis.stages[0].preCheck[0]", "no template named 'errors' (templates: error-rate, probe)"],
    ["a stage's soak naming no template", (a) => (a.stages[0].soak = ["error-rate", "errors"]), "analysis.stages[0].soak[1]", "no template named 'errors' (templates: error-rate, probe)"],
    ["a stage's afterMember naming no template", (a) => (a.stages[1].afterMember = ["errors"]), "analysis.stages[1].afterMember[0]", "no template named 'errors' (templates: error-rate, probe)"],
    ["a stage the strategy lacks", (a) => (a.stages[1].name = "prod"), "analysis.stages[1].name", "no stage named 'prod' in the run's strategy (its stages: canary, production)"],
    ["a stage use with an unknown field", (a) => (a.stages[0].afterStage = ["probe"]), "analysis.stages[0].afterStage", "unknown field"],
  ]);
  expectAccepted([
    ["20 templates", (a) => (a.templates = [...a.templates, ...Array.from({ length: 18 }, (_, i) => ({ ...web(a), name: `t-${i}` }))])],
    ["a stage's uses naming 20 templates", (a) => (a.stages[0].soak = Array.from({ length: 20 }, () => "error-rate"))],
    ["a stage listed with no uses", (a) => (a.stages[1] = { name: "production" })],
  ]);
});

describe("a template's provider", () => {
  expectExactly([
    ["both providers", (a) => (web(a).provider.prometheus = prom(a).provider.prometheus), `${W}.provider`, "set exactly one of web, prometheus"],
    ["no provider at all", (a) => (web(a).provider = {}), `${W}.provider`, "set exactly one of web, prometheus"],
    ["a web URL that is not http", (a) => (web(a).provider.web.url = "ftp://status.example/"), `${W}.provider.web.url`, "must be an http or https URL"],
    ["a web URL whose scheme only ends in https", (a) => (web(a).provider.web.url = "xhttps://status.example/"), `${W}.provider.web.url`, "must be an http or https URL"],
    ["a Prometheus address whose scheme only begins with http", (a) => (prom(a).provider.prometheus.address = "httpx://prometheus:9090"), `${P}.provider.prometheus.address`, "must be an http or https URL"],
    ["a web template without a URL", (a) => delete web(a).provider.web.url, `${W}.provider.web.url`, "is required"],
    ["a web template with a condition", (a) => (web(a).successCondition = "result < 1"), `${W}.successCondition`, "is taken by prometheus templates only: a web measurement is Successful on any 2xx answer"],
    ["a web template with a failure condition", (a) => (web(a).failureCondition = "result > 1"), `${W}.failureCondition`, "is taken by prometheus templates only: a web measurement is Successful on any 2xx answer"],
    ["a web template with noData", (a) => (web(a).noData = "Failed"), `${W}.noData`, "is taken by prometheus templates only: a web measurement is Successful on any 2xx answer"],
    ["a Prometheus address that is not a URL", (a) => (prom(a).provider.prometheus.address = "prometheus:9090"), `${P}.provider.prometheus.address`, "must be an http or https URL"],
    ["no query", (a) => delete prom(a).provider.prometheus.query, `${P}.provider.prometheus.query`, "is required"],
    ["a query that is a number", (a) => (prom(a).provider.prometheus.query = 7), `${P}.provider.prometheus.query`, "must be a PromQL query"],
    ["an empty query", (a) => (prom(a).provider.prometheus.query = ""), `${P}.provider.prometheus.query`, "must not be empty"],
    ["a query of 10001 characters", (a) => (prom(a).provider.prometheus.query = "x".repeat(10_001)), `${P}.provider.prometheus.query`, "must be at most 10000 characters"],
    ["an unknown placeholder", (a) => (prom(a).provider.prometheus.query = "x{c=\"{{ cluster }}\"}"), `${P}.provider.prometheus.query`, "unknown placeholder {{cluster}}: use {{member.name}} or {{member.labels.<key>}}"],
    ["a label placeholder ending with '.'", (a) => (prom(a).provider.prometheus.query = "x{c=\"{{member.labels.env.}}\"}"), `${P}.provider.prometheus.query`, "unknown placeholder {{member.labels.env.}}: use {{member.name}} or {{member.labels.<key>}}"],
    ["a placeholder with text before it", (a) => (prom(a).provider.prometheus.query = "x{c=\"{{my.member.name}}\"}"), `${P}.provider.prometheus.query`, "unknown placeholder {{my.member.name}}: use {{member.name}} or {{member.labels.<key>}}"],
    ["a placeholder with text after it", (a) => (prom(a).provider.prometheus.query = "x{c=\"{{member.names}}\"}"), `${P}.provider.prometheus.query`, "unknown placeholder {{member.names}}: use {{member.name}} or {{member.labels.<key>}}"],
    ["an empty token scope", (a) => (prom(a).provider.prometheus.authentication = { azureIdentity: { scope: "" } }), `${P}.provider.prometheus.authentication.azureIdentity.scope`, "must not be empty"],
    ["a token scope that is a number", (a) => (prom(a).provider.prometheus.authentication = { azureIdentity: { scope: 1 } }), `${P}.provider.prometheus.authentication.azureIdentity.scope`, "must be a token scope"],
    ["a Prometheus template without a condition", (a) => delete prom(a).successCondition, `${P}.successCondition`, "is required for a prometheus template (or give failureCondition), e.g. result < 0.05"],
  ]);
  expectAccepted([
    ["an http web URL", (a) => (web(a).provider.web.url = "http://status.example/")],
    ["a Prometheus template with a failure condition only", (a) => {
      delete prom(a).successCondition;
      prom(a).failureCondition = "result >= 0.05";
    }],
    ["a query of 10000 characters", (a) => (prom(a).provider.prometheus.query = "x".repeat(10_000))],
    ["label placeholders with spaces, dots and dashes", (a) => (prom(a).provider.prometheus.query = 'x{a="{{ member.labels.env }}", b="{{member.labels.team.io/x-y_z}}", c="{{member.labels.k}}"}')],
    ["Azure identity with its default scope", (a) => (prom(a).provider.prometheus.authentication = { azureIdentity: {} })],
  ]);
});

describe("headers and timeouts", () => {
  expectExactly([
    ["headers that are not a list", (a) => (web(a).provider.web.headers = { Authorization: "x" }), `${W}.provider.web.headers`, "must be a list of {key, value}"],
    ["21 headers", (a) => (web(a).provider.web.headers = Array.from({ length: 21 }, (_, i) => ({ key: `X-${i}`, value: "v" }))), `${W}.provider.web.headers`, "at most 20 headers"],
    ["a header name with a space", (a) => (web(a).provider.web.headers = [{ key: "X Org", value: "1" }]), `${W}.provider.web.headers[0].key`, HEADER_RULE],
    ["an empty header name", (a) => (prom(a).provider.prometheus.headers = [{ key: "", value: "1" }]), `${P}.provider.prometheus.headers[0].key`, HEADER_RULE],
    ["a header name of 101 characters", (a) => (web(a).provider.web.headers = [{ key: "X".repeat(101), value: "1" }]), `${W}.provider.web.headers[0].key`, HEADER_RULE],
    ["a header without a name", (a) => (web(a).provider.web.headers = [{ value: "1" }]), `${W}.provider.web.headers[0].key`, "is required"],
    ["a header name that is a number", (a) => (web(a).provider.web.headers = [{ key: 1, value: "1" }]), `${W}.provider.web.headers[0].key`, "must be a header name"],
    ["a header value that is a number", (a) => (web(a).provider.web.headers = [{ key: "X-Org", value: 1 }]), `${W}.provider.web.headers[0].value`, "must be a string"],
    ["a header value of 8193 characters", (a) => (web(a).provider.web.headers = [{ key: "X-Org", value: "v".repeat(8_193) }]), `${W}.provider.web.headers[0].value`, "must be at most 8192 characters"],
    ["a timeout as text", (a) => (web(a).provider.web.timeoutSeconds = "10"), `${W}.provider.web.timeoutSeconds`, "must be a number of seconds"],
    ["a timeout of 1.5 s", (a) => (prom(a).provider.prometheus.timeoutSeconds = 1.5), `${P}.provider.prometheus.timeoutSeconds`, "must be a whole number of seconds"],
    ["a timeout of 0 s", (a) => (web(a).provider.web.timeoutSeconds = 0), `${W}.provider.web.timeoutSeconds`, "must be at least 1"],
    ["a timeout of 301 s", (a) => (web(a).provider.web.timeoutSeconds = 301), `${W}.provider.web.timeoutSeconds`, "must be at most 300"],
  ]);
  expectAccepted([
    ["20 headers", (a) => (web(a).provider.web.headers = Array.from({ length: 20 }, (_, i) => ({ key: `X-${i}`, value: "v" })))],
    ["header names of 1 and 100 token characters", (a) => (prom(a).provider.prometheus.headers = [{ key: "X", value: "" }, { key: `${"!#$%&'*+.^_`|~-".repeat(6)}aZ09`.slice(0, 100), value: "v".repeat(8_192) }])],
    ["timeouts of 1 and 300 s", (a) => {
      web(a).provider.web.timeoutSeconds = 1;
      prom(a).provider.prometheus.timeoutSeconds = 300;
    }],
  ]);
});

describe("timing, limits and conditions", () => {
  expectExactly([
    ["a duration in words", (a) => (web(a).initialDelay = "5 minutes"), `${W}.initialDelay`, DURATION_RULE],
    ["a duration with no unit", (a) => (web(a).initialDelay = "30"), `${W}.initialDelay`, DURATION_RULE],
    ["a duration with text after it", (a) => (web(a).interval = "30sx"), `${W}.interval`, DURATION_RULE],
    ["a duration with text before it", (a) => (web(a).interval = "x30s"), `${W}.interval`, DURATION_RULE],
    ["a duration that is a number", (a) => (web(a).initialDelay = 30), `${W}.initialDelay`, "must be a duration such as 30s, 5m or 1h30m"],
    ["a delay over a week", (a) => (web(a).initialDelay = "167h60m1s"), `${W}.initialDelay`, "must be at most a week (168h)"],
    ["an interval under a second", (a) => (web(a).interval = "999ms"), `${W}.interval`, "must be at least 1s"],
    ["an interval over a week", (a) => (web(a).interval = "169h"), `${W}.interval`, "must be at most a week (168h)"],
    ["a count as text", (a) => (web(a).count = "3"), `${W}.count`, "must be a number"],
    ["a count of 1.5", (a) => (web(a).count = 1.5), `${W}.count`, "must be a whole number"],
    ["a count of 0", (a) => (web(a).count = 0), `${W}.count`, "must be at least 1"],
    ["a count of 1001", (a) => (web(a).count = 1001), `${W}.count`, "must be at most 1000"],
    ["a failureLimit as text", (a) => (web(a).failureLimit = "1"), `${W}.failureLimit`, "must be a number"],
    ["a failureLimit of 0.5", (a) => (web(a).failureLimit = 0.5), `${W}.failureLimit`, "must be a whole number"],
    ["a failureLimit of -1", (a) => (web(a).failureLimit = -1), `${W}.failureLimit`, "must not be negative"],
    ["an inconclusiveLimit as text", (a) => (prom(a).inconclusiveLimit = "1"), `${P}.inconclusiveLimit`, "must be a number"],
    ["an inconclusiveLimit of 0.5", (a) => (prom(a).inconclusiveLimit = 0.5), `${P}.inconclusiveLimit`, "must be a whole number"],
    ["an inconclusiveLimit of -1", (a) => (prom(a).inconclusiveLimit = -1), `${P}.inconclusiveLimit`, "must not be negative"],
    ["a consecutiveErrorLimit as text", (a) => (prom(a).consecutiveErrorLimit = "1"), `${P}.consecutiveErrorLimit`, "must be a number"],
    ["a consecutiveErrorLimit of 0.5", (a) => (prom(a).consecutiveErrorLimit = 0.5), `${P}.consecutiveErrorLimit`, "must be a whole number"],
    ["a consecutiveErrorLimit of -1", (a) => (prom(a).consecutiveErrorLimit = -1), `${P}.consecutiveErrorLimit`, "must not be negative"],
    ["a condition that is a number", (a) => (prom(a).successCondition = 0.05), `${P}.successCondition`, "must be a condition such as result < 0.05"],
    ["a condition of 501 characters", (a) => (prom(a).failureCondition = `result > 1${" ".repeat(491)}`), `${P}.failureCondition`, "must be at most 500 characters"],
    ["a condition over another name", (a) => (prom(a).successCondition = "value < 1"), `${P}.successCondition`, "'value < 1' is not a comparison: write result < 0.05 (every sample) or result[0] >= 0.95 (the first), joined by && or ||"],
    ["a condition on the second sample", (a) => (prom(a).successCondition = "result[1] < 1"), `${P}.successCondition`, "'result[1] < 1' is not a comparison: write result < 0.05 (every sample) or result[0] >= 0.95 (the first), joined by && or ||"],
    ["a condition with text after the number", (a) => (prom(a).successCondition = "result < 1 or result > 2"), `${P}.successCondition`, "'result < 1 or result > 2' is not a comparison: write result < 0.05 (every sample) or result[0] >= 0.95 (the first), joined by && or ||"],
    ["a condition with text before it", (a) => (prom(a).successCondition = "not result < 1"), `${P}.successCondition`, "'not result < 1' is not a comparison: write result < 0.05 (every sample) or result[0] >= 0.95 (the first), joined by && or ||"],
    ["an empty side of ||", (a) => (prom(a).successCondition = "result < 1 ||"), `${P}.successCondition`, "'' is not a comparison: write result < 0.05 (every sample) or result[0] >= 0.95 (the first), joined by && or ||"],
    ["a wrong comparison among others, shown without the spaces around it", (a) => (prom(a).failureCondition = "result > 1 &&  value < 2 "), `${P}.failureCondition`, "'value < 2' is not a comparison: write result < 0.05 (every sample) or result[0] >= 0.95 (the first), joined by && or ||"],
    ["noData that is not a phase", (a) => (prom(a).noData = "Error"), `${P}.noData`, "must be Successful, Failed or Inconclusive"],
  ]);
  expectAccepted([
    ["durations of every unit, summed", (a) => {
      web(a).initialDelay = "1h30m15s500ms";
      web(a).interval = "1s";
    }],
    ["a delay and an interval of exactly a week", (a) => {
      web(a).initialDelay = "167h60m";
      web(a).interval = "168h";
    }],
    ["counts of 1 and 1000, limits of 0", (a) => {
      web(a).count = 1;
      prom(a).count = 1000;
      prom(a).failureLimit = 0;
      prom(a).inconclusiveLimit = 0;
      prom(a).consecutiveErrorLimit = 0;
    }],
    ["a condition of 500 characters, every operator and number form", (a) => {
      prom(a).successCondition = "result < 1 && result <= 1.5 && result > -2 && result >= .5 || result[0] == 1e3 || result != 2E-1 || result < 10 && result > .25 && result != 1e10";
      prom(a).failureCondition = `result > 1${" ".repeat(490)}`;
    }],
    ["noData of each phase it takes", (a) => {
      prom(a).noData = "Successful";
      a.templates.push({ ...prom(a), name: "b", noData: "Failed" }, { ...prom(a), name: "c", noData: "Inconclusive" });
    }],
  ]);
});
