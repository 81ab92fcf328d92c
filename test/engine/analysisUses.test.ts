/**
 * docs/rules.md §19: where a run's analyses are used and what each use measures — a stage's pre-check
 * and soak (several templates at once), afterMember from the run and from a stage, a member's
 * healthCheck beside them, member labels in queries — and what a run says when an analysis cannot be
 * measured at all. On the simulated fleet's declared metrics, on the virtual clock. Issue 34: these
 * could be broken without a test failing.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import type { ClusterBackend } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { runAnalysis } from "../../src/engine/plan";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { parseScenario, resolveScenarioStrategy } from "../../src/simulation/scenario";
import type { RunEvent } from "../../src/model/status";
import { runScenario } from "../../src/simulation/simulateScenario";
import { IMAGE, Outcome, START, simulate } from "./helpers";

const T = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");

interface Cluster {
  name: string;
  group: string;
  /** err before and after its upgrade. */
  err?: [number, number];
  /** lat before and after its upgrade. */
  lat?: [number, number];
  labels?: Record<string, string>;
  healthCheck?: string;
}

/** A cluster of westeurope, upgraded (control plane) in 10 minutes, with its simulated metrics. */
function cluster(c: Cluster): string {
  const [err, errAfter] = c.err ?? [0.01, 0.01];
  const [lat, latAfter] = c.lat ?? [1, 1];
  const labels = c.labels === undefined ? "" : `labels: {${Object.entries(c.labels).map(([k, v]) => `${k}: ${v}`).join(", ")}}, `;
  const check = c.healthCheck === undefined ? "" : `healthCheck: ${c.healthCheck}, `;
  return (
    `  - {name: ${c.name}, group: ${c.group}, ${labels}${check}region: westeurope, kubernetesVersion: 1.31.2, ` +
    `nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${IMAGE.OCT}}], ` +
    `simulation: {metrics: [{name: err, value: ${err}, afterUpgrade: ${errAfter}}, {name: lat, value: ${lat}, afterUpgrade: ${latAfter}}]}}`
  );
}

const ERR = `{name: err, provider: {prometheus: {address: "http://prometheus:9090", query: 'err{cluster="{{member.name}}"}'}}, interval: 5m, successCondition: result < 0.05}`;
const LAT = (more = "") => `{name: lat, provider: {prometheus: {address: "http://prometheus:9090", query: 'lat{cluster="{{member.name}}"}'}}, interval: 5m, successCondition: result < 2${more}}`;

/** Two stages, canary (group canary, a 10-minute wait) then rest (group rest). */
function rollout(clusters: Cluster[], analysis: string[], actions: string[] = []): string {
  return [
    `start: ${START}`,
    "regions:",
    "  westeurope:",
    "    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]",
    `    nodeImages: [{version: ${IMAGE.OCT}}]`,
    "members:",
    ...clusters.map(cluster),
    "strategy: {stages: [{name: canary, groups: [{name: canary}], afterStageWaitInSeconds: 600}, {name: rest, groups: [{name: rest}]}]}",
    "managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}",
    "analysis:",
    ...analysis.map((line) => `  ${line}`),
    ...(actions.length === 0 ? [] : ["actions:", ...actions.map((a) => `  - ${a}`)]),
  ].join("\n");
}

/** A scenario's run on the simulated fleet and the virtual clock, started at the scenario's start. */
function startedRun(text: string, options?: Parameters<typeof UpdateRunEngine.create>[2]) {
  const parsed = parseScenario(text);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const engine = UpdateRunEngine.create({ name: "run", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed), analysis: parsed.analysis! }, fleet, options);
  engine.start(clock.now());
  return { parsed, clock, fleet, engine };
}

const soakOf = (o: Outcome, stage: string, template: string) => o.stage(stage).analysisRuns?.find((a) => a.kind === "soak" && a.template === template);

