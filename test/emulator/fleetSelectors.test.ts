/**
 * Issue 22 on the emulator's Fleet Manager at 2026-06-02-preview, through its REST answers: fleet
 * members carry `labels` (from 2026-06-01), a run's groups are chosen by `memberSelector` over them when
 * the run is created (docs/rules.md §16), and a ScheduledStart gate holds its stage until the next
 * occurrence of its weekday and time on the emulator's clock, shows that instant on its gate resource
 * (`absoluteStartTime`), and opens at once when completed by PATCH (docs/rules.md §17).
 */
import { afterEach, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { FleetClient } from "../../src/backends/azureFleet/fleetClient";
import { fakeCredential, raw, RESOURCE_GROUP, SUBSCRIPTION } from "./helpers";
import { FLEET, FULL_132, fleetPath, startFleetEmulator } from "./fleetHelpers";

let emulator: ArmEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const PREVIEW = "2026-06-02-preview";
const at = (version: string, rest: string) => fleetPath(`${rest}?api-version=${version}`);

/** GET the run at the preview until `done` holds (or 10 s of real time pass). */
async function waitFor(run: string, done: (body: RunBody) => boolean): Promise<RunBody> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const body = (await raw(emulator as ArmEmulator, "GET", at(PREVIEW, `/updateRuns/${run}`))).body as RunBody;
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`run '${run}' did not get there: ${JSON.stringify(body.properties.status.status)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface RunBody {
  properties: {
    status: {
      status: { state: string };
      stages: Array<{ name: string; status: { state: string }; beforeGates?: Array<Record<string, unknown>>; groups: Array<{ name: string; status: { state: string }; members?: Array<{ name: string; status: { state: string; startTime?: string } }> }> }>;
    };
  };
}

async function label(member: string, labels: Record<string, string>, version = PREVIEW) {
  return raw(emulator as ArmEmulator, "PATCH", at(version, `/members/${member}`), { body: { properties: { labels } } });
}

describe("fleet members' labels and label-selected groups", () => {
  test("labels are set on the fleet member (from 2025-04-01-preview), shown with Fleet's five at the versions that have them, refused at one that has not", async () => {
    emulator = await startFleetEmulator();
    const system = {
      "fleet.azure.com/cluster-name": "prod-1",
      "fleet.azure.com/location": "westeurope",
      "fleet.azure.com/member-name": "prod-1",
      "fleet.azure.com/resource-group": RESOURCE_GROUP,
      "fleet.azure.com/subscription-id": SUBSCRIPTION,
    };
    expect((await label("prod-1", { tier: "web" })).body.properties.labels).toEqual({ tier: "web", ...system });
    expect((await raw(emulator, "GET", at("2026-06-01", "/members/prod-1"))).body.properties.labels).toEqual({ tier: "web", ...system });
    // Fleet's own labels cannot be changed: sent back (as `az fleet member reconcile` does) or changed, they stay Fleet's.
    expect((await label("prod-1", { tier: "api", "fleet.azure.com/location": "mars" }, "2025-04-01-preview")).body.properties.labels).toEqual({ tier: "api", ...system });
    expect((await raw(emulator, "GET", at("2025-03-01", "/members/prod-1"))).body.properties).not.toHaveProperty("labels");
    const older = await label("prod-1", { tier: "api" }, "2025-03-01");
    expect([older.status, older.body.error.details[0].target]).toEqual([400, "properties.labels"]);
    expect(older.body.error.message).toContain("it is in api-version 2025-04-01-preview");
    const bad = await label("prod-1", { "-tier": "web" });
    expect([bad.status, bad.body.error.details[0].target]).toEqual([400, "properties.labels.-tier"]);
  });

  test("written at 2025-04-01-preview by a member PUT (long-running: Joining, then Succeeded) and read back by our client at that version, with Fleet's five", async () => {
    emulator = await startFleetEmulator({ fleets: [{ name: FLEET, location: "westeurope", members: [] }] });
    const V = "2025-04-01-preview";
    const clusterResourceId = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/prod-2`;
    const put = await raw(emulator, "PUT", at(V, "/members/web-2"), { body: { properties: { clusterResourceId, group: "prod", labels: { team: "fleet", tier: "web" } } } });
    expect([put.status, put.body.properties.provisioningState, typeof put.headers["azure-asyncoperation"]]).toEqual([201, "Joining", "string"]);
    for (const deadline = Date.now() + 10_000; ; ) {
      const op = await raw(emulator, "GET", String(put.headers["azure-asyncoperation"]), { apiVersion: false });
      if (op.body.status === "Succeeded") break;
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const client = new FleetClient({ fleetId: fleetPath(), credential: fakeCredential, endpoint: emulator.url, trustedCaPem: emulator.certificatePem, apiVersion: V });
    expect(await client.listMembers()).toEqual([
      {
        name: "web-2",
        clusterResourceId,
        group: "prod",
        labels: {
          team: "fleet",
          tier: "web",
          "fleet.azure.com/cluster-name": "prod-2",
          "fleet.azure.com/location": "westeurope",
          "fleet.azure.com/member-name": "web-2",
          "fleet.azure.com/resource-group": RESOURCE_GROUP,
          "fleet.azure.com/subscription-id": SUBSCRIPTION,
        },
      },
    ]);
  });

  test("groups hold the members their selectors match, a stage's selector filters its groups' members, a member no group selects is left out", async () => {
    emulator = await startFleetEmulator();
    await label("prod-1", { tier: "web", env: "prod" });
    await label("prod-2", { tier: "web", env: "prod" });
    await label("prod-3", { tier: "web", env: "staging" });
    await label("dev-1", { tier: "api", env: "prod" });
    const strategy = {
      stages: [
        // No groups: one implicit group of every member that matches, two at a time.
        { name: "web", memberSelector: { byLabel: "tier=web, env=prod" }, maxConcurrency: "2" },
        { name: "rest", memberSelector: { byLabel: "env=prod" }, groups: [{ name: "api", memberSelector: { byLabel: "tier in (api)" } }, { name: "staging", memberSelector: { byLabel: "env=staging" } }, { name: "canary" }] },
      ],
    };
    const put = await raw(emulator, "PUT", at(PREVIEW, "/updateRuns/labels"), { body: { properties: { strategy, managedClusterUpdate: FULL_132 } } });
    expect(put.status).toBe(201);
    await raw(emulator, "POST", at(PREVIEW, "/updateRuns/labels/start"));
    const done = await waitFor("labels", (b) => b.properties.status.status.state === "Completed");
    const groups = done.properties.status.stages.map((s) => [s.name, s.groups.map((g) => [g.name, g.status.state, (g.members ?? []).map((m) => m.name).sort()])]);
    expect(groups).toEqual([
      ["web", [["web", "Completed", ["prod-1", "prod-2"]]]],
      // The stage's selector (env=prod) keeps prod-3 (staging) and canary-1 (no labels of ours) out of its groups.
      ["rest", [["api", "Completed", ["dev-1"]], ["staging", "Skipped", []], ["canary", "Skipped", []]]],
    ]);
    expect(emulator.fleet.operationLog().map((o) => o.member).sort()).toEqual(["dev-1", "prod-1", "prod-2"]);
    // Two at a time in the implicit group: prod-1 and prod-2 started together.
    const web = done.properties.status.stages[0]?.groups[0]?.members?.map((m) => m.status.startTime);
    expect(new Set(web).size).toBe(1);
  });

  test("a member two groups select is refused when the run is created, naming the member and both groups; nothing is created", async () => {
    emulator = await startFleetEmulator();
    await label("prod-1", { tier: "web", env: "prod" });
    const strategy = { stages: [{ name: "s", groups: [{ name: "web", memberSelector: { byLabel: "tier=web" } }, { name: "prod", memberSelector: { byLabel: "env=prod" } }] }] };
    const put = await raw(emulator, "PUT", at(PREVIEW, "/updateRuns/twice"), { body: { properties: { strategy, managedClusterUpdate: FULL_132 } } });
    expect(put.status).toBe(400);
    expect(put.body.error.target).toBe("properties.strategy.stages[0].groups[1].memberSelector.byLabel");
    expect(put.body.error.details[0].message).toBe("member 'prod-1' is selected by group 'web' (stages[0].groups[0]) and by group 'prod': a member belongs to one group of a run");
    expect((await raw(emulator, "GET", at(PREVIEW, "/updateRuns/twice"))).status).toBe(404);
  });
});

