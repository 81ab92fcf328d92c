/**
 * `UpdateRun` with the Azure backend, through the dynamic-provider host over gRPC, against the ARM
 * emulator: the real `@azure/arm-containerservice` client, HTTPS with the emulator's certificate.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../../src/emulator";
import { parseOrThrow } from "../../../src/model/issues";
import { FleetSchema } from "../../../src/model/fleet";
import type { UpdateRunStatus } from "../../../src/model/status";
import { UpdateRun } from "../../../src/pulumi";
import { captureDynamicInputs } from "../support/captureInputs";
import { startProviderHost, type PropertyMap, type ProviderHost } from "../support/providerHost";

const SUBSCRIPTION = "11111111-2222-3333-4444-555555555555";
const POOL = { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: "AKSUbuntu-2204gen2containerd-202610.01.0" };
const NAMES = ["aks-canary", "aks-eu-1", "aks-eu-2"];
const RUN_NAME = `azure-contract-${process.pid}`;

let emulator: ArmEmulator;
let host: ProviderHost;
let provider = "";
let caFile = "";

const idOf = (name: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/fleet-rg/providers/Microsoft.ContainerService/managedClusters/${name}`;

function inputs(overrides: Record<string, unknown> = {}): PropertyMap {
  return {
    __provider: provider,
    runName: RUN_NAME,
    backend: { azure: { endpoint: emulator.url, trustedCaFile: caFile, credential: "emulator", pollIntervalSeconds: { initial: 0.05, steady: 0.05 } } },
    members: [
      { name: "aks-canary", group: "canary", clusterResourceId: idOf("aks-canary") },
      { name: "aks-eu-1", group: "prod", clusterResourceId: idOf("aks-eu-1") },
      { name: "aks-eu-2", group: "prod", clusterResourceId: idOf("aks-eu-2") },
    ],
    strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }] }, { name: "prod", groups: [{ name: "prod" }] }] },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    timeoutMinutes: 2,
    ...overrides,
  } as PropertyMap;
}

beforeAll(async () => {
  const fleet = parseOrThrow(FleetSchema, {
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }] } },
    members: NAMES.map((name) => ({ name, region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [POOL] })),
  });
  emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 20, subscriptionId: SUBSCRIPTION, resourceGroup: "fleet-rg" });
  caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "arm-ca-")), "ca.pem");
  fs.writeFileSync(caFile, emulator.certificatePem);
  const [captured] = await captureDynamicInputs(() => {
    new UpdateRun("run", {
      backend: { azure: { endpoint: "https://127.0.0.1:1", credential: "emulator" } },
      members: [{ name: "aks-canary", clusterResourceId: idOf("aks-canary") }],
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    });
  });
  provider = captured!.provider;
  host = await startProviderHost();
  await host.configure();
}, 60_000);

afterAll(async () => {
  await host?.stop();
  await emulator?.close();
  fs.rmSync(path.join(__dirname, "..", "..", "..", ".fleet-update", "runs", `${RUN_NAME}.json`), { force: true });
});

describe("UpdateRun with the Azure backend against the ARM emulator", () => {
  it("Check requires clusterResourceId and refuses emulator credentials for a non-local endpoint", async () => {
    const { failures } = await host.check(RUN_NAME, {}, inputs({ members: [{ name: "aks-canary" }], strategy: undefined }));
    expect(failures).toEqual([{ property: "members[0].clusterResourceId", reason: "is required with the Azure backend" }]);
    const remote = await host.check(RUN_NAME, {}, inputs({ backend: { azure: { endpoint: "https://management.azure.com", credential: "emulator" } } }));
    expect(remote.failures).toEqual([{ property: "backend.azure.credential", reason: expect.stringContaining("only accepted with an endpoint on https://127.0.0.1") }]);
  });

  it("Create runs the staged upgrade through ARM to Completed; every cluster upgraded once", async () => {
    const { properties } = await host.create(RUN_NAME, inputs());
    const status = properties.status as unknown as UpdateRunStatus;
    expect(status.status.state).toBe("Completed");
    const members = status.stages.flatMap((s) => s.groups.flatMap((g) => g.members));
    expect(members.map((m) => [m.name, m.status.state, m.clusterResourceId])).toEqual(NAMES.map((n) => [n, "Completed", idOf(n)]));
    // The operation ids are the ARM operations' (the last segment of their status URLs).
    expect(members.map((m) => m.operationId)).toEqual(["op-aks-canary-1", "op-aks-eu-1-1", "op-aks-eu-2-1"]);
    expect(emulator.fleet.operationLog().map((op) => op.member).sort()).toEqual([...NAMES].sort());
    for (const cluster of emulator.fleet.snapshot().clusters) expect(cluster.kubernetesVersion).toBe("1.32.0");
    expect(emulator.counters.PUT).toBe(3);
  }, 120_000);
});
