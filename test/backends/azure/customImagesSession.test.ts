/**
 * A Custom node image older than the region's newest, through the provider's session with the Azure
 * backend: ARM only moves a pool to the newest image, so the session must tell the backend the run's
 * Custom versions (they count as offered where the newest is at or past them). Without that, the
 * member would wait forever for an image ARM never lists.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../../src/emulator";
import { parseOrThrow } from "../../../src/model/issues";
import { FleetSchema } from "../../../src/model/fleet";
import { create } from "../../../src/pulumi/provider/runProvider";
import { JOURNAL_DIRECTORY } from "../../../src/drivers/runRecords";

const SUB = "22222222-2222-3333-4444-555555555555";
const OCT = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NOV = "AKSUbuntu-2204gen2containerd-202611.24.0";
const DEC = "AKSUbuntu-2204gen2containerd-202612.10.0";
const RUN = `custom-images-${process.pid}`;
let emulator: ArmEmulator;
let caFile = "";

beforeAll(async () => {
  const fleet = parseOrThrow(FleetSchema, {
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }], nodeImages: [{ version: OCT }, { version: NOV }, { version: DEC }] } },
    members: [{ name: "aks-1", region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: OCT }] }],
  });
  emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 20, throttling: false, subscriptionId: SUB, resourceGroup: "rg" });
  caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "custom-ca-")), "ca.pem");
  fs.writeFileSync(caFile, emulator.certificatePem);
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  fs.rmSync(path.resolve(JOURNAL_DIRECTORY, `${RUN}.json`), { force: true });
});

it("Custom NOV while the region's newest is DEC: the run completes (the pool ends on DEC, at or past NOV)", async () => {
  const { outs } = await create({
    runName: RUN,
    backend: { azure: { endpoint: emulator.url, trustedCaFile: caFile, credential: "emulator", pollIntervalSeconds: { initial: 0.05, steady: 0.05 } } },
    members: [{ name: "aks-1", clusterResourceId: `/subscriptions/${SUB}/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks-1` }],
    managedClusterUpdate: { upgrade: { type: "NodeImageOnly" }, nodeImageSelection: { type: "Custom", customNodeImageVersions: [{ version: NOV }] } },
    timeoutMinutes: 0.5,
  });
  expect((outs.summary as { state: string }).state).toBe("Completed");
  const cluster = emulator.fleet.snapshot().clusters[0]!;
  expect(cluster.nodePools.map((p) => p.nodeImageVersion)).toEqual([DEC]);
  expect(cluster.operations).toHaveLength(1);
}, 60_000);
