/**
 * A Full upgrade as ARM shows it while it runs: the control plane first, then the node pools one at a
 * time (emulator `progress.ts`). Mid-upgrade a GET shows some pools on the new version, others still
 * on the old one.
 */
import { describe, expect, test } from "vitest";
import { progressAt } from "../../src/emulator/arm/progress";
import type { ClusterState, OperationRecord } from "../../src/backends/simulator/fleetState";
import { FleetSchema } from "../../src/model/fleet";
import { startArmEmulator } from "../../src/emulator";
import { IMAGE_NOV, IMAGE_OCT, RESOURCE_GROUP, clusterPath, raw, sdkClient } from "./helpers";

const MINUTE = 60_000;
const pool = (name: string, orchestratorVersion = "1.31.2", nodeImageVersion = IMAGE_OCT) => ({ name, orchestratorVersion, nodeImageVersion });
const state = (pools = [pool("system"), pool("user"), pool("batch")]): ClusterState => ({ kubernetesVersion: "1.31.2", nodePools: pools, operations: [], nextOperationNumber: 2 });
const fullUpgrade = (extra: Partial<OperationRecord> = {}): OperationRecord => ({
  operationId: "op-c-1",
  request: { type: "Full", kubernetesVersion: "1.32.0", nodeImageVersions: { system: IMAGE_NOV, user: IMAGE_NOV, batch: IMAGE_NOV } },
  startAt: 0,
  endAt: 40 * MINUTE,
  ...extra,
});

describe("progressAt", () => {
  test("a Full upgrade of three pools: four equal phases, control plane first, then each pool in order", () => {
    const at = (minute: number) => {
      const p = progressAt(state(), fullUpgrade(), minute * MINUTE);
      return [p.kubernetesVersion, ...p.nodePools.map((n) => `${n.name} ${n.orchestratorVersion} ${n.nodeImageVersion === IMAGE_NOV ? "nov" : "oct"}`), p.upgradingPool ?? "-"];
    };
    expect(at(5)).toEqual(["1.31.2", "system 1.31.2 oct", "user 1.31.2 oct", "batch 1.31.2 oct", "-"]);
    expect(at(15)).toEqual(["1.32.0", "system 1.31.2 oct", "user 1.31.2 oct", "batch 1.31.2 oct", "system"]);
    expect(at(25)).toEqual(["1.32.0", "system 1.32.0 nov", "user 1.31.2 oct", "batch 1.31.2 oct", "user"]);
    expect(at(35)).toEqual(["1.32.0", "system 1.32.0 nov", "user 1.32.0 nov", "batch 1.31.2 oct", "batch"]);
    expect(progressAt(state(), fullUpgrade(), 35 * MINUTE).movedPools).toEqual(["system", "user"]);
  });

  test("pools the upgrade does not change get no phase; an upgrade set to fail shows nothing moved", () => {
    const partly = state([pool("system", "1.32.0", IMAGE_NOV), pool("user")]);
    const op = fullUpgrade({ request: { type: "Full", kubernetesVersion: "1.32.0", nodeImageVersions: { user: IMAGE_NOV } }, endAt: 20 * MINUTE });
    expect(progressAt(partly, op, 15 * MINUTE)).toMatchObject({ kubernetesVersion: "1.32.0", movedPools: [], upgradingPool: "user" });
    const failing = progressAt(state(), fullUpgrade({ failWith: { code: "UpgradeFailed", message: "drain timed out" } }), 39 * MINUTE);
    expect(failing).toMatchObject({ kubernetesVersion: "1.31.2", movedPools: [] });
    expect(failing.upgradingPool).toBeUndefined();
  });

  test("ControlPlaneOnly moves no pool; NodeImageOnly has no control plane phase", () => {
    // The control plane is the whole upgrade: it shows moved when the operation ends.
    const cp = progressAt(state(), fullUpgrade({ request: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0", nodeImageVersions: {} } }), 39 * MINUTE);
    expect(cp).toMatchObject({ kubernetesVersion: "1.31.2", movedPools: [] });
    const images = progressAt(state(), fullUpgrade({ request: { type: "NodeImageOnly", nodeImageVersions: { user: IMAGE_NOV, batch: IMAGE_NOV } } }), 25 * MINUTE);
    expect(images).toMatchObject({ kubernetesVersion: "1.31.2", movedPools: ["user"], upgradingPool: "batch" });
  });
});

test("through ARM: mid-upgrade GETs show the target as current from the start (as AKS does), the states moving pool after pool; the eTag changes with each", async () => {
  const emulator = await startArmEmulator({
    fleet: FleetSchema.parse({
      regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: IMAGE_OCT }, { version: IMAGE_NOV }] } },
      members: [{ name: "multi", region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [pool("system"), pool("user"), pool("batch")], simulation: { upgradeMinutes: 40 } }],
    }),
    // Each read must land inside a 10-minute phase: at 250 ms a simulated minute a read has 1.25 s of real
    // time to arrive, enough on a loaded machine (the whole upgrade takes 10 s).
    msPerSimulatedMinute: 250,
    throttling: false,
  });
  try {
    const client = sdkClient(emulator);
    const before = await client.managedClusters.get(RESOURCE_GROUP, "multi");
    await client.managedClusters.createOrUpdate(RESOURCE_GROUP, "multi", {
      ...before,
      kubernetesVersion: "1.32.0",
      agentPoolProfiles: before.agentPoolProfiles?.map((p) => ({ ...p, orchestratorVersion: "1.32.0" })),
    }).submitted();
    const started = emulator.fleet.toState().clusters.multi?.operations[0]?.startAt as number;
    const seen: Array<{ phase: string; eTag: string }> = [];
    for (const minute of [25, 35]) {
      await emulator.clock.sleepUntil(started + minute * MINUTE);
      const res = await raw(emulator, "GET", clusterPath("multi"));
      const pools = res.body.properties.agentPoolProfiles.map((p: any) => `${p.name} ${p.orchestratorVersion}/${p.currentOrchestratorVersion} ${p.provisioningState}`);
      seen.push({ phase: [res.body.properties.provisioningState, res.body.properties.currentKubernetesVersion, ...pools].join(" | "), eTag: res.body.eTag });
    }
    expect(seen.map((s) => s.phase)).toEqual([
      // As AKS reports it, every pool's currentOrchestratorVersion is the target from the start; the states move pool by pool.
      "Upgrading | 1.32.0 | system 1.32.0/1.32.0 Succeeded | user 1.32.0/1.32.0 Upgrading | batch 1.32.0/1.32.0 Upgrading",
      "Upgrading | 1.32.0 | system 1.32.0/1.32.0 Succeeded | user 1.32.0/1.32.0 Succeeded | batch 1.32.0/1.32.0 Upgrading",
    ]);
    expect(seen[0]?.eTag).not.toBe(seen[1]?.eTag);
    await emulator.clock.sleepUntil(started + 41 * MINUTE);
    const after = await client.managedClusters.get(RESOURCE_GROUP, "multi");
    expect(after.provisioningState).toBe("Succeeded");
    expect(after.agentPoolProfiles?.map((p) => [p.currentOrchestratorVersion, p.nodeImageVersion])).toEqual([
      ["1.32.0", IMAGE_NOV],
      ["1.32.0", IMAGE_NOV],
      ["1.32.0", IMAGE_NOV],
    ]);
    expect(emulator.fleet.operationLog()).toMatchObject([{ member: "multi", kind: "Full", result: "Succeeded" }]);
  } finally {
    await emulator.close();
  }
});