describe("a stage's soak with several templates", () => {
  const uses = ["stages:", "  - {name: canary, soak: [err, lat]}"];

  it("holds the stage until every one has passed: the longest decides when the next stage starts", async () => {
    // c1 is upgraded 00:00–00:10; the wait runs 00:10–00:20: err takes 3 measurements (00:10, 00:15,
    // 00:20), lat its count of 4 (to 00:25).
    const o = await simulate(rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }], ["templates:", `  - ${ERR}`, `  - ${LAT(", count: 4")}`, ...uses]));
    expect(soakOf(o, "canary", "err")).toMatchObject({ phase: "Successful", count: 3, finishedAt: T(20) });
    expect(soakOf(o, "canary", "lat")).toMatchObject({ phase: "Successful", count: 4, finishedAt: T(25) });
    expect(o.stage("canary").status).toMatchObject({ state: "Completed", completedTime: T(25) });
    expect(o.opStarts("c2")).toStrictEqual([T(25)]);
  });

  it("one failing fails the stage and halts the run, though another passes: the members never reached say the run failed", async () => {
    const o = await simulate(rollout([{ name: "c1", group: "canary", lat: [1, 5] }, { name: "c2", group: "rest" }], ["templates:", `  - ${ERR}`, `  - ${LAT()}`, ...uses]));
    expect(o.run).toMatchObject({ state: "Failed", completedTime: T(10) });
    expect(o.stage("canary").status).toMatchObject({
      state: "Failed",
      error: { code: "AnalysisFailed", message: `Soak of stage 'canary': Analysis 'lat' failed: lat{cluster="c1"} = 5 for member c1, not result < 2 (1 failed of 1, failureLimit 0).` },
    });
    expect(o.transitions("analysis", "canary/soak/lat")).toStrictEqual([`${T(10)} NotStarted->Running`, `${T(10)} Running->Failed`]);
    expect(o.ops("c2")).toStrictEqual([]);
    expect(o.member("c2").message).toBe("Not started: the run failed before this member was reached.");
  });

  it("each analysis's start says what it measures, from when, and how many times", async () => {
    const o = await simulate(rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }], ["templates:", `  - ${ERR}`, `  - ${LAT(", count: 1, initialDelay: 2m")}`, ...uses]));
    expect(o.eventsOf("analysis", "canary/soak/err")[0]).toMatchObject({ time: T(10), from: "NotStarted", to: "Running", message: `Measuring err{cluster="{{member.name}}"} from ${T(10)}, 3 measurements.` });
    expect(o.eventsOf("analysis", "canary/soak/lat")[0]).toMatchObject({ time: T(10), message: `Measuring lat{cluster="{{member.name}}"} from ${T(12)}, 1 measurement.` });
  });
});

