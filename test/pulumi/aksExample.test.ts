/**
 * `examples/aks` under Pulumi's mocks, with its config pointing at the ARM emulator: the program's
 * resources go through their real providers, so the staged upgrade really runs through the Azure
 * backend over HTTPS.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunSummary, UpdateRunStatus } from "../../src";
import { startArmEmulator, type ArmEmulator } from "../../src/backends/azure/emulator";
import { parseOrThrow } from "../../src/model/common";
import { FleetSchema } from "../../src/model/fleet";
import { mockWithRealProviders, outputValue } from "./support/realProviderMocks";

const ROOT = path.resolve(__dirname, "../..");
const SUBSCRIPTION = "22222222-3333-4444-5555-666666666666";
const NAMES = ["canary-1", "prod-eu-1", "prod-eu-2", "prod-us-1"];
let emulator: ArmEmulator;
let program: { status: pulumi.Output<UpdateRunStatus>; summary: pulumi.Output<RunSummary> };


beforeAll(async () => {
  const pool = { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: "AKSUbuntu-2204gen2containerd-202610.01.0" };
  const fleet = parseOrThrow(FleetSchema, {
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }] } },
    members: NAMES.map((name) => ({ name, region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [pool] })),
  });
  emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 20, subscriptionId: SUBSCRIPTION, resourceGroup: "prod" });
  const caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aks-example-")), "ca.pem");
  fs.writeFileSync(caFile, emulator.certificatePem);
  const ids = NAMES.map((n) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/prod/providers/Microsoft.ContainerService/managedClusters/${n}`);
  process.env.PULUMI_CONFIG = JSON.stringify({
    "aks-fleet-update:clusterIds": JSON.stringify(ids),
    "aks-fleet-update:kubernetesVersion": "1.32.0",
    "aks-fleet-update:armEndpoint": emulator.url,
    "aks-fleet-update:trustedCaFile": caFile,
    "aks-fleet-update:credential": "emulator",
    "aks-fleet-update:canaryWaitSeconds": "0",
    "aks-fleet-update:pollSeconds": "0.05",
  });
  await mockWithRealProviders("aks-fleet-update");
  program = await import("../../examples/aks/index");
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  fs.rmSync(path.join(ROOT, ".fleet-update", "runs", "aks-upgrade.json"), { force: true });
});

it("upgrades the clusters from config through ARM, canary first, and exports status and summary", async () => {
  const [status, summary] = await Promise.all([outputValue(program.status), outputValue(program.summary)]);
  expect(summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 4, Completed: 4 } });
  expect(status.stages.map((s) => s.groups.map((g) => g.members.map((m) => m.name)))).toEqual([[["canary-1"]], [["prod-eu-1", "prod-eu-2", "prod-us-1"]]]);
  const canaryEnd = Date.parse(status.stages[0]!.status.completedTime!);
  for (const m of status.stages[1]!.groups[0]!.members) expect(Date.parse(m.status.startTime!)).toBeGreaterThanOrEqual(canaryEnd);
  expect(emulator.fleet.operationLog().map((op) => op.member).sort()).toEqual([...NAMES].sort());
}, 120_000);
