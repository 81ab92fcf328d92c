/**
 * docs/rules.md §4 states and §5 status tree (Azure Fleet's `UpdateRunStatus` shape, with our analyses):
 * the shape every run's status and events are written in (the outputs, `simulate --json`, Fleet's
 * status read back). A tree with every part is accepted with its values; a wrong state, an unknown
 * field or a missing one is refused naming its field path. And the finished states: an item that
 * ended is timed at its own end in the events read from Fleet Manager. Issue 34: no test in the
 * mutation run read the gates, analyses, measurements or errors of a status, nor the finished states.
 */
import { describe, expect, it } from "vitest";
import { statusChanges } from "../../src/drivers/fleet/statusEvents";
import { ValidationError, parseOrThrow, type FieldIssue } from "../../src/model/issues";
import { RunEventSchema, UpdateRunStatusSchema, type AnalysisRunStatus, type MeasurementStatus, type UpdateRunStatus } from "../../src/model/status";
import { IMAGE_NEW, type Doc } from "./helpers";

const T0 = "2026-12-05T00:00:00Z";
const T1 = "2026-12-05T00:10:00Z";
const T2 = "2026-12-05T00:20:00Z";

/**
 * A run halted by a failed member, with every part a status can have: gates before and after (one a
 * ScheduledStart gate with its start), the stage's wait, a pre-check and a soak measured by
 * Prometheus, a member's analysis by a web probe, and errors. Fresh on every call.
 */
function tree(): UpdateRunStatus {
  const measurement: MeasurementStatus = { measuredAt: T1, phase: "Successful", value: 0.01, member: "eu-1", query: 'cluster_error_rate{cluster="eu-1"}', message: "0.01 < 0.05" };
  const analysis: AnalysisRunStatus = {
    template: "error-rate",
    kind: "preCheck",
    phase: "Successful",
    provider: "prometheus",
    query: 'cluster_error_rate{cluster="{{member}}"}',
    successCondition: "result < 0.05",
    failureCondition: "result >= 0.2",
    startedAt: T0,
    finishedAt: T1,
    nextMeasurementAt: T2,
    count: 1,
    successful: 1,
    failed: 0,
    inconclusive: 0,
    error: 0,
    message: "1 of 1 measurements successful",
    measurements: [measurement],
  };
  const { finishedAt: _finished, ...unfinished } = analysis;
  return {
    status: { state: "Failed", startTime: T0, completedTime: T2, error: { code: "UpgradeFailed", message: "member 'eu-1' failed" } },
    failureCount: 1,
    nodeImageSelection: { selectedNodeImageVersions: [{ version: IMAGE_NEW }] },
    stages: [
      {
        name: "prod",
        status: { state: "Failed", startTime: T0, completedTime: T2 },
        failureCount: 1,
        beforeGates: [
          {
            displayName: "Monday 09:00",
            gateId: "prod/before/0",
            status: { state: "Completed", startTime: T0, completedTime: T0 },
            scheduledStartProperties: { startDay: "Monday", startTime: "09:00", utcOffset: "+01:00", absoluteStartTime: T0 },
          },
        ],
        afterGates: [{ displayName: "sign-off", gateId: "prod/after/0", status: { state: "NotStarted" } }],
        afterStageWaitStatus: { status: { state: "NotStarted" }, waitDurationInSeconds: 3600 },
        analysisRuns: [analysis, { ...unfinished, kind: "soak", phase: "Running", measurements: [] }],
        groups: [
          {
            name: "eu",
            status: { state: "Failed", startTime: T0, completedTime: T2 },
            failureCount: 1,
            beforeGates: [{ displayName: "eu ready", gateId: "prod/eu/before/0", status: { state: "Completed", startTime: T0, completedTime: T0 } }],
            afterGates: [{ displayName: "eu done", gateId: "prod/eu/after/0", status: { state: "NotStarted" } }],
            members: [
              {
                name: "eu-1",
                clusterResourceId: "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/eu-1",
                operationId: "op-1",
                message: "the analysis error-rate failed",
                status: { state: "Failed", startTime: T0, completedTime: T2, error: { code: "AnalysisFailed", message: "error-rate failed" } },
                analysisRuns: [
                  {
                    ...analysis,
                    kind: "afterMember",
                    phase: "Failed",
                    provider: "web",
                    query: "https://eu-1.example/healthz",
                    count: 2,
                    successful: 1,
                    failed: 1,
                    measurements: [
                      { measuredAt: T1, phase: "Successful", value: 200 },
                      { measuredAt: T2, phase: "Failed", value: 503, message: "HTTP 503" },
                    ],
                  },
                ],
              },
              { name: "eu-2", status: { state: "Stopped" } },
            ],
          },
        ],
      },
    ],
  };
}