describe("a stage's pre-check", () => {
  it("a failure names the pre-check and its stage, and nothing of the stage starts", async () => {
    const o = await simulate(rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest", err: [0.2, 0.2] }], ["templates:", `  - ${ERR}`, "stages:", "  - {name: rest, preCheck: [err]}"]));
    expect(o.stage("rest").status).toMatchObject({
      state: "Failed",
      error: { code: "PreCheckFailed", message: `Pre-check of stage 'rest': Analysis 'err' failed: err{cluster="c2"} = 0.2 for member c2, not result < 0.05 (1 failed of 1, failureLimit 0).` },
    });
    expect(o.ops("c2")).toStrictEqual([]);
    expect(o.group("rest").status).toStrictEqual({ state: "NotStarted" });
  });

  it("with several templates, the members start only once every one has passed", async () => {
    // The stage rest is reached at 00:20 (c1 00:00–00:10, then the wait): err passes at once, lat
    // takes its second measurement at 00:25.
    const o = await simulate(rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }], ["templates:", `  - ${ERR}`, `  - ${LAT(", count: 2")}`, "stages:", "  - {name: rest, preCheck: [err, lat]}"]));
    expect(o.stage("rest").analysisRuns?.map((a) => [a.template, a.phase, a.finishedAt])).toStrictEqual([
      ["err", "Successful", T(20)],
      ["lat", "Successful", T(25)],
    ]);
    expect(o.opStarts("c2")).toStrictEqual([T(25)]);
  });

  it("one failing while another is still measuring halts the run at once: the run fails then, the other is left as it was", async () => {
    const o = await simulate(
      rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest", err: [0.2, 0.2] }, { name: "c3", group: "rest" }], ["templates:", `  - ${ERR}`, `  - ${LAT(", count: 2")}`, "stages:", "  - {name: rest, preCheck: [err, lat]}"]),
    );
    expect(o.stage("rest").analysisRuns?.map((a) => [a.template, a.phase])).toStrictEqual([
      ["err", "Failed"],
      ["lat", "Running"],
    ]);
    expect(o.transitions("run", "scenario")).toStrictEqual([`${T(0)} NotStarted->Running`, `${T(20)} Running->Failed`]);
    expect(o.ops("c2")).toStrictEqual([]);
    expect(o.member("c3").message).toBe("Not started: the run failed before this member was reached.");
    // The engine has nothing left to do from that instant: it does not wake for lat's next measurement.
    const { clock, engine } = startedRun(rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest", err: [0.2, 0.2] }, { name: "c3", group: "rest" }], ["templates:", `  - ${ERR}`, `  - ${LAT(", count: 2")}`, "stages:", "  - {name: rest, preCheck: [err, lat]}"]));
    const passes: string[] = [];
    for (let wake: number | undefined = clock.now(); wake !== undefined; wake = (await engine.reconcile(clock.now())).nextWakeAt) {
      await clock.sleepUntil(wake);
      passes.push(new Date(clock.now()).toISOString().replace(/\.000Z$/, "Z"));
    }
    expect(passes.at(-1)).toBe(T(20));
  });

  it("every member left skipped while it measures: it ends Successful, saying so, and the run goes on", async () => {
    // rest is reached at 00:20; lat measures at 00:20 and would again at 00:25, but c2 and c3 are skipped at 00:22.
    const o = await simulate(
      rollout(
        [{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }, { name: "c3", group: "rest" }],
        ["templates:", `  - ${ERR}`, `  - ${LAT(", count: 3")}`, "stages:", "  - {name: rest, preCheck: [err, lat]}"],
        [`{at: ${T(22)}, skip: [{type: Member, name: c2}, {type: Member, name: c3}]}`],
      ),
    );
    expect(o.stage("rest").analysisRuns?.map((a) => [a.template, a.phase, a.finishedAt, a.measurements.length, a.message])).toStrictEqual([
      ["err", "Successful", T(20), 1, 'err{cluster="c2"} = 0.01 for member c2, result < 0.05'],
      ["lat", "Successful", T(22), 1, "Nothing left to measure: every member of stage 'rest' was skipped."],
    ]);
    expect(o.eventsOf("analysis", "rest/preCheck/lat").map((e) => `${e.time} ${e.from}->${e.to}`)).toStrictEqual([`${T(20)} NotStarted->Running`, `${T(20)} Running->Running`, `${T(22)} Running->Completed`]);
    expect(o.ops("c2")).toStrictEqual([]);
    expect(o.run.state).toBe("Completed");
  });

  it("a web template over the stage's members asks once, for no member in particular", async () => {
    const up = "{name: up, provider: {web: {url: 'https://status.example/up'}}}";
    const o = await simulate(rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }, { name: "c3", group: "rest" }], ["templates:", `  - ${up}`, "stages:", "  - {name: rest, preCheck: [up]}"]));
    expect(o.stage("rest").analysisRuns?.[0]?.measurements).toStrictEqual([
      { measuredAt: T(20), phase: "Successful", value: 200, query: "https://status.example/up", message: "GET https://status.example/up answered 200 (simulated)" },
    ]);
    expect(o.run.state).toBe("Completed");
  });

  it("measures only the members about to be upgraded: one the user skipped is not measured", async () => {
    const o = await simulate(
      rollout(
        [{ name: "c1", group: "canary" }, { name: "c2", group: "rest", err: [0.2, 0.2] }, { name: "c3", group: "rest" }],
        ["templates:", `  - ${ERR}`, "stages:", "  - {name: rest, preCheck: [err]}"],
        [`{at: ${START}, skip: [{type: Member, name: c2}]}`],
      ),
    );
    expect(o.stage("rest").analysisRuns?.[0]?.measurements.map((m) => m.query)).toStrictEqual(['err{cluster="c3"}']);
    expect(o.run.state).toBe("Completed");
  });
});

