/**
 * Fleet writes refused as ARM refuses them, through the real SDK: a stale eTag (412), bad input (400
 * naming the field path, docs/rules.md §2), unknown resources (404). A refused write changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { raw } from "./helpers";
import { CANARY_THEN_PROD, FAST_POLL, FLEET, FULL_132, RESOURCE_GROUP, fleetClient, fleetPath, startFleetEmulator, strategyId } from "./fleetHelpers";

let emulator: ArmEmulator;
beforeAll(async () => {
  emulator = await startFleetEmulator();
});
afterAll(async () => {
  await emulator.close();
});

describe("eTags", () => {
  test("a strategy's eTag changes with it; If-Match with a stale one is 412 and changes nothing; If-None-Match * refuses to overwrite", async () => {
    const client = fleetClient(emulator);
    const first = await client.fleetUpdateStrategies.createOrUpdate(RESOURCE_GROUP, FLEET, "etags", { properties: { strategy: CANARY_THEN_PROD } }).pollUntilDone();
    const oneStage = { stages: [{ name: "all", groups: [{ name: "canary" }, { name: "prod" }, { name: "dev" }] }] };
    const second = await client.fleetUpdateStrategies.createOrUpdate(RESOURCE_GROUP, FLEET, "etags", { properties: { strategy: oneStage } }, { ifMatch: first.eTag as string }).pollUntilDone();
    expect(second.eTag).not.toBe(first.eTag);
    await expect(
      client.fleetUpdateStrategies.createOrUpdate(RESOURCE_GROUP, FLEET, "etags", { properties: { strategy: CANARY_THEN_PROD } }, { ifMatch: first.eTag as string }).pollUntilDone(),
    ).rejects.toMatchObject({ statusCode: 412, code: "PreconditionFailed" });
    await expect(
      client.fleetUpdateStrategies.createOrUpdate(RESOURCE_GROUP, FLEET, "etags", { properties: { strategy: CANARY_THEN_PROD } }, { ifNoneMatch: "*" }).pollUntilDone(),
    ).rejects.toMatchObject({ statusCode: 412 });
    await expect(client.fleetUpdateStrategies.delete(RESOURCE_GROUP, FLEET, "etags", { ifMatch: first.eTag as string }).pollUntilDone()).rejects.toMatchObject({ statusCode: 412 });
    const now = await client.fleetUpdateStrategies.get(RESOURCE_GROUP, FLEET, "etags");
    expect([now.eTag, now.properties?.strategy.stages.map((s) => s.name)]).toEqual([second.eTag, ["all"]]);
  });

  test("start with a stale If-Match is 412 and does not start the run", async () => {
    const client = fleetClient(emulator);
    const created = await client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "etag-run", { properties: { strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 } }).pollUntilDone();
    await client.updateRuns.skip(RESOURCE_GROUP, FLEET, "etag-run", { targets: [{ type: "Member", name: "prod-1" }] }, FAST_POLL).pollUntilDone();
    await expect(client.updateRuns.start(RESOURCE_GROUP, FLEET, "etag-run", { ...FAST_POLL, ifMatch: created.eTag as string }).pollUntilDone()).rejects.toMatchObject({ statusCode: 412 });
    const run = await client.updateRuns.get(RESOURCE_GROUP, FLEET, "etag-run");
    expect(run.properties?.status?.status?.state).toBe("NotStarted");
  });
});

describe("bad input: 400 naming the field, nothing created", () => {
  async function refusal(run: string, properties: Record<string, unknown>): Promise<{ status: number; body: any }> {
    const answer = await raw(emulator, "PUT", fleetPath(`/updateRuns/${run}`), { body: { properties } });
    const after = await raw(emulator, "GET", fleetPath(`/updateRuns/${run}`));
    expect(after.status).toBe(404);
    return answer;
  }

  test.each([
    ["a duplicate stage name", { strategy: { stages: [{ name: "a", groups: [{ name: "canary" }] }, { name: "a", groups: [{ name: "prod" }] }] }, managedClusterUpdate: FULL_132 }, "properties.strategy.stages[1].name"],
    ["Full without kubernetesVersion", { managedClusterUpdate: { upgrade: { type: "Full" } } }, "properties.managedClusterUpdate.upgrade.kubernetesVersion"],
    ["a version that is not major.minor.patch", { managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32" } } }, "properties.managedClusterUpdate.upgrade.kubernetesVersion"],
    ["a negative wait", { strategy: { stages: [{ name: "a", groups: [{ name: "canary" }], afterStageWaitInSeconds: -1 }] }, managedClusterUpdate: FULL_132 }, "properties.strategy.stages[0].afterStageWaitInSeconds"],
    ["both a strategy and a reference", { strategy: CANARY_THEN_PROD, updateStrategyId: strategyId("etags"), managedClusterUpdate: FULL_132 }, "properties.updateStrategyId"],
    ["a reference to no strategy", { updateStrategyId: strategyId("nope"), managedClusterUpdate: FULL_132 }, "properties.updateStrategyId"],
    ["no managedClusterUpdate", { strategy: CANARY_THEN_PROD }, "properties.managedClusterUpdate"],
  ])("%s", async (_what, properties, field) => {
    const answer = await refusal("bad-run", properties);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("InvalidRequestContent");
    expect(answer.body.error.message).toContain(`${field}:`);
    expect(answer.body.error.details.map((d: { target: string }) => d.target)).toContain(field);
  });

  test("a group no member belongs to is not refused (as Fleet takes it, test_fleet_hubless): created, and the group ends Skipped", async () => {
    const strategy = { stages: [{ name: "a", groups: [{ name: "canary" }, { name: "prdo" }] }] };
    const put = await raw(emulator, "PUT", fleetPath("/updateRuns/typo"), { body: { properties: { strategy, managedClusterUpdate: FULL_132 } } });
    expect(put.status).toBe(201);
    expect(put.body.properties.status.stages[0].groups.map((g: { name: string; status: { state: string } }) => [g.name, g.status.state])).toEqual([
      ["canary", "NotStarted"],
      ["prdo", "NotStarted"],
    ]);
    expect((await raw(emulator, "POST", fleetPath("/updateRuns/typo/start"))).status).toBe(200);
    const deadline = Date.now() + 10_000;
    let run = put.body;
    while (run.properties.status.status.state !== "Completed" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      run = (await raw(emulator, "GET", fleetPath("/updateRuns/typo"))).body;
    }
    expect(run.properties.status.stages[0].groups.map((g: { name: string; status: { state: string } }) => [g.name, g.status.state])).toEqual([
      ["canary", "Completed"],
      ["prdo", "Skipped"],
    ]);
  });

  test("the SDK surfaces the refusal as a RestError with the code and the field in the message; a bad skip target too", async () => {
    const client = fleetClient(emulator);
    const put = client.fleetUpdateStrategies.createOrUpdate(RESOURCE_GROUP, FLEET, "bad", { properties: { strategy: { stages: [{ name: "Canary", groups: [{ name: "canary" }] }] } } }).pollUntilDone();
    await expect(put).rejects.toMatchObject({ statusCode: 400, code: "InvalidRequestContent", message: expect.stringContaining("properties.strategy.stages[0].name") });
    await client.updateRuns.createOrUpdate(RESOURCE_GROUP, FLEET, "skip-bad", { properties: { managedClusterUpdate: FULL_132 } }).pollUntilDone();
    const skip = client.updateRuns.skip(RESOURCE_GROUP, FLEET, "skip-bad", { targets: [{ type: "Cluster", name: "prod-1" }] }, FAST_POLL).pollUntilDone();
    await expect(skip).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining("targets[0].type") });
    const unknown = client.updateRuns.skip(RESOURCE_GROUP, FLEET, "skip-bad", { targets: [{ type: "Member", name: "prod-9" }] }, FAST_POLL).pollUntilDone();
    await expect(unknown).rejects.toMatchObject({ statusCode: 400, code: "InvalidSkipTargets", message: expect.stringContaining("prod-9") });
  });

  test("unknown fleet, run or strategy: 404", async () => {
    const client = fleetClient(emulator);
    await expect(client.fleets.get(RESOURCE_GROUP, "other")).rejects.toMatchObject({ statusCode: 404 });
    await expect(client.updateRuns.get(RESOURCE_GROUP, FLEET, "nope")).rejects.toMatchObject({ statusCode: 404 });
    await expect(client.updateRuns.start(RESOURCE_GROUP, FLEET, "nope", FAST_POLL).pollUntilDone()).rejects.toMatchObject({ statusCode: 404 });
    await expect(client.fleetUpdateStrategies.get(RESOURCE_GROUP, FLEET, "nope")).rejects.toMatchObject({ statusCode: 404 });
  });
});
