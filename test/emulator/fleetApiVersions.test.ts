/**
 * The emulator's Fleet Manager serves exactly four api-versions (2025-03-01, 2025-04-01-preview,
 * 2026-06-01, 2026-06-02-preview), each with exactly its own fields: a request with a field or an enum
 * value its version does not have is refused (400, as ARM words it, naming the field and the version
 * that has it), another api-version is ARM's 400 `NoRegisteredProviderFound`, and a resource written
 * at one version is shown at another with only that version's fields.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { FLEET_API_VERSIONS } from "../../src/backends/azureFleet/wire";
import type { ArmEmulator } from "../../src/emulator";
import { raw } from "./helpers";
import { FULL_132, RESOURCE_GROUP, SUBSCRIPTION, fleetPath, startFleetEmulator } from "./fleetHelpers";

let emulator: ArmEmulator;
beforeEach(async () => {
  emulator = await startFleetEmulator();
});
afterEach(async () => {
  await emulator.close();
});

const at = (version: string, rest: string) => fleetPath(`${rest}?api-version=${version}`);

/** The 400's `details`: `target: message` for each problem. */
function problems(answer: { status: number; body: { error: { code: string; details?: Array<{ target: string; message: string }> } } }): string[] {
  expect(answer.status).toBe(400);
  return (answer.body.error.details ?? []).map((d) => `${d.target}: ${d.message}`);
}

describe("api-versions the emulator does not serve", () => {
  test.each([
    ["GET", ""],
    ["GET", "/members"],
    ["GET", "/updateStrategies"],
    ["PUT", "/updateStrategies/s"],
    ["GET", "/updateRuns"],
    ["GET", "/updateRuns/r"],
    ["PUT", "/updateRuns/r"],
    ["POST", "/updateRuns/r/start"],
    ["GET", "/gates"],
  ])("%s fleets/fleet%s at 2021-01-01 is 400 NoRegisteredProviderFound", async (method, rest) => {
    const answer = await raw(emulator, method, at("2021-01-01", rest), { body: method === "PUT" ? { properties: {} } : undefined });
    expect([answer.status, answer.body.error.code]).toEqual([400, "NoRegisteredProviderFound"]);
    const type = rest === "" ? "fleets" : `fleets/${rest.split("/")[1]}`;
    const supported = type === "fleets/gates" ? FLEET_API_VERSIONS.filter((v) => v !== "2025-03-01") : FLEET_API_VERSIONS;
    expect(answer.body.error.message).toBe(`No registered resource provider found for API version '2021-01-01' and type '${type}'. The supported api-versions are '${supported.join(", ")}'.`);
  });

  test("versions Fleet has but the emulator does not serve are refused too (2025-08-01-preview, 2026-02-01-preview)", async () => {
    for (const version of ["2025-08-01-preview", "2026-02-01-preview", "2026-03-02-preview"]) {
      const answer = await raw(emulator, "GET", at(version, "/gates"));
      expect([answer.status, answer.body.error.code]).toEqual([400, "NoRegisteredProviderFound"]);
    }
  });

  test("every served version answers 200", async () => {
    for (const version of FLEET_API_VERSIONS) expect((await raw(emulator, "GET", at(version, "/updateRuns"))).status).toBe(200);
  });
});