describe("afterMember from the run and from a stage", () => {
  it("a stage's afterMember applies to its own members only; a template named by both is measured once", async () => {
    const o = await simulate(
      rollout(
        [{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }],
        ["templates:", `  - ${ERR}`, `  - ${LAT()}`, "afterMember: [err]", "stages:", "  - {name: rest, afterMember: [lat, err]}"],
      ),
    );
    expect(o.member("c1").analysisRuns?.map((a) => a.template)).toStrictEqual(["err"]);
    expect(o.member("c2").analysisRuns?.map((a) => a.template)).toStrictEqual(["err", "lat"]);
    expect(o.run.state).toBe("Completed");
  });

  it("an analysis with no stage uses: afterMember alone is measured, every stage goes on", async () => {
    const o = await simulate(rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest", err: [0.01, 0.3] }], ["templates:", `  - ${ERR}`, "afterMember: [err]"]));
    expect(o.member("c1").analysisRuns?.[0]).toMatchObject({ kind: "afterMember", phase: "Successful" });
    expect(o.member("c2").status).toMatchObject({ state: "Failed", error: { code: "AnalysisFailed" } });
    expect(o.stage("canary").analysisRuns ?? []).toStrictEqual([]);
  });

  it("a member's healthCheck and a declared template are each measured by their own template", async () => {
    const o = await simulate(
      rollout(
        [{ name: "c1", group: "canary", healthCheck: "{url: 'https://c1.example/healthz', settleSeconds: 0, intervalSeconds: 60, retries: 0}" }, { name: "c2", group: "rest" }],
        ["templates:", `  - ${ERR}`, "afterMember: [err]"],
      ),
    );
    const runs = o.member("c1").analysisRuns ?? [];
    expect(runs.map((a) => [a.template, a.provider, a.query])).toStrictEqual([
      ["health-check", "web", "https://c1.example/healthz"],
      ["err", "prometheus", 'err{cluster="{{member.name}}"}'],
    ]);
    expect(runs[1]?.measurements[0]).toMatchObject({ query: 'err{cluster="c1"}', value: 0.01 });
    expect(o.member("c2").analysisRuns?.map((a) => a.template)).toStrictEqual(["err"]);
  });

  it("a member whose probe passes but whose declared template fails fails as an analysis, not as a health check", async () => {
    const healthCheck = "{url: 'https://c1.example/healthz', settleSeconds: 0, intervalSeconds: 60, retries: 0}";
    const o = await simulate(rollout([{ name: "c1", group: "canary", healthCheck, err: [0.01, 0.2] }, { name: "c2", group: "rest" }], ["templates:", `  - ${ERR}`, "afterMember: [err]"]));
    expect(o.member("c1").status).toMatchObject({ state: "Failed", error: { code: "AnalysisFailed" } });
    expect(o.member("c1").message).toBe(`Analysis 'err' failed: err{cluster="c1"} = 0.2 for member c1, not result < 0.05 (1 failed of 1, failureLimit 0).`);
  });

  it("a declared template named health-check is measured for members without a healthCheck of their own, and in a stage's soak", async () => {
    const named = "{name: health-check, provider: {web: {url: 'https://status.example/declared'}}}";
    const o = await simulate(
      rollout(
        [{ name: "c1", group: "canary", healthCheck: "{url: 'https://c1.example/healthz', settleSeconds: 0, intervalSeconds: 60, retries: 0}" }, { name: "c2", group: "rest" }],
        ["templates:", `  - ${named}`, "afterMember: [health-check]", "stages:", "  - {name: canary, soak: [health-check]}"],
      ),
    );
    // c1's own healthCheck is its health-check; c2 takes the declared one.
    expect(o.member("c1").analysisRuns?.map((a) => a.query)).toStrictEqual(["https://c1.example/healthz"]);
    expect(o.member("c2").analysisRuns?.map((a) => [a.query, a.phase])).toStrictEqual([["https://status.example/declared", "Successful"]]);
    expect(soakOf(o, "canary", "health-check")).toMatchObject({ query: "https://status.example/declared", phase: "Successful" });
    expect(o.run.state).toBe("Completed");
  });

  it("a declared template named health-check, for a member without a healthCheck: it says and fails as any analysis, not as a probe", async () => {
    const named = "{name: health-check, provider: {web: {url: 'https://status.example/declared'}}, interval: 1m, count: 2, failureLimit: 1}";
    const probe = async (_m: unknown, url: string) => ({ ok: false, detail: `GET ${url} answered 503` });
    const { clock, engine } = startedRun(rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }], ["templates:", `  - ${named}`, "afterMember: [health-check]"]), { probe });
    await drive(engine, clock, { until: Date.parse(T(10)) + 30_000 });
    const c1 = () => engine.status().stages[0]!.groups[0]!.members[0]!;
    expect(c1().message).toBe(`Upgrade done; analysing, next measurement at ${T(11)}. Last: 'health-check' Failed: GET https://status.example/declared answered 503.`);
    await drive(engine, clock);
    expect(c1().status).toMatchObject({ state: "Failed", completedTime: T(11), error: { code: "AnalysisFailed" } });
    expect(c1().message).toMatch(/^Analysis 'health-check' failed: /);
  });

  it("a query naming a member's labels is filled with that member's labels", async () => {
    const query = `{name: team, provider: {prometheus: {address: "http://prometheus:9090", query: 'err{cluster="{{member.name}}", team="{{member.labels.team}}"}'}}, successCondition: result < 1, noData: Successful}`;
    const o = await simulate(rollout([{ name: "c1", group: "canary", labels: { team: "blue" } }, { name: "c2", group: "rest" }], ["templates:", `  - ${query}`, "afterMember: [team]"]));
    expect(o.member("c1").analysisRuns?.[0]?.measurements[0]?.query).toBe('err{cluster="c1", team="blue"}');
    expect(o.member("c2").analysisRuns?.[0]?.measurements[0]?.query).toBe('err{cluster="c2", team=""}');
  });
});

