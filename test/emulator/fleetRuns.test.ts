/**
 * Fleet Manager served by the ARM emulator, through the real `@azure/arm-containerservicefleet` client:
 * strategies and runs are created, started, stopped and skipped as on Azure, and a started run is
 * driven server-side by our engine over the emulated clusters.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/backends/azure/emulator";
import { sdkClient } from "./helpers";
import { CANARY_THEN_PROD, FAST_POLL, FLEET, FULL_132, RESOURCE_GROUP, fleetClient, runState, startFleetEmulator, strategyId, waitForRun } from "./fleetHelpers";

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

    const started = await client.updateRuns.start(RESOURCE_GROUP, FLEET, "run-1", FAST_POLL).pollUntilDone();
    expect(["Running", "Completed"]).toContain(started.properties?.status?.status?.state);

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
    // Stage order held: every prod upgrade began after the canary's ended and its 10-minute wait.
    const log = emulator.fleet.operationLog();
    const canaryEnd = log.find((o) => o.member === "canary-1")?.endTime as string;
    for (const entry of log.filter((o) => o.member !== "canary-1")) expect(Date.parse(entry.startTime) - Date.parse(canaryEnd)).toBeGreaterThanOrEqual(600_000);
  });
});
