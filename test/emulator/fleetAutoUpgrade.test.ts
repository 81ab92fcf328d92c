/**
 * Issue 22: Fleet Manager's auto-upgrade profiles and `generateUpdateRun` in the emulator, over https,
 * and our client's three calls (profile with `disabled: true`, generate, delete) against it.
 *
 * The fleet: `we-1` in westeurope (offers 1.31.9, 1.31.10, 1.32.3, 1.32.5, 1.33.1; 1.34.0 only a
 * simulated hour after the start), `us-1` in eastus (1.31.9, 1.32.5). So Rapid is 1.33.1 (westeurope's),
 * Stable 1.32.5, TargetKubernetesVersion 1.31 is 1.31.10 (newer than 1.31.9 numerically).
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { FleetClient } from "../../src/backends/azureFleet/fleetClient";
import { WIRE_SCHEMAS, type FleetApiVersion } from "../../src/backends/azureFleet/wire";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { FleetSchema } from "../../src/model/fleet";
import { fakeCredential, IMAGE_NOV, IMAGE_OCT, raw, RESOURCE_GROUP, SUBSCRIPTION } from "./helpers";

const START = Date.parse("2026-09-01T08:00:00Z");
const FLEET_ID = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/fleets/fleet`;
const at = (version: string, rest: string) => `${FLEET_ID}${rest}?api-version=${version}`;
const V = "2026-06-01";

function twoRegionFleet() {
  const cluster = (name: string, region: string, group: string) => ({
    name,
    group,
    region,
    kubernetesVersion: "1.31.9",
    nodePools: [{ name: "system", orchestratorVersion: "1.31.9", nodeImageVersion: IMAGE_OCT }],
  });
  const images = [{ version: IMAGE_OCT }, { version: IMAGE_NOV }];
  return FleetSchema.parse({
    regions: {
      westeurope: {
        kubernetesVersions: ["1.31.9", "1.31.10", "1.32.3", "1.32.5", "1.33.1"].map((version) => ({ version })).concat([{ version: "1.34.0", availableAt: new Date(START + 3_600_000).toISOString() } as never]),
        nodeImages: images,
      },
      eastus: { kubernetesVersions: [{ version: "1.31.9" }, { version: "1.32.5" }], nodeImages: images },
    },
    members: [cluster("we-1", "westeurope", "canary"), cluster("us-1", "eastus", "prod")],
  });
}

let emulator: ArmEmulator;
beforeEach(async () => {
  // 10 ms per simulated minute: a 10-minute upgrade takes 0.1 s.
  emulator = await startArmEmulator({ fleet: twoRegionFleet(), msPerSimulatedMinute: 10, throttling: false, startAt: START });
});
afterEach(async () => {
  await emulator.close();
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
function example(version: string, file: string): { parameters: Record<string, Json>; responses: Record<string, { body?: Json; headers?: Record<string, string> }> } {
  return JSON.parse(fs.readFileSync(path.join(__dirname, "../fixtures/fleet-examples", version, file), "utf8"));
}

const kind = (x: unknown) => (x === null ? "null" : Array.isArray(x) ? "array" : typeof x);
/** Where `actual` differs in shape from `expected` (fields and JSON types; values differ). `nextLink` is paging. */
function shapeDiff(expected: unknown, actual: unknown, at = ""): string[] {
  if (kind(expected) !== kind(actual)) return [`${at || "(root)"}: ${kind(expected)} in the example, ${kind(actual)} here`];
  if (Array.isArray(expected) && Array.isArray(actual)) return expected.slice(0, actual.length).flatMap((e, i) => shapeDiff(e, actual[i], `${at}[${i}]`));
  if (kind(expected) !== "object") return [];
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const k = (name: string) => (at === "" ? name : `${at}.${name}`);
  return [
    ...Object.keys(e).flatMap((name) => (name === "nextLink" ? [] : name in a ? shapeDiff(e[name], a[name], k(name)) : [`${k(name)}: in the example, missing here`])),
    ...Object.keys(a).flatMap((name) => (name in e ? [] : [`${k(name)}: here, not in the example`])),
  ];
}