describe("an analysis's events", () => {
  const line = (e: { time: string; from: string; to: string; message?: string; measurement?: { phase: string } }) => `${e.time} ${e.from}->${e.to} ${e.measurement?.phase ?? "-"} ${e.message ?? ""}`;

  it("its start, each measurement (the last one ending it, Successful as Completed), and a start again after it failed", async () => {
    const o = await simulate(rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }], ["templates:", `  - ${ERR}`, "stages:", "  - {name: canary, soak: [err]}"]));
    expect(o.eventsOf("analysis", "canary/soak/err").map(line)).toStrictEqual([
      `${T(10)} NotStarted->Running - Measuring err{cluster="{{member.name}}"} from ${T(10)}, 3 measurements.`,
      `${T(10)} Running->Running Successful err{cluster="c1"} = 0.01 for member c1, result < 0.05`,
      `${T(15)} Running->Running Successful err{cluster="c1"} = 0.01 for member c1, result < 0.05`,
      `${T(20)} Running->Completed Successful err{cluster="c1"} = 0.01 for member c1, result < 0.05`,
    ]);
  });

  it("Inconclusive and Error end it as Failed; a start after that sets it back to NotStarted, saying so, and measures it again", async () => {
    const missing = ERR.replace("err{", "missing{");
    const o = await simulate(rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }], ["templates:", `  - ${missing}`, "stages:", "  - {name: canary, soak: [err]}"], [`{at: ${T(60)}, start: true}`]));
    // Measured again after the wait it was to fill ended: once.
    expect(o.eventsOf("analysis", "canary/soak/err").map(line)).toStrictEqual([
      `${T(10)} NotStarted->Running - Measuring missing{cluster="{{member.name}}"} from ${T(10)}, 3 measurements.`,
      `${T(10)} Running->Failed Inconclusive missing{cluster="c1"} for member c1 returned no data (Inconclusive)`,
      `${T(60)} Failed->NotStarted - Started again: measuring from the beginning.`,
      `${T(60)} NotStarted->Running - Measuring missing{cluster="{{member.name}}"} from ${T(60)}, 1 measurement.`,
      `${T(60)} Running->Failed Inconclusive missing{cluster="c1"} for member c1 returned no data (Inconclusive)`,
    ]);
  });
});

