/**
 * What the Azure backend says a region offers (`regionOffers.ts`): ARM lists only the newest node
 * image per family and upgrades only to it, so a region offers every version it reaches at or past —
 * its newest, the other regions' older newest (for Consistent), and the run's Custom versions that are
 * not newer — and nothing newer than its newest.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { AzureBackend } from "../../../src/backends/azure/azureBackend";
import { emulatorCredential } from "../../../src/backends/azure/credentials";
import { startArmEmulator, type ArmEmulator } from "../../../src/emulator";
import { FleetSchema } from "../../../src/model/fleet";

const OCT = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NOV = "AKSUbuntu-2204gen2containerd-202611.24.0";
const DEC = "AKSUbuntu-2204gen2containerd-202612.10.0";
const AZL = "AzureLinux-V2gen2-202611.20.0";
const ID = (name: string) => `/subscriptions/00000000-0000-0000-0000-000000000009/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/${name}`;

let emulator: ArmEmulator;
beforeAll(async () => {
  const member = (name: string, region: string, image = OCT) => ({ name, region, kubernetesVersion: "1.31.2", nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: image }] });
  emulator = await startArmEmulator({
    fleet: FleetSchema.parse({
      regions: {
        westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: OCT }, { version: NOV }, { version: DEC }, { version: AZL }] },
        eastus: { kubernetesVersions: [{ version: "1.31.2" }], nodeImages: [{ version: OCT }, { version: NOV }] },
      },
      members: [member("eu", "westeurope"), member("eu-azl", "westeurope", AZL), member("us", "eastus")],
    }),
    throttling: false,
  });
});
afterAll(async () => {
  await emulator.close();
});

function backend(customNodeImageVersions?: string[]): AzureBackend {
  return new AzureBackend({ credential: emulatorCredential, clock: emulator.clock, endpoint: emulator.url, trustedCaPem: emulator.certificatePem, ...(customNodeImageVersions ? { customNodeImageVersions } : {}) });
}

async function images(b: AzureBackend, region: string): Promise<string[]> {
  return (await b.getRegionOffer(region)).nodeImages.map((o) => o.version);
}

it("each region offers its newest image per family and the other regions' older newest; versions listed by ARM", async () => {
  const b = backend();
  for (const name of ["eu", "eu-azl", "us"]) await b.getCluster({ name, clusterResourceId: ID(name) });
  emulator.clearRequestLog();
  // westeurope's first offer also reads eastus's newest (once), so Consistent sees both.
  expect(await images(b, "westeurope")).toEqual([NOV, DEC, AZL]);
  expect(await images(b, "eastus")).toEqual([NOV]);
  // In ARM's order: AKS lists a location's versions newest first (test/fixtures/recordings/aks/).
  expect((await b.getRegionOffer("westeurope")).kubernetesVersions.map((v) => v.version)).toEqual(["1.32.0", "1.31.2"]);
  const listings = emulator.requests.filter((r) => r.path.endsWith("/nodeImageVersions")).map((r) => r.path.split("/")[6]);
  expect(listings).toEqual(["westeurope", "eastus", "eastus", "westeurope"]);
});

it("the run's Custom versions are offered where the region's newest of their family is at or past them", async () => {
  const b = backend([OCT, DEC]);
  for (const name of ["eu", "us"]) await b.getCluster({ name, clusterResourceId: ID(name) });
  expect(await images(b, "westeurope")).toEqual([OCT, NOV, DEC, AZL]);
  // eastus's newest is November: the December pick is not offered there (its members wait for it).
  expect(await images(b, "eastus")).toEqual([OCT, NOV]);
});