function issuesOf(schema: Parameters<typeof parseOrThrow>[0], input: unknown): FieldIssue[] {
  try {
    parseOrThrow(schema, input);
  } catch (e) {
    if (e instanceof ValidationError) return e.issues;
    throw e;
  }
  throw new Error("expected a refusal, but the input was accepted");
}

const stage = (t: Doc) => t.stages[0];
const member = (t: Doc) => stage(t).groups[0].members[0];
const MEMBER = "stages[0].groups[0].members[0]";
const ONE_OF = /^Invalid option: expected one of /;

describe("a status tree with every part is accepted with its values (docs/rules.md §5)", () => {
  it("gates with a scheduled start, the stage's wait, analyses with their measurements, errors", () => {
    const status = tree();
    expect(parseOrThrow(UpdateRunStatusSchema, status)).toEqual(tree());
  });

  it.each(["afterMember", "preCheck", "soak"])("an analysis of kind %s", (kind) => {
    const status: Doc = tree();
    stage(status).analysisRuns[0].kind = kind;
    expect(parseOrThrow(UpdateRunStatusSchema, status).stages[0]!.analysisRuns![0]!.kind).toBe(kind);
  });

  it.each(["Running", "Successful", "Failed", "Inconclusive", "Error"])("an analysis %s", (phase) => {
    const status: Doc = tree();
    stage(status).analysisRuns[0].phase = phase;
    expect(parseOrThrow(UpdateRunStatusSchema, status).stages[0]!.analysisRuns![0]!.phase).toBe(phase);
  });

  it.each(["web", "prometheus"])("an analysis by %s", (provider) => {
    const status: Doc = tree();
    member(status).analysisRuns[0].provider = provider;
    expect(parseOrThrow(UpdateRunStatusSchema, status).stages[0]!.groups[0]!.members[0]!.analysisRuns![0]!.provider).toBe(provider);
  });

  it.each(["Successful", "Failed", "Inconclusive", "Error"])("a measurement %s, in the status and in its event", (phase) => {
    const status: Doc = tree();
    stage(status).analysisRuns[0].measurements[0].phase = phase;
    expect(parseOrThrow(UpdateRunStatusSchema, status).stages[0]!.analysisRuns![0]!.measurements[0]!.phase).toBe(phase);
    const event = { time: T1, scope: "analysis", name: "prod/preCheck/error-rate", from: "Running", to: "Running", measurement: { measuredAt: T1, phase } };
    expect(parseOrThrow(RunEventSchema, event)).toEqual(event);
  });
});