describe("a start after a member failed its analysis", () => {
  it("checks its health again without upgrading it again: the member runs, its failed analysis is set back and measured anew", async () => {
    const o = await simulate(
      rollout([{ name: "c1", group: "canary", err: [0.01, 0.3] }, { name: "c2", group: "rest" }], ["templates:", `  - ${ERR}`, "afterMember: [err]"], [`{at: ${T(30)}, start: true}`]),
    );
    expect(o.ops("c1")).toHaveLength(1);
    expect(o.eventsOf("member", "c1").map((e) => `${e.time} ${e.from}->${e.to} ${e.message ?? ""}`)).toStrictEqual([
      `${T(0)} NotStarted->Running Upgrading the control plane to Kubernetes 1.32.0.`,
      `${T(10)} Running->Failed Analysis 'err' failed: err{cluster="c1"} = 0.3 for member c1, not result < 0.05 (1 failed of 1, failureLimit 0).`,
      `${T(30)} Failed->Running Checking the cluster's health again (its upgrade itself succeeded).`,
      `${T(30)} Running->Failed Analysis 'err' failed: err{cluster="c1"} = 0.3 for member c1, not result < 0.05 (1 failed of 1, failureLimit 0).`,
    ]);
    expect(o.transitions("analysis", "c1/afterMember/err")).toStrictEqual([
      `${T(10)} NotStarted->Running`,
      `${T(10)} Running->Failed`,
      `${T(30)} Failed->NotStarted`,
      `${T(30)} NotStarted->Running`,
      `${T(30)} Running->Failed`,
    ]);
  });
});

describe("what a member says while it is analysed", () => {
  it("the templates and the first instant, then the next measurement and the last one seen, latest first", async () => {
    const healthCheck = "{url: 'https://c1.example/healthz', settleSeconds: 0, intervalSeconds: 60, retries: 0}";
    const { clock, engine } = startedRun(
      rollout([{ name: "c1", group: "canary", healthCheck }, { name: "c2", group: "rest" }], ["templates:", `  - ${ERR.replace("interval: 5m", "interval: 5m, initialDelay: 1m, count: 3")}`, "afterMember: [err]"]),
    );
    const said = async (minutes: number) => {
      await clock.sleepUntil(Date.parse(T(minutes)));
      await engine.reconcile(clock.now());
      const c1 = engine.status().stages[0]!.groups[0]!.members[0]!;
      return `${c1.status.state}: ${c1.message}`;
    };
    expect(await said(0)).toBe("Running: Upgrading the control plane to Kubernetes 1.32.0.");
    expect(await said(10)).toBe(`Running: Upgrade done; analysis 'health-check', 'err' from ${T(10)}.`);
    // At 00:11 both are measured (the probe due at 00:10, err at 00:11): the first of equals is shown.
    expect(await said(11)).toBe(`Running: Upgrade done; analysing, next measurement at ${T(16)}. Last: 'health-check' Successful: GET https://c1.example/healthz answered 200 (simulated).`);
    expect(await said(16)).toBe(`Running: Upgrade done; analysing, next measurement at ${T(21)}. Last: 'err' Successful: err{cluster="c1"} = 0.01 for member c1, result < 0.05.`);
    expect(await said(21)).toBe("Completed: undefined");
  });

  it("names the analysis measured last, by each one's latest measurement (not an earlier one)", async () => {
    // From 00:10, err every minute (00:10, 00:11, 00:12, 00:13) and lat every 150 s (00:10, 00:12:30): at 00:13 err's
    // fourth measurement is the latest, though lat's last (00:12:30) came after err's second and third.
    const { clock, engine } = startedRun(
      rollout(
        [{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }],
        ["templates:", `  - ${ERR.replace("interval: 5m", "interval: 1m, count: 9")}`, `  - ${LAT(", count: 9").replace("interval: 5m", "interval: 150s")}`, "afterMember: [lat, err]"],
      ),
    );
    const said = async (minutes: number) => {
      await drive(engine, clock, { until: Date.parse(T(minutes)) });
      return engine.status().stages[0]!.groups[0]!.members[0]!.message;
    };
    const errSaid = `Last: 'err' Successful: err{cluster="c1"} = 0.01 for member c1, result < 0.05.`;
    expect(await said(12.5)).toBe(`Upgrade done; analysing, next measurement at ${T(13)}. Last: 'lat' Successful: lat{cluster="c1"} = 1 for member c1, result < 2.`);
    expect(await said(13)).toBe(`Upgrade done; analysing, next measurement at ${T(14)}. ${errSaid}`);
  });
});