function wireProblems(version: FleetApiVersion, body: unknown): string[] {
  const result = (WIRE_SCHEMAS[version].AutoUpgradeProfile as NonNullable<(typeof WIRE_SCHEMAS)[FleetApiVersion]["AutoUpgradeProfile"]>).safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

async function putStrategy(): Promise<string> {
  const strategy = { stages: [{ name: "canary", groups: [{ name: "canary" }] }, { name: "prod", groups: [{ name: "prod" }] }] };
  expect((await raw(emulator, "PUT", at(V, "/updateStrategies/two-stages"), { body: { properties: { strategy } } })).status).toBe(201);
  return `${FLEET_ID}/updateStrategies/two-stages`;
}

async function putProfile(name: string, properties: Record<string, unknown>, version = V) {
  return raw(emulator, "PUT", at(version, `/autoUpgradeProfiles/${name}`), { body: { properties } });
}

/** generateUpdateRun, then the generated run's GET. */
async function generate(name: string, version = V) {
  const generated = await raw(emulator, "POST", at(version, `/autoUpgradeProfiles/${name}/generateUpdateRun`));
  expect(generated.status, JSON.stringify(generated.body)).toBe(200);
  const runName = String(generated.body.id).split("/").at(-1) as string;
  expect(generated.body.id).toBe(`${FLEET_ID}/updateRuns/${runName}`);
  return (await raw(emulator, "GET", at(version, `/updateRuns/${runName}`))).body;
}

describe("generateUpdateRun: the channel's version among those offered in the members' regions", () => {
  test.each([
    ["Rapid", {}, { type: "Full", kubernetesVersion: "1.33.1" }],
    ["Stable", {}, { type: "Full", kubernetesVersion: "1.32.5" }],
    ["TargetKubernetesVersion", { targetKubernetesVersion: "1.31" }, { type: "Full", kubernetesVersion: "1.31.10" }],
    ["NodeImage", {}, { type: "NodeImageOnly" }],
    ["SecurityPatch", {}, { type: "NodeImageOnly" }],
  ])("%s", async (channel, extra, upgrade) => {
    // SecurityPatch is a channel of 2026-06-02-preview only.
    const apiVersion = channel === "SecurityPatch" ? "2026-06-02-preview" : V;
    expect((await putProfile("aup", { channel, disabled: true, ...extra }, apiVersion)).status).toBe(201);
    const run = await generate("aup", apiVersion);
    // Named as Fleet names them: auto-<profile>-<channel>-<version>-<suffix> (test_fleet_hubless).
    const version = (upgrade as { kubernetesVersion?: string }).kubernetesVersion;
    expect(run.name).toMatch(new RegExp(`^auto-aup-${channel.toLowerCase()}${version === undefined ? "" : `-${version.replace(/\./g, "-")}`}-[0-9a-z]{7}$`));
    expect(run.properties.managedClusterUpdate).toEqual({ upgrade, nodeImageSelection: { type: "Latest" } });
    expect(run.properties.autoUpgradeProfileId).toBe(`${FLEET_ID}/autoUpgradeProfiles/aup`);
    expect(run.properties.status.status.state).toBe("NotStarted");
    // No strategy on the profile: every member, one stage, one group (Fleet's default run).
    expect(run.properties.status.stages).toHaveLength(1);
    expect(run.properties.status.stages[0].groups[0].members.map((m: { name: string }) => m.name).sort()).toEqual(["us-1", "we-1"]);
  });

  test("the profile's strategy is copied into the run, and its Consistent selection kept", async () => {
    const updateStrategyId = await putStrategy();
    expect((await putProfile("aup", { channel: "Stable", updateStrategyId, nodeImageSelection: { type: "Consistent" }, disabled: true })).status).toBe(201);
    const run = await generate("aup");
    expect(run.properties.updateStrategyId).toBe(updateStrategyId);
    expect(run.properties.strategy.stages.map((s: { name: string }) => s.name)).toEqual(["canary", "prod"]);
    expect(run.properties.managedClusterUpdate).toEqual({ upgrade: { type: "Full", kubernetesVersion: "1.32.5" }, nodeImageSelection: { type: "Consistent" } });
    // A second call makes a second run.
    const second = (await generate("aup")).name;
    expect(second).toMatch(/^auto-aup-stable-1-32-5-[0-9a-z]{7}$/);
    expect(second).not.toBe(run.name);
  });

  test("no version qualifies: 400 naming the profile's field, and no run", async () => {
    expect((await putProfile("old", { channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.30", disabled: true })).status).toBe(201);
    const refused = await raw(emulator, "POST", at(V, "/autoUpgradeProfiles/old/generateUpdateRun"));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: "NoQualifyingVersion",
      target: "properties.targetKubernetesVersion",
      message: "properties.targetKubernetesVersion: no generally available patch of 1.30 is offered in regions eastus, westeurope",
    });
    expect((await raw(emulator, "GET", at(V, "/updateRuns"))).body.value).toEqual([]);
  });
});

describe("a profile makes runs only through generateUpdateRun", () => {
  test("a disabled profile starts nothing, even when a new version comes out; its generated run waits NotStarted", async () => {
    expect((await putProfile("aup", { channel: "Rapid", disabled: true })).status).toBe(201);
    // 1.34.0 comes out a simulated hour after the start: 0.6 s of real time here.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await raw(emulator, "GET", at(V, "/updateRuns"))).body.value).toEqual([]);
    const run = await generate("aup");
    expect(run.properties.managedClusterUpdate.upgrade.kubernetesVersion).toBe("1.34.0");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await raw(emulator, "GET", at(V, `/updateRuns/${run.name}`))).body.properties.status.status.state).toBe("NotStarted");
  });
});

describe("requests checked like the other routes", () => {
  test("the swagger's rules, naming the field", async () => {
    const missing = await putProfile("aup", { channel: "TargetKubernetesVersion" });
    expect([missing.status, missing.body.error.target]).toEqual([400, "properties.targetKubernetesVersion"]);
    const badFormat = await putProfile("aup", { channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.31.2" });
    expect(badFormat.body.error.message).toBe('properties.targetKubernetesVersion: must be major.minor, such as 1.30 (got "1.31.2")');
    const lts = await putProfile("aup", { channel: "Stable", longTermSupport: true });
    expect([lts.status, lts.body.error.target]).toEqual([400, "properties.longTermSupport"]);
    const unknownStrategy = await putProfile("aup", { channel: "Stable", updateStrategyId: `${FLEET_ID}/updateStrategies/nope` });
    expect([unknownStrategy.status, unknownStrategy.body.error.target]).toEqual([400, "properties.updateStrategyId"]);
    expect((await raw(emulator, "GET", at(V, "/autoUpgradeProfiles"))).body.value).toEqual([]);
  });

  test("create-only fields cannot change", async () => {
    expect((await putProfile("aup", { channel: "Stable" })).status).toBe(201);
    const changed = await putProfile("aup", { channel: "Stable", nodeImageSelection: { type: "Consistent" } });
    expect([changed.status, changed.body.error.target]).toEqual([400, "properties.nodeImageSelection.type"]);
    expect((await putProfile("aup", { channel: "Rapid", disabled: true })).status).toBe(200);
  });

  test("by api-version: TargetKubernetesVersion and longTermSupport from 2025-04-01-preview, with generateUpdateRun (as Fleet answered it live)", async () => {
    const old = await putProfile("aup", { channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.31" }, "2025-03-01");
    expect(old.status).toBe(400);
    expect(old.body.error.details.map((d: { target: string; message: string }) => `${d.target}: ${d.message}`)).toEqual([
      'properties.channel: the value "TargetKubernetesVersion" is not valid for UpgradeChannel at api-version 2025-03-01 (it is in api-version 2025-04-01-preview); allowed: Stable, Rapid, NodeImage',
      "properties.targetKubernetesVersion: Could not find member 'targetKubernetesVersion' on object of type 'AutoUpgradeProfileProperties' at api-version 2025-03-01; it is in api-version 2025-04-01-preview",
    ]);
    const security = await putProfile("aup", { channel: "SecurityPatch" }, "2026-06-01");
    expect(security.body.error.details.map((d: { message: string }) => d.message)).toEqual([
      'the value "SecurityPatch" is not valid for UpgradeChannel at api-version 2026-06-01 (it is in api-version 2026-06-02-preview); allowed: Stable, Rapid, NodeImage, TargetKubernetesVersion',
    ]);
    const P = "2025-04-01-preview";
    const put = await putProfile("aup", { channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.31", longTermSupport: true, disabled: false }, P);
    expect([put.status, put.body.properties]).toEqual([201, { provisioningState: "Succeeded", channel: "TargetKubernetesVersion", disabled: false, targetKubernetesVersion: "1.31", longTermSupport: true }]);
    const generated = await raw(emulator, "POST", at(P, "/autoUpgradeProfiles/aup/generateUpdateRun"));
    expect([generated.status, Object.keys(generated.headers).filter((h) => h === "azure-asyncoperation" || h === "location")]).toEqual([200, []]);
    expect(generated.body.id).toMatch(/\/updateRuns\/auto-aup-targetkubernetesversion-1-31-10-[0-9a-z]{7}$/);
  });
});

describe("wire bodies as Fleet's examples", () => {
  test("create (2025-03-01), get and list (2026-06-02-preview), delete (2026-06-01), generateUpdateRun (2026-06-02-preview)", async () => {
    const create = example("2025-03-01", "AutoUpgradeProfiles_CreateOrUpdate.json");
    const created = await raw(emulator, "PUT", at("2025-03-01", "/autoUpgradeProfiles/autoupgradeprofile1"), { body: create.parameters.resource });
    expect(Object.keys(create.responses)).toContain(String(created.status));
    expect(shapeDiff(create.responses["201"]?.body, created.body)).toEqual([]);
    expect(wireProblems("2025-03-01", created.body)).toEqual([]);

    const P = "2026-06-02-preview";
    const get = example(P, "AutoUpgradeProfiles_Get.json");
    const getBody = get.responses["200"]?.body as { properties: Record<string, Json> };
    const updateStrategyId = await putStrategy();
    expect((await putProfile("autoupgradeprofile2", { channel: "Stable", updateStrategyId, nodeImageSelection: { type: "Latest" }, disabled: true }, P)).status).toBe(201);
    const got = await raw(emulator, "GET", at(P, "/autoUpgradeProfiles/autoupgradeprofile2"));
    expect(shapeDiff(getBody, got.body)).toEqual([]);
    expect(wireProblems(P, got.body)).toEqual([]);
    expect(got.headers.etag).toBe(got.body.eTag);

    const listExample = example(P, "AutoUpgradeProfiles_ListByFleet.json");
    const listed = await raw(emulator, "GET", at(P, "/autoUpgradeProfiles"));
    expect(listed.body.value.map((p: { name: string }) => p.name)).toEqual(["autoupgradeprofile1", "autoupgradeprofile2"]);
    expect(shapeDiff(listExample.responses["200"]?.body, { value: [listed.body.value[1]] })).toEqual([]);

    const generateExample = example(P, "AutoUpgradeProfileOperations_GenerateUpdateRun.json");
    const generated = await raw(emulator, "POST", at(P, "/autoUpgradeProfiles/autoupgradeprofile2/generateUpdateRun"));
    expect(Object.keys(generateExample.responses)).toContain(String(generated.status));
    expect(shapeDiff(generateExample.responses["200"]?.body, generated.body)).toEqual([]);
    expect((WIRE_SCHEMAS[P].GenerateResponse as NonNullable<(typeof WIRE_SCHEMAS)[FleetApiVersion]["GenerateResponse"]>).safeParse(generated.body).success).toBe(true);
    const run = await raw(emulator, "GET", at(P, `/updateRuns/${String(generated.body.id).split("/").at(-1)}`));
    expect(WIRE_SCHEMAS[P].UpdateRun.safeParse(run.body).success).toBe(true);

    const del = example("2026-06-01", "AutoUpgradeProfiles_Delete.json");
    const deleted = await raw(emulator, "DELETE", at("2026-06-01", "/autoUpgradeProfiles/autoupgradeprofile1"));
    expect(Object.keys(del.responses)).toContain(String(deleted.status));
    // The example shows 202; the live service answered 204 at once (test_fleet_hubless): Azure's answer wins.
    expect(deleted.status).toBe(204);
    expect((await raw(emulator, "DELETE", at("2026-06-01", "/autoUpgradeProfiles/autoupgradeprofile1"))).status).toBe(204);
    expect((await raw(emulator, "GET", at("2026-06-01", "/autoUpgradeProfiles/autoupgradeprofile1"))).status).toBe(404);
  });
});

describe("our client (FleetClient): profile disabled, generate, start, follow to the end, delete", () => {
  test("the generated run is started and runs to completion", async () => {
    const client = new FleetClient({ fleetId: FLEET_ID, credential: fakeCredential, endpoint: emulator.url, trustedCaPem: emulator.certificatePem, apiVersion: "2026-06-01", lroIntervalMs: 10 });
    const profile = await client.putAutoUpgradeProfile("fleet-update-run1", { channel: "Stable", nodeImageSelection: { type: "Latest" } });
    expect(profile.properties).toMatchObject({ channel: "Stable", disabled: true });
    const { name, id } = await client.generateUpdateRun("fleet-update-run1");
    expect(name).toMatch(/^auto-fleet-update-run1-stable-1-32-5-[0-9a-z]{7}$/);
    expect(id).toBe(client.runId(name));
    expect(await client.runsGeneratedBy("fleet-update-run1")).toEqual([name]);
    await client.startRun(name);
    const deadline = Date.now() + 10_000;
    let state = "";
    while (Date.now() < deadline) {
      const run = await client.getRun(name);
      state = run?.properties?.status?.status?.state ?? "";
      if (state === "Completed" || state === "Failed") break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(state).toBe("Completed");
    const clusters = await Promise.all(["we-1", "us-1"].map((c) => raw(emulator, "GET", `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/${c}`)));
    expect(clusters.map((c) => c.body.properties.currentKubernetesVersion)).toEqual(["1.32.5", "1.32.5"]);

    await client.deleteAutoUpgradeProfile("fleet-update-run1");
    await client.deleteAutoUpgradeProfile("fleet-update-run1"); // already gone: nothing
    expect((await raw(emulator, "GET", at(V, "/autoUpgradeProfiles"))).body.value).toEqual([]);
    // The run it generated stays, a run of the fleet.
    expect((await client.getRun(name))?.properties?.status?.status?.state).toBe("Completed");
  });

  test("at 2025-04-01-preview too (as the live service takes it): a TargetKubernetesVersion profile with longTermSupport, generated and started", async () => {
    const legacy = new FleetClient({ fleetId: FLEET_ID, credential: fakeCredential, endpoint: emulator.url, trustedCaPem: emulator.certificatePem, apiVersion: "2025-04-01-preview", lroIntervalMs: 10 });
    const profile = await legacy.putAutoUpgradeProfile("p", { channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.31", longTermSupport: true });
    expect(profile.properties).toMatchObject({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.31", longTermSupport: true, disabled: true });
    const { name } = await legacy.generateUpdateRun("p");
    expect(name).toMatch(/^auto-p-targetkubernetesversion-1-31-10-[0-9a-z]{7}$/);
    expect((await legacy.getRun(name))?.properties?.managedClusterUpdate?.upgrade).toEqual({ type: "Full", kubernetesVersion: "1.31.10" });
  });
});
