/**
 * Issue 21: what the client sends is valid at the api-version it sends it in. Over random strategies
 * (limits, gates, waits; issue 22: label selectors and ScheduledStart gates), each version the client speaks either refuses the strategy at Check
 * (`unsupportedInStrategy`, naming each field it lacks) or takes it: then the body sent parses
 * against that version's official definitions (`WIRE_SCHEMAS`, generated from its swagger) and comes
 * back as it went (`fromFleetStrategy`, which `attachable()` compares). Fleet's status at the newest
 * version is read with its `failureCount`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromFleetStatus } from "../../../src/drivers/fleet/fromFleet";
import { fromFleetStrategy, toFleetManagedClusterUpdate, toFleetStrategy } from "../../../src/drivers/fleet/toFleet";
import { unsupportedInStrategy } from "../../../src/drivers/fleet/unsupported";
import { CLIENT_FLEET_API_VERSIONS, FLEET_API_FEATURES, WIRE_SCHEMAS, type WireRunStatus } from "../../../src/backends/azureFleet/wire";
import { UpdateRunStrategySchema, type UpdateRunStrategy } from "../../../src/model/strategy";

const concurrency = fc.option(fc.oneof(fc.integer({ min: 1, max: 60 }).map(String), fc.integer({ min: 1, max: 100 }).map((p) => `${p}%`)), { nil: undefined });
const tolerance = fc.option(fc.oneof(fc.integer({ min: 0, max: 9 }).map(String), fc.integer({ min: 0, max: 100 }).map((p) => `${p}%`)), { nil: undefined });
const approval = fc.record({ type: fc.constant("Approval" as const), displayName: fc.option(fc.constantFrom("QA", "Canary looks good"), { nil: undefined }) });
const scheduledStart = fc.record({
  type: fc.constant("ScheduledStart" as const),
  displayName: fc.option(fc.constant("Production window"), { nil: undefined }),
  scheduledStartConfiguration: fc.record({ startDay: fc.constantFrom("Monday", "Tuesday", "Sunday"), startTime: fc.constantFrom("00:00", "09:00", "23:59"), utcOffset: fc.constantFrom("+01:00", "-05:00", "+14:00", "-14:00") }),
});
const gates = fc.option(fc.array(approval, { minLength: 1, maxLength: 2 }), { nil: undefined });
const beforeGates = fc.option(fc.array(fc.oneof(approval, scheduledStart), { minLength: 1, maxLength: 2 }), { nil: undefined });
const selector = fc.option(fc.constantFrom("env=prod", "tier in (web, api), !canary", "ring notin (0)"), { nil: undefined }).map((byLabel) => (byLabel === undefined ? undefined : { byLabel }));
const limits = fc.record({ maxConcurrency: concurrency, maxAllowedFailures: tolerance, memberSelector: selector, beforeGates, afterGates: gates });

const strategies = fc
  .array(fc.record({ stage: limits, wait: fc.option(fc.constantFrom(0, 600, 3600), { nil: undefined }), groups: fc.array(limits, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 3 })
  .map((stages) => {
    let g = 0;
    const drop = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
    const raw = { stages: stages.map((s, i) => drop({ name: `stage-${i}`, ...s.stage, afterStageWaitInSeconds: s.wait, groups: s.groups.map((l) => drop({ name: `group-${g++}`, ...l })) })) };
    return UpdateRunStrategySchema.parse(raw);
  });

/** Every limit the strategy sets, as `path` (what a refusal names). */
function limitPaths(strategy: UpdateRunStrategy, limit: "maxConcurrency" | "maxAllowedFailures"): string[] {
  return strategy.stages.flatMap((stage, s) => [
    ...(stage[limit] === undefined ? [] : [`strategy.stages[${s}].${limit}`]),
    ...stage.groups.flatMap((group, g) => (group[limit] === undefined ? [] : [`strategy.stages[${s}].groups[${g}].${limit}`])),
  ]);
}