describe("what a member resumed before its next measurement says (a journal from before checkAgainAt was kept: it is looked at at once)", () => {
  /** c1 (its healthCheck settling 2 minutes, beside `templates`) run to 00:10, resumed without its checkAgainAt, and looked at at 00:11. */
  async function resumedAt11(templates: string[]) {
    const healthCheck = "{url: 'https://c1.example/healthz', settleSeconds: 120, intervalSeconds: 60, retries: 0}";
    const { parsed, clock, fleet, engine: first } = startedRun(rollout([{ name: "c1", group: "canary", healthCheck }, { name: "c2", group: "rest" }], templates));
    await drive(first, clock, { until: Date.parse(T(10)) });
    const state = first.snapshot();
    const group = state.stages[0]!.groups[0]!;
    const { checkAgainAt: _dropped, ...c1 } = group.members[0]!;
    // A snapshot leaves the run's inputs out: the resumed run is given them again (as resumedWithUses below).
    const declaredAnalysis = runAnalysis(parsed.analysis!, parsed.members);
    const second = UpdateRunEngine.resume({ ...state, declaredAnalysis, stages: [{ ...state.stages[0]!, groups: [{ ...group, members: [c1] }] }, state.stages[1]!] }, fleet);
    await clock.sleepUntil(Date.parse(T(11)));
    await second.reconcile(clock.now());
    const said = second.status().stages[0]!.groups[0]!.members[0]!;
    await drive(second, clock);
    return { said: `${said.status.state}: ${said.message}`, end: second.status().stages[0]!.groups[0]!.members[0]!.status };
  }

  it("its probe alone, not yet taken: still settling", async () => {
    const { said, end } = await resumedAt11(["templates:", `  - ${ERR}`]);
    expect(said).toBe("Running: Upgrade done; probing https://c1.example/healthz after 120 s to settle.");
    expect(end).toMatchObject({ state: "Completed", completedTime: T(12) });
  });

  it("several analyses, none measured yet: the next instant, and no last measurement", async () => {
    const { said, end } = await resumedAt11(["templates:", `  - ${ERR.replace("interval: 5m", "interval: 5m, initialDelay: 3m, count: 1")}`, "afterMember: [err]"]);
    expect(said).toBe(`Running: Upgrade done; analysing, next measurement at ${T(12)}.`);
    expect(end).toMatchObject({ state: "Completed", completedTime: T(13) });
  });
});

/**
 * The rollout run by a first process until `minutes` after its start, then by a second resumed from
 * its snapshot and given the run's analysis with other stage uses (`stages`), to its end.
 */
async function resumedWithUses(text: string, minutes: number, stages: Array<{ name: string; preCheck?: string[]; soak?: string[] }>) {
  const parsed = parseScenario(text);
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const analysis = parsed.analysis!;
  const first = UpdateRunEngine.create({ name: "run", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed), analysis }, fleet);
  first.start(clock.now());
  await drive(first, clock, { until: Date.parse(T(minutes)) });
  const second = UpdateRunEngine.resume({ ...first.snapshot(), declaredAnalysis: runAnalysis({ ...analysis, stages }, parsed.members) }, fleet);
  await drive(second, clock);
  return { second, fleet };
}

