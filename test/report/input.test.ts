/** What `fleet-update report` reads: simulate results, stack outputs, bare trees; errors name field paths. */
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/engine/summary";
import { ValidationError } from "../../src/model/issues";
import type { UpdateRunStatus } from "../../src/model/status";
import { readReportRuns } from "../../src/report";
import { EXAMPLE_SCENARIOS, simulateJson, type StatusJson } from "./fixtures";

const STAGED = `${EXAMPLE_SCENARIOS}/02-staged-parallel.yaml`;

function issuesOf(input: unknown): string[] {
  try {
    readReportRuns(input);
  } catch (e) {
    if (e instanceof ValidationError) return e.issues.map((i) => `${i.path}: ${i.message}`);
    throw e;
  }
  throw new Error("expected a ValidationError");
}

describe("readReportRuns", () => {
  it("reads a simulate --json result: the run's name from its events, the summary computed", async () => {
    const result = await simulateJson(STAGED);
    const [run, ...more] = readReportRuns(result);
    expect(more).toEqual([]);
    expect(run!.name).toBe("scenario");
    expect(run!.events).toHaveLength(result.events.length);
    expect(run!.summary).toEqual(summarize(result.status as UpdateRunStatus));
    expect(run!.summary.members.Completed).toBe(4);
  });

  it("reads `pulumi stack output --json` of one run, using its summary output as given", async () => {
    const { status } = await simulateJson(STAGED);
    const summary = { ...summarize(status as UpdateRunStatus), outcome: "Succeeded-as-exported" };
    const [run] = readReportRuns({ status, summary, strategyId: "rollout-1234", kubeconfig: "[secret]" });
    expect(run!.name).toBe("update run");
    expect(run!.summary.outcome).toBe("Succeeded-as-exported");
    expect(run!.events).toBeUndefined();
  });

  it("reads a stack output holding several runs, by key, in the output's order, skipping other values", async () => {
    const { status } = await simulateJson(STAGED);
    const runs = readReportRuns({
      endpoint: "https://example.invalid",
      eu: { status, summary: summarize(status as UpdateRunStatus) },
      usStatus: status,
      count: 3,
      nested: { something: { status: "Running" } },
    });
    expect(runs.map((r) => r.name)).toEqual(["eu", "usStatus"]);
    expect(runs[1]!.summary).toEqual(summarize(status as UpdateRunStatus));
  });

  it("reads a list of runs (chained runs), each named by its own name, errors pointing into the list", async () => {
    const first = await simulateJson(STAGED);
    const second = await simulateJson(`${EXAMPLE_SCENARIOS}/01-default-sequential.yaml`);
    const runs = readReportRuns({ runs: [{ name: "canary-wave", ...first }, { name: "rest", ...second }, { note: "not a run" }], clusters: [] });
    expect(runs.map((r) => [r.name, r.summary.members.total, r.events?.length])).toEqual([
      ["canary-wave", 4, first.events.length],
      ["rest", second.status.stages.flatMap((s) => s.groups.flatMap((g) => g.members)).length, second.events.length],
    ]);
    const broken = structuredClone(second);
    broken.status.stages[0]!.status.state = "Done";
    expect(issuesOf({ runs: [first, broken] })).toEqual([expect.stringMatching(/^runs\[1\]\.status\.stages\[0\]\.status\.state: /)]);
  });

  it("reads a bare status tree", async () => {
    const { status } = await simulateJson(STAGED);
    expect(readReportRuns(status).map((r) => r.summary.members.total)).toEqual([4]);
  });

  it("accepts fields it does not draw or does not know (failure counts, Azure's error details) and approval gates", async () => {
    const { status } = await simulateJson(STAGED);
    const extended = structuredClone(status) as StatusJson & Record<string, unknown>;
    extended.failureCount = 0;
    const stage = extended.stages[0]!;
    stage.beforeGates = [{ displayName: "Change board", gateId: "g-1", status: { state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:00:00Z" } }];
    Object.assign(stage.groups[0]!, { failureCount: 0, afterGates: [{ displayName: "Smoke tests", gateId: "g-2", status: { state: "Pending" } }] });
    const [run] = readReportRuns({ status: extended });
    expect(run!.status.stages[0]!.beforeGates![0]!.displayName).toBe("Change board");
    expect(run!.status.stages[0]!.groups[0]!.afterGates![0]!.status.state).toBe("Pending");
  });

  it("names the field path of each problem, under the stack output's key when there is one", async () => {
    const { status } = await simulateJson(STAGED);
    const bad = structuredClone(status);
    bad.stages[1]!.groups[0]!.members[1]!.status.state = "Done";
    bad.stages[0]!.status.startTime = "yesterday";
    delete (bad.stages[1] as Partial<StatusJson["stages"][number]>).name;
    expect(issuesOf({ status: bad })).toEqual([
      "status.stages[0].status.startTime: must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z",
      "status.stages[1].name: is required",
      expect.stringMatching(/^status\.stages\[1\]\.groups\[0\]\.members\[1\]\.status\.state: .*Completed/),
    ]);
    expect(issuesOf({ prod: { status: bad } })[0]).toBe("prod.status.stages[0].status.startTime: must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z");
    expect(issuesOf({ status, events: [{ time: "2026-12-05T00:00:00Z", scope: "run", name: "x", from: "NotStarted" }] })).toEqual(["events[0].to: is required"]);
  });

  it("says what it expected when the input holds no run at all", () => {
    expect(issuesOf([1, 2])).toEqual([expect.stringMatching(/^\(root\): must be a mapping .*got a list$/)]);
    expect(issuesOf({ endpoint: "x" })).toEqual([expect.stringMatching(/^status: is required: no update run status/)]);
    expect(issuesOf({ status: "Running" })).toEqual(["status: must be a mapping, got string"]);
  });
});