/** Every `memberSelector` and ScheduledStart gate the strategy sets, as the paths a refusal names. */
function issue22Paths(strategy: UpdateRunStrategy): string[] {
  const at = (item: UpdateRunStrategy["stages"][number] | UpdateRunStrategy["stages"][number]["groups"][number], path: string) => [
    ...(item.memberSelector === undefined ? [] : [`${path}.memberSelector`]),
    ...(item.beforeGates ?? []).flatMap((g, i) => (g.type === "ScheduledStart" ? [`${path}.beforeGates[${i}].type`] : [])),
  ];
  return strategy.stages.flatMap((stage, s) => [...at(stage, `strategy.stages[${s}]`), ...stage.groups.flatMap((group, g) => at(group, `strategy.stages[${s}].groups[${g}]`))]);
}

describe.each(CLIENT_FLEET_API_VERSIONS)("api-version %s", (version) => {
  const features = FLEET_API_FEATURES[version];
  const schemas = WIRE_SCHEMAS[version];

  it("refuses exactly the fields the version lacks; what it takes is a valid body there and reads back as it went", () => {
    fc.assert(
      fc.property(strategies, (strategy) => {
        const refused = unsupportedInStrategy(strategy, "strategy.", version).map((i) => i.path).sort();
        const lacking = [
          ...(features.maxConcurrency ? [] : limitPaths(strategy, "maxConcurrency")),
          ...(features.maxAllowedFailures ? [] : limitPaths(strategy, "maxAllowedFailures")),
          // The preview has both or neither.
          ...(features.memberSelector && features.scheduledStartGates ? [] : issue22Paths(strategy)),
        ].sort();
        expect(refused).toEqual(lacking);
        if (refused.length > 0) return;
        const body = { properties: { strategy: toFleetStrategy(strategy), managedClusterUpdate: toFleetManagedClusterUpdate({ upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Latest" } }) } };
        const parsed = schemas.UpdateRun.safeParse(body);
        expect(parsed.error?.issues ?? []).toEqual([]);
        expect(schemas.FleetUpdateStrategy.safeParse({ properties: { strategy: body.properties.strategy } }).success).toBe(true);
        expect(fromFleetStrategy(body.properties.strategy)).toEqual(strategy);
      }),
      { numRuns: 200, seed: 21 },
    );
  });
});

describe("Fleet's status with failure tolerance (2026-06-02-preview)", () => {
  it("failureCount as Fleet shows it, at run, stage and group; without one, counted from the members", () => {
    const member = (name: string, state: string) => ({ name, status: { state } });
    const status: WireRunStatus = {
      status: { state: "Completed" },
      failureCount: 2,
      stages: [
        {
          name: "prod",
          status: { state: "Completed" },
          failureCount: 2,
          maxConcurrency: 2,
          maxAllowedFailures: 2,
          groups: [
            { name: "eu", status: { state: "Completed" }, failureCount: 1, maxConcurrency: 1, maxAllowedFailures: 1, members: [member("eu-1", "Failed"), member("eu-2", "Completed")] },
            { name: "us", status: { state: "Completed" }, failureCount: 1, maxConcurrency: 2, maxAllowedFailures: 1, members: [member("us-1", "Completed"), member("us-2", "Failed")] },
          ],
        },
      ],
    };
    expect(WIRE_SCHEMAS["2026-06-02-preview"].UpdateRunStatus.safeParse(status).success).toBe(true);
    const ours = fromFleetStatus(status);
    expect([ours.failureCount, ours.stages[0]?.failureCount, ...(ours.stages[0]?.groups.map((g) => g.failureCount) ?? [])]).toEqual([2, 2, 1, 1]);
    const older = fromFleetStatus({ ...status, failureCount: undefined, stages: status.stages?.map((s) => ({ ...s, failureCount: undefined, groups: s.groups?.map((g) => ({ ...g, failureCount: undefined })) })) });
    expect([older.failureCount, older.stages[0]?.failureCount]).toEqual([2, 2]);
  });
});