describe("ScheduledStart gates", () => {
  const TUESDAY_9_CET = { startDay: "Tuesday", startTime: "09:00", utcOffset: "+01:00" };
  const gated = (config: typeof TUESDAY_9_CET) => ({ stages: [{ name: "prod", beforeGates: [{ type: "ScheduledStart", displayName: "Production window", scheduledStartConfiguration: config }], groups: [{ name: "prod", maxConcurrency: "3" }] }] });

  test("the gate holds the stage until the next Tuesday 09:00 +01:00 on the emulator's clock; its gate resource shows that instant", async () => {
    // Tuesday 2026-12-08, 07:00 UTC: the gate opens a simulated hour after the start (3 s of real time
    // at 50 ms a simulated minute: room for a loaded machine to create and start the run before it).
    emulator = await startFleetEmulator({ startAt: "2026-12-08T07:00:00Z", msPerSimulatedMinute: 50 });
    await raw(emulator, "PUT", at(PREVIEW, "/updateRuns/window"), { body: { properties: { strategy: gated(TUESDAY_9_CET), managedClusterUpdate: FULL_132 } } });
    await raw(emulator, "POST", at(PREVIEW, "/updateRuns/window/start"));
    const gates = (await raw(emulator, "GET", at(PREVIEW, "/gates"))).body.value;
    expect(gates).toHaveLength(1);
    expect(gates[0].properties).toMatchObject({ gateType: "ScheduledStart", displayName: "Production window", scheduledStartProperties: { ...TUESDAY_9_CET, absoluteStartTime: "2026-12-08T08:00:00Z" } });
    expect(["Pending", "Completed"]).toContain(gates[0].properties.state);
    // A version without ScheduledStart gates shows no such gate resource.
    expect((await raw(emulator, "GET", at("2026-06-01", "/gates"))).body.value).toEqual([]);
    const done = await waitFor("window", (b) => b.properties.status.status.state === "Completed");
    // The run's status lists the gate as Fleet's does: no configuration, no instant.
    expect(Object.keys(done.properties.status.stages[0]?.beforeGates?.[0] ?? {}).sort()).toEqual(["displayName", "gateId", "status"]);
    const starts = done.properties.status.stages[0]?.groups[0]?.members?.map((m) => Date.parse(m.status.startTime ?? "")) ?? [];
    expect(starts).toHaveLength(3);
    for (const start of starts) expect(start).toBeGreaterThanOrEqual(Date.parse("2026-12-08T08:00:00Z"));
  });

  test("reached at 09:01 local on a Tuesday, it opens a week later; completing it by PATCH opens it at once", async () => {
    emulator = await startFleetEmulator({ startAt: "2026-12-08T08:01:00Z" });
    await raw(emulator, "PUT", at(PREVIEW, "/updateRuns/late"), { body: { properties: { strategy: gated(TUESDAY_9_CET), managedClusterUpdate: FULL_132 } } });
    await raw(emulator, "POST", at(PREVIEW, "/updateRuns/late/start"));
    const [gate] = (await raw(emulator, "GET", at(PREVIEW, "/gates"))).body.value;
    expect(gate.properties).toMatchObject({ state: "Pending", scheduledStartProperties: { absoluteStartTime: "2026-12-15T08:00:00Z" } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(emulator.fleet.operationLog()).toEqual([]);
    const patched = await raw(emulator, "PATCH", at(PREVIEW, `/gates/${gate.name}`), { body: { properties: { state: "Completed" } } });
    expect([patched.status, patched.body.properties.state]).toEqual([200, "Completed"]);
    const done = await waitFor("late", (b) => b.properties.status.status.state === "Completed");
    const starts = done.properties.status.stages[0]?.groups[0]?.members?.map((m) => Date.parse(m.status.startTime ?? "")) ?? [];
    for (const start of starts) expect(start).toBeLessThan(Date.parse("2026-12-09T00:00:00Z"));
  });
});
