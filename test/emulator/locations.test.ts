/** Region offers, upgrade profiles and maintenance configurations through the real SDK. */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { AUTO_UPGRADE_WINDOW, RESOURCE_GROUP, SUBSCRIPTION, clusterPath, raw, sdkClient, startTestEmulator } from "./helpers";

let emulator: ArmEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator.close();
});

test("kubernetesVersions lists what the region offers now, by minor, newest first as AKS does, with upgrades one minor ahead", async () => {
  const list = await sdkClient(emulator).managedClusters.listKubernetesVersions("westeurope");
  expect(list.values?.map((v) => v.version)).toEqual(["1.32", "1.31", "1.30"]); // 1.33.1 comes in 2099
  expect(list.values?.[1]).toMatchObject({ version: "1.31", isDefault: true, capabilities: { supportPlan: ["KubernetesOfficial"] }, patchVersions: { "1.31.2": { upgrades: ["1.32.0"] } } });
  expect(list.values?.[2]?.patchVersions).toEqual({ "1.30.5": { upgrades: ["1.31.2"] } });
  const unknown = await raw(emulator, "GET", `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.ContainerService/locations/mars/kubernetesVersions`);
  expect(unknown.status).toBe(404);
  const spaced = await raw(emulator, "GET", `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.ContainerService/locations/West%20Europe/kubernetesVersions`);
  expect(spaced.status).toBe(200);
});

test("nodeImageVersions lists the newest image of each family offered now, split as in NodeImageVersions_List.json", async () => {
  const res = await raw(emulator, "GET", `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.ContainerService/locations/westeurope/nodeImageVersions?api-version=2026-06-02-preview`);
  expect(res.status).toBe(200);
  // ARM: "Only returns the latest version of each node image" (202610.01.0 is offered, but not listed).
  expect(res.body.value).toEqual([
    { fullName: "AKSUbuntu-2204gen2containerd-202611.24.0", os: "AKSUbuntu", sku: "2204gen2containerd", version: "202611.24.0" },
    { fullName: "AKSAzureLinux-V2gen2-202611.20.0", os: "AKSAzureLinux", sku: "V2gen2", version: "202611.20.0" },
  ]);
});

test("the cluster upgrade profile", async () => {
  const profile = await sdkClient(emulator).managedClusters.getUpgradeProfile(RESOURCE_GROUP, "beta");
  expect(profile).toMatchObject({
    name: "default",
    controlPlaneProfile: { kubernetesVersion: "1.31.2", osType: "Linux", upgrades: [{ kubernetesVersion: "1.32.0" }] },
    agentPoolProfiles: [{ name: "system", kubernetesVersion: "1.31.2", upgrades: [{ kubernetesVersion: "1.32.0" }] }],
  });
});

test("maintenance configurations: get by name, list, 404 with an ARM body when absent", async () => {
  const client = sdkClient(emulator);
  const config = await client.maintenanceConfigurations.get(RESOURCE_GROUP, "alpha", "aksManagedAutoUpgradeSchedule");
  expect(config).toMatchObject({
    id: `${clusterPath("alpha")}/maintenanceConfigurations/aksManagedAutoUpgradeSchedule`,
    name: "aksManagedAutoUpgradeSchedule",
    maintenanceWindow: AUTO_UPGRADE_WINDOW.maintenanceWindow,
  });
  const listed: string[] = [];
  for await (const c of client.maintenanceConfigurations.listByManagedCluster(RESOURCE_GROUP, "alpha")) listed.push(c.name ?? "");
  expect(listed).toEqual(["aksManagedAutoUpgradeSchedule"]);
  const error = await client.maintenanceConfigurations.get(RESOURCE_GROUP, "alpha", "aksManagedNodeOSUpgradeSchedule").then(
    () => undefined,
    (e: { statusCode?: number; code?: string }) => e,
  );
  expect(error).toMatchObject({ statusCode: 404, code: "NotFound" });
  const none: string[] = [];
  for await (const c of client.maintenanceConfigurations.listByManagedCluster(RESOURCE_GROUP, "beta")) none.push(c.name ?? "");
  expect(none).toEqual([]);
});