describe("a status tree with a wrong, unknown or missing field is refused, naming its path", () => {
  it.each<[string, (t: Doc) => void, string, string | RegExp]>([
    ["a member in an unknown state", (t) => (member(t).status.state = "Done"), `${MEMBER}.status.state`, ONE_OF],
    ["an error without its message", (t) => delete member(t).status.error.message, `${MEMBER}.status.error.message`, "is required"],
    ["an error with a field Fleet's has and ours not", (t) => (member(t).status.error.target = "eu-1"), `${MEMBER}.status.error.target`, "unknown field"],
    ["a gate without its id", (t) => delete stage(t).beforeGates[0].gateId, "stages[0].beforeGates[0].gateId", "is required"],
    ["a gate with an unknown field", (t) => (stage(t).groups[0].afterGates[0].approvedBy = "ops"), "stages[0].groups[0].afterGates[0].approvedBy", "unknown field"],
    ["a scheduled start without its weekday", (t) => delete stage(t).beforeGates[0].scheduledStartProperties.startDay, "stages[0].beforeGates[0].scheduledStartProperties.startDay", "is required"],
    ["a scheduled start with an unknown field", (t) => (stage(t).beforeGates[0].scheduledStartProperties.timeZone = "UTC"), "stages[0].beforeGates[0].scheduledStartProperties.timeZone", "unknown field"],
    ["an analysis of an unknown kind", (t) => (stage(t).analysisRuns[0].kind = "postCheck"), "stages[0].analysisRuns[0].kind", ONE_OF],
    ["an analysis in an unknown phase", (t) => (stage(t).analysisRuns[0].phase = "Passed"), "stages[0].analysisRuns[0].phase", ONE_OF],
    ["an analysis by an unknown provider", (t) => (member(t).analysisRuns[0].provider = "datadog"), `${MEMBER}.analysisRuns[0].provider`, ONE_OF],
    ["an analysis without its query", (t) => delete stage(t).analysisRuns[0].query, "stages[0].analysisRuns[0].query", "is required"],
    ["an analysis with an unknown field", (t) => (stage(t).analysisRuns[0].interval = 60), "stages[0].analysisRuns[0].interval", "unknown field"],
    ["a measurement in an unknown phase", (t) => (member(t).analysisRuns[0].measurements[1].phase = "Passed"), `${MEMBER}.analysisRuns[0].measurements[1].phase`, ONE_OF],
    ["a measurement without its instant", (t) => delete stage(t).analysisRuns[0].measurements[0].measuredAt, "stages[0].analysisRuns[0].measurements[0].measuredAt", "is required"],
    ["a measurement with an unknown field", (t) => (stage(t).analysisRuns[0].measurements[0].sample = 1), "stages[0].analysisRuns[0].measurements[0].sample", "unknown field"],
  ])("%s", (_what, mutate, path, message) => {
    const status: Doc = tree();
    mutate(status);
    const issues = issuesOf(UpdateRunStatusSchema, status);
    expect(issues.map((i) => i.path)).toEqual([path]);
    if (typeof message === "string") expect(issues[0]!.message).toBe(message);
    else expect(issues[0]!.message).toMatch(message);
  });
});

describe("docs/rules.md §4: an item that ended is timed at its own end in the events read from Fleet Manager", () => {
  const READ = Date.parse("2026-12-05T01:00:00Z");
  const withMember = (state: "Completed" | "Skipped" | "Failed" | "Pending") => {
    const status = tree();
    status.stages[0]!.groups[0]!.members[0]!.status = { state, startTime: T0, completedTime: T2 };
    return status;
  };
  const memberEvent = (after: UpdateRunStatus) => {
    const before = withMember("Pending");
    before.stages[0]!.groups[0]!.members[0]!.status = { state: "Running", startTime: T0 };
    return statusChanges("run", before, after, READ).find((e) => e.scope === "member" && e.name === "eu-1");
  };

  it.each(["Completed", "Skipped", "Failed"] as const)("%s: at its completedTime", (state) => {
    expect(memberEvent(withMember(state))).toMatchObject({ time: T2, from: "Running", to: state });
  });

  it("Pending (it waits, and goes on by itself): at the read", () => {
    expect(memberEvent(withMember("Pending"))).toMatchObject({ time: "2026-12-05T01:00:00Z", from: "Running", to: "Pending" });
  });
});