describe("a field or an enum value the version does not have: 400 naming it", () => {
  const stage = (extra: Record<string, unknown>, group: Record<string, unknown> = {}) => ({ properties: { strategy: { stages: [{ name: "s", groups: [{ name: "prod", ...group }], ...extra }] } } });

  test("maxConcurrency before 2026-06-01", async () => {
    const answer = await raw(emulator, "PUT", at("2025-04-01-preview", "/updateStrategies/s"), { body: stage({ maxConcurrency: "2" }, { maxConcurrency: "50%" }) });
    expect(answer.body.error.code).toBe("InvalidRequestContent");
    expect(problems(answer)).toEqual([
      "properties.strategy.stages[0].groups[0].maxConcurrency: Could not find member 'maxConcurrency' on object of type 'UpdateGroup' at api-version 2025-04-01-preview; it is in api-version 2026-06-01",
      "properties.strategy.stages[0].maxConcurrency: Could not find member 'maxConcurrency' on object of type 'UpdateStage' at api-version 2025-04-01-preview; it is in api-version 2026-06-01",
    ]);
    expect(answer.body.error.target).toBe("properties.strategy.stages[0].groups[0].maxConcurrency");
  });

  test("gates at 2025-03-01", async () => {
    const answer = await raw(emulator, "PUT", at("2025-03-01", "/updateRuns/r"), { body: { properties: { ...stage({ afterGates: [{ type: "Approval" }] }).properties, managedClusterUpdate: FULL_132 } } });
    expect(problems(answer)).toEqual([
      "properties.strategy.stages[0].afterGates: Could not find member 'afterGates' on object of type 'UpdateStage' at api-version 2025-03-01; it is in api-version 2025-04-01-preview",
    ]);
  });

  test("maxAllowedFailures at 2026-06-01", async () => {
    const answer = await raw(emulator, "PUT", at("2026-06-01", "/updateStrategies/s"), { body: stage({}, { maxAllowedFailures: "1" }) });
    expect(problems(answer)).toEqual([
      "properties.strategy.stages[0].groups[0].maxAllowedFailures: Could not find member 'maxAllowedFailures' on object of type 'UpdateGroup' at api-version 2026-06-01; it is in api-version 2026-06-02-preview",
    ]);
  });

  test("a ScheduledStart gate at 2026-06-01 (an enum value of 2026-06-02-preview)", async () => {
    const answer = await raw(emulator, "PUT", at("2026-06-01", "/updateStrategies/s"), { body: stage({ beforeGates: [{ type: "ScheduledStart" }] }) });
    expect(problems(answer)).toEqual([
      'properties.strategy.stages[0].beforeGates[0].type: the value "ScheduledStart" is not valid for GateType at api-version 2026-06-01 (it is in api-version 2026-06-02-preview); allowed: Approval',
    ]);
  });

  test("a bad maxConcurrency or maxAllowedFailures value, by the version's pattern", async () => {
    const answer = await raw(emulator, "PUT", at("2026-06-02-preview", "/updateStrategies/s"), { body: stage({ maxConcurrency: "0" }, { maxAllowedFailures: "101%" }) });
    expect(problems(answer)).toEqual([
      'properties.strategy.stages[0].groups[0].maxAllowedFailures: must be a count from 0 ("2") or a percentage from 0% to 100% ("10%")',
      'properties.strategy.stages[0].maxConcurrency: must be a count from 1 ("3") or a percentage from 1% to 100% ("25%")',
    ]);
  });

  test("an unknown skip target type, and an unknown field anywhere", async () => {
    await raw(emulator, "PUT", at("2026-06-01", "/updateRuns/r"), { body: { properties: { managedClusterUpdate: FULL_132 } } });
    const skip = await raw(emulator, "POST", at("2026-06-01", "/updateRuns/r/skip"), { body: { targets: [{ type: "Cluster", name: "prod-1" }] } });
    expect(problems(skip)).toEqual(['targets[0].type: the value "Cluster" is not valid for TargetType at api-version 2026-06-01; allowed: Member, Group, Stage, AfterStageWait']);
    const typo = await raw(emulator, "PUT", at("2026-06-01", "/updateRuns/r2"), { body: { properties: { managedClusterUpdate: { ...FULL_132, upgarde: {} } } } });
    expect(problems(typo)).toEqual(["properties.managedClusterUpdate.upgarde: Could not find member 'upgarde' on object of type 'ManagedClusterUpdate' at api-version 2026-06-01"]);
  });

  test("a fleet member body, against its own version's definition at every version (issue 29: each fixture carries FleetMember)", async () => {
    const clusterResourceId = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/prod-2`;
    for (const version of FLEET_API_VERSIONS) {
      // A field no version of FleetMemberProperties has: before, the emulator dropped it silently at every version but 2025-04-01-preview.
      const put = await raw(emulator, "PUT", at(version, "/members/m"), { body: { properties: { clusterResourceId, group: "prod", hubProfile: {} } } });
      expect(problems(put), version).toEqual([`properties.hubProfile: Could not find member 'hubProfile' on object of type 'FleetMemberProperties' at api-version ${version}`]);
      const patch = await raw(emulator, "PATCH", at(version, "/members/prod-1"), { body: { properties: { grup: "prod" } } });
      expect(problems(patch), version).toEqual([`properties.grup: Could not find member 'grup' on object of type 'FleetMemberUpdateProperties' at api-version ${version}`]);
    }
    // The group's pattern, as each version's definition has it.
    expect(problems(await raw(emulator, "PATCH", at("2025-03-01", "/members/prod-1"), { body: { properties: { group: "Prod" } } }))[0]).toMatch(/^properties\.group: /);
    // Read-only fields sent back (as `az fleet member reconcile` does with what it read) are taken and ignored, 2026-06-02-preview's meshProperties too.
    const back = await raw(emulator, "PUT", at("2026-06-02-preview", "/members/m"), {
      body: { properties: { clusterResourceId, group: "prod", provisioningState: "Succeeded", meshProperties: { status: { state: "Connected" } } } },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    expect(back.body.properties).not.toHaveProperty("meshProperties");
  });

  test("a gate PATCH with a state no version has; Skipped is a GateState but only Completed approves", async () => {
    const gated = { stages: [{ name: "s", groups: [{ name: "canary" }], beforeGates: [{ type: "Approval" }] }] };
    await raw(emulator, "PUT", at("2025-04-01-preview", "/updateRuns/g"), { body: { properties: { strategy: gated, managedClusterUpdate: FULL_132 } } });
    await raw(emulator, "POST", at("2025-04-01-preview", "/updateRuns/g/start"));
    const [gate] = (await raw(emulator, "GET", at("2025-04-01-preview", "/gates"))).body.value;
    const answer = await raw(emulator, "PATCH", at("2025-04-01-preview", `/gates/${gate.name}`), { body: { properties: { state: "Approved" } } });
    expect(problems(answer)).toEqual(['properties.state: the value "Approved" is not valid for GateState at api-version 2025-04-01-preview; allowed: Pending, Skipped, Completed']);
    const skipped = await raw(emulator, "PATCH", at("2025-04-01-preview", `/gates/${gate.name}`), { body: { properties: { state: "Skipped" } } });
    expect(problems(skipped)).toEqual(['properties.state: must be Completed (to approve the gate), got "Skipped"']);
  });

  test("memberSelector at 2026-06-01: an unknown member, naming 2026-06-02-preview", async () => {
    const answer = await raw(emulator, "PUT", at("2026-06-01", "/updateStrategies/s"), { body: stage({ memberSelector: { byLabel: "env=prod" } }, { memberSelector: { byLabel: "tier=web" } }) });
    expect(answer.body.error.code).toBe("InvalidRequestContent");
    expect(problems(answer)).toEqual([
      "properties.strategy.stages[0].groups[0].memberSelector: Could not find member 'memberSelector' on object of type 'UpdateGroup' at api-version 2026-06-01; it is in api-version 2026-06-02-preview",
      "properties.strategy.stages[0].memberSelector: Could not find member 'memberSelector' on object of type 'UpdateStage' at api-version 2026-06-01; it is in api-version 2026-06-02-preview",
    ]);
  });

  test("memberSelector and ScheduledStart gates at 2026-06-02-preview: taken, and read back as written", async () => {
    const scheduled = { type: "ScheduledStart", displayName: "Friday evening", scheduledStartConfiguration: { startDay: "Friday", startTime: "18:00", utcOffset: "-05:00" } };
    const body = stage({ memberSelector: { byLabel: "env=prod" }, beforeGates: [scheduled] }, { memberSelector: { byLabel: "tier in (web, api)" } });
    const answer = await raw(emulator, "PUT", at("2026-06-02-preview", "/updateStrategies/s"), { body });
    expect(answer.status).toBe(201);
    expect(answer.body.properties.strategy).toEqual(body.properties.strategy);
  });

  test("a selector that does not parse, or a ScheduledStart gate without its configuration or as an after-gate: 400 naming the field", async () => {
    const answer = await raw(emulator, "PUT", at("2026-06-02-preview", "/updateStrategies/s"), {
      body: stage({ beforeGates: [{ type: "ScheduledStart" }], afterGates: [{ type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Friday", startTime: "18:00", utcOffset: "+00:00" } }] }, { memberSelector: { byLabel: "env in (prod" } }),
    });
    const got = problems(answer);
    expect(got.some((p) => /^properties\.strategy\.stages\[0\]\.groups\[0\]\.memberSelector\.byLabel: .*position \d+/.test(p))).toBe(true);
    expect(got.some((p) => p.startsWith("properties.strategy.stages[0].beforeGates[0].scheduledStartConfiguration: is required"))).toBe(true);
    expect(got.some((p) => p.startsWith("properties.strategy.stages[0].afterGates[0].type: a ScheduledStart gate holds a start"))).toBe(true);
  });

  test("a ScheduledStart configuration outside Fleet's patterns (a utcOffset past +14:00), by the version's pattern", async () => {
    const answer = await raw(emulator, "PUT", at("2026-06-02-preview", "/updateStrategies/s"), {
      body: stage({ beforeGates: [{ type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Friday", startTime: "18:00", utcOffset: "+15:00" } }] }),
    });
    expect(problems(answer).map((p) => p.split(":")[0])).toEqual(["properties.strategy.stages[0].beforeGates[0].scheduledStartConfiguration.utcOffset"]);
  });

  test("both updateStrategyId and strategy: 400 (the swagger: setting both is invalid)", async () => {
    const answer = await raw(emulator, "PUT", at("2026-06-01", "/updateRuns/r"), { body: { properties: { updateStrategyId: "s", strategy: stage({}).properties.strategy, managedClusterUpdate: FULL_132 } } });
    expect(problems(answer)[0]).toMatch(/^properties\.updateStrategyId: give either/);
  });
});

describe("a resource is shown with its version's fields only", () => {
  test("a run written at 2026-06-02-preview, read at each version", async () => {
    const strategy = { stages: [{ name: "s", maxConcurrency: "2", maxAllowedFailures: "1", groups: [{ name: "prod", maxConcurrency: "67%", maxAllowedFailures: "34%", afterGates: [{ type: "Approval" }] }] }] };
    const put = await raw(emulator, "PUT", at("2026-06-02-preview", "/updateRuns/r"), { body: { properties: { strategy, managedClusterUpdate: FULL_132 } } });
    expect(put.status).toBe(201);
    const view = async (version: string) => (await raw(emulator, "GET", at(version, "/updateRuns/r"))).body;

    const preview = await view("2026-06-02-preview");
    expect(preview.properties.strategy).toEqual(strategy);
    const [stage] = preview.properties.status.stages;
    // 67% of 3 members is 2.01: 2; 34% of 3 is 1.02, rounded up: 2.
    expect([stage.maxConcurrency, stage.maxAllowedFailures, stage.failureCount]).toEqual([2, 1, 0]);
    expect([stage.groups[0].maxConcurrency, stage.groups[0].maxAllowedFailures, stage.groups[0].failureCount]).toEqual([2, 2, 0]);
    expect(preview.properties.status.failureCount).toBe(0);
    expect(preview.systemData).toEqual(expect.objectContaining({ createdAt: expect.any(String), lastModifiedAt: expect.any(String), createdByType: "Application" }));

    const ga = await view("2026-06-01");
    expect(ga.properties.strategy).toEqual({ stages: [{ name: "s", maxConcurrency: "2", groups: [{ name: "prod", maxConcurrency: "67%", afterGates: [{ type: "Approval" }] }] }] });
    expect(Object.keys(ga.properties.status.stages[0]).sort()).toEqual(["groups", "maxConcurrency", "name", "status"]);
    expect(Object.keys(ga.properties.status.stages[0].groups[0]).sort()).toEqual(["afterGates", "maxConcurrency", "members", "name", "status"]);
    expect(ga.properties.status.failureCount).toBeUndefined();

    const gates = await view("2025-04-01-preview");
    expect(gates.properties.strategy).toEqual({ stages: [{ name: "s", groups: [{ name: "prod", afterGates: [{ type: "Approval" }] }] }] });
    expect(Object.keys(gates.properties.status.stages[0].groups[0]).sort()).toEqual(["afterGates", "members", "name", "status"]);

    const stable = await view("2025-03-01");
    expect(stable.properties.strategy).toEqual({ stages: [{ name: "s", groups: [{ name: "prod" }] }] });
    expect(Object.keys(stable.properties.status.stages[0].groups[0]).sort()).toEqual(["members", "name", "status"]);
    // The eTag is the resource's, whatever the version it is read at (If-Match works across versions).
    expect(new Set([preview.eTag, ga.eTag, gates.eTag, stable.eTag]).size).toBe(1);
  });

  test("a strategy without failure tolerance shows no failureCount, even at 2026-06-02-preview (Fleet's examples)", async () => {
    await raw(emulator, "PUT", at("2026-06-02-preview", "/updateRuns/r"), { body: { properties: { strategy: { stages: [{ name: "s", groups: [{ name: "prod" }] }] }, managedClusterUpdate: FULL_132 } } });
    const body = (await raw(emulator, "GET", at("2026-06-02-preview", "/updateRuns/r"))).body;
    expect(body.properties.status.failureCount).toBeUndefined();
    expect(body.properties.status.stages[0]).not.toHaveProperty("failureCount");
    expect(body.properties.status.stages[0].groups[0].maxConcurrency).toBe(1); // a group's default
    expect(body.properties.status.nodeImageSelection).toEqual({}); // Latest: `{}`, as the live service shows it
  });
});