describe("an analysis that cannot be measured", () => {
  it("a backend with no way to query or probe: each measurement is an Error saying so, and the analysis ends in Error", async () => {
    const parsed = parseScenario(
      rollout(
        [{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }],
        ["templates:", `  - ${ERR.replace("interval: 5m", "interval: 5m, consecutiveErrorLimit: 0")}`, "  - {name: up, provider: {web: {url: 'https://status.example/up'}}, consecutiveErrorLimit: 0}", "stages:", "  - {name: canary, preCheck: [err, up]}"],
      ),
    );
    const clock = new VirtualClock(Date.parse(parsed.start));
    const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
    const backend: ClusterBackend = {
      getCluster: (m) => fleet.getCluster(m),
      getRegionOffer: (region) => fleet.getRegionOffer(region),
      startUpgrade: (m, request) => fleet.startUpgrade(m, request),
      getOperation: (m, id) => fleet.getOperation(m, id),
      findStartedUpgrade: (m, request, since) => fleet.findStartedUpgrade(m, request, since),
    };
    const { result } = await runScenario(parsed, { backend, clock, clusters: () => fleet.snapshot().clusters });
    const [err, up] = result.status.stages[0]?.analysisRuns ?? [];
    expect(err?.measurements[0]).toMatchObject({
      phase: "Error",
      message: 'err{cluster="c1"} could not be measured: nothing can query Prometheus with this backend (run it where the runtime measures, or declare the simulated fleet\'s metrics)',
    });
    expect(up?.measurements[0]).toMatchObject({ phase: "Error", message: "https://status.example/up could not be measured: nothing can probe https://status.example/up with this backend" });
    expect(result.status.stages[0]?.status).toMatchObject({ state: "Failed", error: { code: "PreCheckFailed" } });
  });

  it("a resumed run whose inputs no longer declare a running analysis ends it in Error, saying so (it waited for it forever, waking at once)", async () => {
    const { clock, fleet, engine: first } = startedRun(rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }], ["templates:", `  - ${ERR}`, "stages:", "  - {name: canary, soak: [err]}"]));
    // Until the soak's second measurement is due (00:15): its first was taken at 00:10.
    await drive(first, clock, { until: Date.parse(T(12)) });
    expect(first.status().stages[0]?.analysisRuns?.[0]).toMatchObject({ phase: "Running", successful: 1 });
    // The next process is given the run without its analysis (snapshots never hold it).
    const events: RunEvent[] = [];
    const second = UpdateRunEngine.resume(first.snapshot(), fleet, { onEvent: (e) => events.push(e) });
    await drive(second, clock);
    expect(events.filter((e) => e.scope === "analysis").map((e) => `${e.time} ${e.name} ${e.from}->${e.to} ${e.message}`)).toStrictEqual([
      `${T(15)} canary/soak/err Running->Failed template 'err' is no longer declared in the run's analysis`,
    ]);
    const status = second.status();
    expect(status.stages[0]?.analysisRuns?.[0]).toMatchObject({ phase: "Error", finishedAt: T(15), message: "template 'err' is no longer declared in the run's analysis" });
    expect(status.stages[0]?.status.error?.message).toBe("Soak of stage 'canary': Analysis 'err' could not be measured: template 'err' is no longer declared in the run's analysis (0 errors in a row, consecutiveErrorLimit 0).");
    expect(status.status.state).toBe("Failed");
  });

  it("a resumed run whose inputs add a pre-check to a stage under way measures only the members it has not upgraded yet", async () => {
    // rest upgrades c2 (00:20–00:30), then c3, then c4 (one at a time); c2's error rate is high after its
    // upgrade. The next process, from the pass at 00:30 (c2 done, c3 started), is given a pre-check of rest.
    const text = rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest", err: [0.01, 0.3] }, { name: "c3", group: "rest" }, { name: "c4", group: "rest" }], ["templates:", `  - ${ERR}`]);
    const { second, fleet } = await resumedWithUses(text, 35, [{ name: "rest", preCheck: ["err"] }]);
    const pre = second.status().stages[1]?.analysisRuns?.[0];
    expect(pre).toMatchObject({ kind: "preCheck", phase: "Successful", startedAt: T(30), finishedAt: T(30) });
    expect(pre?.measurements.map((m) => m.message)).toStrictEqual(['err{cluster="c3"} = 0.01 for member c3, result < 0.05']);
    expect(second.status().status.state).toBe("Completed");
    expect(fleet.operationLog().map((op) => op.member)).toStrictEqual(["c1", "c2", "c3", "c4"]);
  });

  it("a resumed run whose inputs add a template to a soak under way starts it at the resumed pass, beside the one under way", async () => {
    const text = rollout([{ name: "c1", group: "canary" }, { name: "c2", group: "rest" }], ["templates:", `  - ${ERR}`, `  - ${LAT(", count: 1")}`, "stages:", "  - {name: canary, soak: [err]}"]);
    const { second } = await resumedWithUses(text, 12, [{ name: "canary", soak: ["err", "lat"] }]);
    const soaks = second.status().stages[0]?.analysisRuns?.filter((a) => a.kind === "soak").map((a) => [a.template, a.phase, a.startedAt]);
    // The first process stopped at 00:10, its soak's first measurement taken; the next pass is at 00:10.
    expect(soaks).toStrictEqual([
      ["err", "Successful", T(10)],
      ["lat", "Successful", T(10)],
    ]);
    expect(second.status().status.state).toBe("Completed");
  });
});
