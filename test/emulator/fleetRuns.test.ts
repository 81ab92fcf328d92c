/**
 * Fleet Manager served by the ARM emulator, through the real `@azure/arm-containerservicefleet` client:
 * strategies and runs are created, started, stopped and skipped as on Azure, and a started run is
 * driven server-side by our engine over the emulated clusters.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { sdkClient } from "./helpers";
import { CANARY_THEN_PROD, FAST_POLL, FLEET, FULL_132, RESOURCE_GROUP, fleetClient, runState, SUBSCRIPTION, startFleetEmulator, strategyId, waitForRun } from "./fleetHelpers";

let emulator: ArmEmulator;
beforeEach(async () => {
  emulator = await startFleetEmulator();
});
afterEach(async () => {
  await emulator.close();
});

describe("fleet and members", () => {
  test("the default fleet serves every emulated cluster as a member in its group", async () => {
    const client = fleetClient(emulator);
    const fleet = await client.fleets.get(RESOURCE_GROUP, FLEET);
    expect(fleet.name).toBe(FLEET);
    expect(fleet.properties?.provisioningState).toBe("Succeeded");
    const members = [];
    for await (const m of client.fleetMembers.listByFleet(RESOURCE_GROUP, FLEET)) members.push(m);
    expect(members.map((m) => [m.name, m.properties?.group])).toEqual([["canary-1", "canary"], ["prod-1", "prod"], ["prod-2", "prod"], ["prod-3", "prod"], ["dev-1", "dev"]]);
    expect(members[0]?.properties?.clusterResourceId).toMatch(/\/resourceGroups\/rg-fleet\/providers\/Microsoft\.ContainerService\/managedClusters\/canary-1$/);
  });
});

describe("declared fleets and members", () => {
  test("option fleets: a fleet of some clusters under other member names; members joined (PUT), regrouped (PATCH) and removed (DELETE) count for runs created after", async () => {
    await emulator.close();
    emulator = await startFleetEmulator({ fleets: [{ name: "blue", location: "westeurope", members: [{ name: "first", cluster: "prod-1", group: "wave" }] }] });
    const client = fleetClient(emulator);
    await expect(client.fleets.get(RESOURCE_GROUP, FLEET)).rejects.toMatchObject({ statusCode: 404 });
    const blue = await client.fleets.get(RESOURCE_GROUP, "blue");
    expect(blue.location).toBe("westeurope");
    const clusterId = (name: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/${name}`;
    // Joining is long-running, as on Fleet: the poller follows it to Succeeded.
    const joined = await client.fleetMembers.create(RESOURCE_GROUP, "blue", "second", { properties: { clusterResourceId: clusterId("prod-2"), group: "later" } }, FAST_POLL).pollUntilDone();
    expect(joined.properties).toMatchObject({ clusterResourceId: clusterId("prod-2"), group: "later", provisioningState: "Succeeded" });
    const regrouped = await client.fleetMembers.updateAsync(RESOURCE_GROUP, "blue", "second", { properties: { group: "wave" } }, FAST_POLL).pollUntilDone();
    expect(regrouped.properties?.group).toBe("wave");
    await client.fleetMembers.create(RESOURCE_GROUP, "blue", "third", { properties: { clusterResourceId: clusterId("prod-3"), group: "wave" } }, FAST_POLL).pollUntilDone();
    await client.fleetMembers.delete(RESOURCE_GROUP, "blue", "third", FAST_POLL).pollUntilDone();
    await expect(client.fleetMembers.get(RESOURCE_GROUP, "blue", "third")).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      client.fleetMembers.create(RESOURCE_GROUP, "blue", "ghost", { properties: { clusterResourceId: clusterId("nowhere") } }, FAST_POLL).pollUntilDone(),
    ).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining("properties.clusterResourceId") });

    await client.updateRuns.createOrUpdate(RESOURCE_GROUP, "blue", "wave-run", { properties: { strategy: { stages: [{ name: "one", groups: [{ name: "wave" }] }] }, managedClusterUpdate: FULL_132 } }).pollUntilDone();
    // Joined after the run was created: not in it (a run snapshots its members).
    await client.fleetMembers.create(RESOURCE_GROUP, "blue", "late", { properties: { clusterResourceId: clusterId("dev-1"), group: "wave" } }, FAST_POLL).pollUntilDone();
    await client.updateRuns.start(RESOURCE_GROUP, "blue", "wave-run", FAST_POLL).pollUntilDone();
    const done = await waitForRun(client, "wave-run", (r) => runState(r) === "Completed", 10_000, "blue");
    const members = done.properties?.status?.stages?.[0]?.groups?.[0]?.members ?? [];
    expect(members.map((m) => [m.name, m.clusterResourceId, m.status?.state])).toEqual([
      ["first", clusterId("prod-1"), "Completed"],
      ["second", clusterId("prod-2"), "Completed"],
    ]);
    expect(emulator.fleet.operationLog().map((o) => o.member).sort()).toEqual(["prod-1", "prod-2"]);
  });
});

describe("a run through the SDK", () => {
  test("strategy + run, start, followed to Completed server-side; the clusters are upgraded and a cluster GET shows the upgrade mid-run", async () => {
    const client = fleetClient(emulator);
    const strategy = await client.fleetUpdateStrategies.createOrUpdate(RESOURCE_GROUP, FLEET, "two-stages", { properties: { strategy: CANARY_THEN_PROD } }).pollUntilDone();
    expect(strategy.properties?.provisioningState).toBe("Succeeded");
    expect(strategy.eTag).toBeTruthy();
    const created = await client.updateRuns
      .createOrUpdate(RESOURCE_GROUP, FLEET, "run-1", { properties: { updateStrategyId: strategyId("two-stages"), managedClusterUpdate: FULL_132 } })
      .pollUntilDone();
    expect(created.properties?.status?.status?.state).toBe("NotStarted");
    expect(created.properties?.strategy?.stages.map((s) => s.name)).toEqual(["canary", "prod"]);

    // Fleet answers a start with the run as it was when the start was taken (test_fleet_hubless).
    const started = await client.updateRuns.start(RESOURCE_GROUP, FLEET, "run-1", FAST_POLL).pollUntilDone();
    expect(started.properties?.status?.status?.state).toBe("NotStarted");

    // The canary's 10-minute upgrade (0.1 s) runs first: its cluster shows it.
    const aks = sdkClient(emulator);
    const canary = await aks.managedClusters.get(RESOURCE_GROUP, "canary-1");
    expect(canary.provisioningState).toBe("Upgrading");
    expect(canary.kubernetesVersion).toBe("1.32.0");

    const done = await waitForRun(client, "run-1", (r) => runState(r) === "Completed");
    const stages = done.properties?.status?.stages ?? [];
    expect(stages.map((s) => s.status?.state)).toEqual(["Completed", "Completed"]);
    expect(stages[0]?.afterStageWaitStatus?.status?.state).toBe("Completed");
    const members = stages.flatMap((s) => s.groups ?? []).flatMap((g) => g.members ?? []);
    expect(members.map((m) => m.status?.state)).toEqual(["Completed", "Completed", "Completed", "Completed", "Completed"]);
    expect(members.every((m) => m.operationId?.startsWith("op-"))).toBe(true);
    for (const name of ["canary-1", "prod-1", "prod-2", "prod-3", "dev-1"]) {
      const cluster = await aks.managedClusters.get(RESOURCE_GROUP, name);
      expect([cluster.currentKubernetesVersion, cluster.provisioningState]).toEqual(["1.32.0", "Succeeded"]);
    }
    // The engine's events are kept beside the run (not served by ARM): the run ended Completed.
    const events = emulator.fleetManager.run(FLEET, "run-1")?.events ?? [];
    // Running from its start to its end. (A start and its first pass happen at one instant, as in
    // process: read apart, a busy machine let the clock tick between them and showed the run Pending.)
    expect(events.filter((e) => e.scope === "run").map((e) => e.to)).toEqual(["Running", "Completed"]);
    // Stage order held: every prod upgrade began after the canary's ended and its 10-minute wait.
    const log = emulator.fleet.operationLog();
    const canaryEnd = log.find((o) => o.member === "canary-1")?.endTime as string;
    for (const entry of log.filter((o) => o.member !== "canary-1")) expect(Date.parse(entry.startTime) - Date.parse(canaryEnd)).toBeGreaterThanOrEqual(600_000);
  });
});
