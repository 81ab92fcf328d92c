/**
 * The official examples of Fleet Manager's REST specification (copies under
 * `test/fixtures/fleet-examples/<api-version>/`, each with its `_source`), replayed against the
 * emulator: each request is accepted with one of the example's status codes, and the answer has the
 * example's fields with the same JSON types (values such as ids, names, times and eTags differ), and
 * nothing the version does not define (checked with the version's wire schemas).
 *
 * What the replay changes, and why:
 * - 2026-06-01: the stored copy of the specification has no create, get, start, skip or gate example
 *   for this version (only UpdateStrategies_Get / _ListByFleet / _Delete, UpdateRuns_ListByFleet /
 *   _Stop). The creates are sent with the bodies those examples show (the read-only fields left out),
 *   and a 2026-06-01 gate is compared with the 2026-06-02-preview gate examples, whose Approval gate has
 *   the same definition but for `scheduledStartProperties` (absent on Approval gates).
 * - 2026-06-02-preview: the examples are replayed with their `memberSelector`s and ScheduledStart gate
 *   (issue 22): fleet1's members carry the labels the examples select by (`tier=frontend`,
 *   `env=production`). UpdateRuns_CreateOrUpdate sets both `updateStrategyId` and `strategy`, which
 *   the same swagger calls invalid ("Setting both ... is invalid"): the replay sends the strategy only.
 *   The ScheduledStart gate resource is compared with Gates_ListByFleet's ScheduledStart gate.
 * - Kubernetes 1.26.1 is not offered by the emulated region: runs target 1.32.0 (a value, not a shape).
 * 2025-04-01-preview's Gates_Get is replayed too: its example predates the swagger's in-place update, and
 * the live service (test/conformance/fleetHubless.test.ts) answers the later shape, as the emulator does.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { z } from "zod";
import { WIRE_SCHEMAS, type FleetApiVersion } from "../../src/backends/azureFleet/wire";
import type { ArmEmulator } from "../../src/emulator";
import { groupedFleet } from "./fleetHelpers";
import { raw, RESOURCE_GROUP, SUBSCRIPTION } from "./helpers";
import { startArmEmulator } from "../../src/emulator";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Example {
  parameters: Record<string, Json>;
  responses: Record<string, { body?: Json; headers?: Record<string, string> }>;
}

function example(version: string, file: string): Example {
  return JSON.parse(fs.readFileSync(path.join(__dirname, "../fixtures/fleet-examples", version, file), "utf8")) as Example;
}

/**
 * Fields whose presence depends on where the run is, not on the shape: started, finished, reached,
 * failed, paged; and a gate's `group`, set for a group's gates only.
 */
const STATE_DEPENDENT = /(\.startTime|\.completedTime|\.gateId|\.error|\.operationId|\.message|^nextLink|\.updateRunProperties\.group)$/;

/**
 * Where the live service (the recorded `test_fleet_hubless`, test/conformance/) answers otherwise than
 * these examples, and the emulator answers as the service: a run's `status.nodeImageSelection` is `{}`
 * for Latest; a gate Fleet made has no `systemData` until a user writes it (its PATCH).
 */
const LIVE_ANSWER = /(^|\.)properties\.status\.nodeImageSelection$|^(value\[\d+\]\.)?systemData$/;

function kind(x: unknown): string {
  return x === null ? "null" : Array.isArray(x) ? "array" : typeof x;
}

/** Where `actual` differs in shape from `expected`: a missing or extra field, or another JSON type. */
function shapeDiff(expected: unknown, actual: unknown, at = ""): string[] {
  if (LIVE_ANSWER.test(at)) return [];
  if (kind(expected) !== kind(actual)) return STATE_DEPENDENT.test(at) ? [] : [`${at || "(root)"}: ${kind(expected)} in the example, ${kind(actual)} here`];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.min(expected.length, actual.length);
    return Array.from({ length: n }, (_, i) => shapeDiff(expected[i], actual[i], `${at}[${i}]`)).flat();
  }
  if (kind(expected) !== "object") return [];
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const key = (k: string) => (at === "" ? k : `${at}.${k}`);
  return [
    ...Object.keys(e).flatMap((k) => (k in a ? shapeDiff(e[k], a[k], key(k)) : STATE_DEPENDENT.test(key(k)) || LIVE_ANSWER.test(key(k)) ? [] : [`${key(k)}: in the example, missing here`])),
    ...Object.keys(a).flatMap((k) => (k in e || STATE_DEPENDENT.test(key(k)) || LIVE_ANSWER.test(key(k)) ? [] : [`${key(k)}: here, not in the example`])),
  ];
}

/** `value` without `updateStrategyId` (see the header: the examples set it beside an inline strategy). */
function withoutStrategyReference<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutStrategyReference) as T;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== "updateStrategyId") out[k] = withoutStrategyReference(v);
  return out as T;
}

function checkWire(version: FleetApiVersion, schema: (s: (typeof WIRE_SCHEMAS)[FleetApiVersion]) => z.ZodType, body: unknown): void {
  const result = schema(WIRE_SCHEMAS[version]).safeParse(body);
  expect(result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`), "the version's definitions").toEqual([]);
}

const FULL_132 = { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Latest" } };
const FLEET1 = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/fleets/fleet1`;
const at = (version: string, rest: string) => `${FLEET1}${rest}${rest.includes("?") ? "&" : "?"}api-version=${version}`;

let emulator: ArmEmulator;
beforeEach(async () => {
  // fleet1: member-one in group-a (canary-1, tier=frontend), member-two in group-b (prod-1,
  // env=production), the labels the 2026-06-02-preview examples select by; upgrades take 10 simulated
  // minutes, 1 s of real time (100 ms per simulated minute), so a stop finds one in flight.
  emulator = await startArmEmulator({
    fleet: groupedFleet(),
    msPerSimulatedMinute: 100,
    throttling: false,
    fleets: [
      {
        name: "fleet1",
        members: [
          { name: "member-one", cluster: "canary-1", group: "group-a", labels: { tier: "frontend" } },
          { name: "member-two", cluster: "prod-1", group: "group-b", labels: { env: "production" } },
        ],
      },
    ],
  });
});
afterEach(async () => {
  await emulator.close();
});

async function waitFor(version: string, run: string, done: (body: { properties: { status: { status: { state: string } } } }) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const got = await raw(emulator, "GET", at(version, `/updateRuns/${run}`));
    if (done(got.body)) return got;
    if (Date.now() > deadline) throw new Error(`run ${run}: ${JSON.stringify(got.body.properties.status.status)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("2026-06-01", () => {
  const V = "2026-06-01";

  test("update strategies: create (with the Get example's body), get, list, delete", async () => {
    const get = example(V, "UpdateStrategies_Get.json");
    const strategy = (get.responses["200"]?.body as { properties: { strategy: Json } }).properties.strategy;
    const put = await raw(emulator, "PUT", at(V, "/updateStrategies/strategy1"), { body: { properties: { strategy } } });
    expect(put.status).toBe(201);
    expect(shapeDiff(get.responses["200"]?.body, put.body)).toEqual([]);
    checkWire(V, (s) => s.FleetUpdateStrategy, put.body);

    const got = await raw(emulator, "GET", at(V, "/updateStrategies/strategy1"));
    expect(got.status).toBe(200);
    expect(shapeDiff(get.responses["200"]?.body, got.body)).toEqual([]);
    expect(got.body.properties.strategy).toEqual(strategy);

    const list = example(V, "UpdateStrategies_ListByFleet.json");
    const listed = await raw(emulator, "GET", at(V, "/updateStrategies"));
    expect(listed.status).toBe(200);
    expect(shapeDiff(list.responses["200"]?.body, listed.body)).toEqual([]);

    const del = example(V, "UpdateStrategies_Delete.json");
    const deleted = await raw(emulator, "DELETE", at(V, "/updateStrategies/strategy1"));
    expect(Object.keys(del.responses)).toContain(String(deleted.status));
    expect(deleted.status).toBe(200);
    const again = await raw(emulator, "DELETE", at(V, "/updateStrategies/strategy1"));
    expect(again.status).toBe(204);
  });

  test("update runs: create, start, list (waiting at a gate), gates get and update", async () => {
    const list = example(V, "UpdateRuns_ListByFleet.json");
    const listed0 = (list.responses["200"]?.body as { value: Array<{ properties: { strategy: Json } }> }).value[0];
    const put = await raw(emulator, "PUT", at(V, "/updateRuns/run1"), { body: { properties: { strategy: listed0?.properties.strategy ?? null, managedClusterUpdate: FULL_132 } } });
    expect(put.status).toBe(201);
    checkWire(V, (s) => s.UpdateRun, put.body);
    // Not started: no gate is reached, so none has a gateId, and no gate resource exists yet.
    expect(put.body.properties.status.stages[0].beforeGates).toEqual([{ displayName: "gate before stage1", status: { state: "NotStarted" } }]);
    expect((await raw(emulator, "GET", at(V, "/gates"))).body.value).toEqual([]);

    // As the live service answers (test_fleet_hubless): 200 with the run as it was when the start was taken.
    const start = await raw(emulator, "POST", at(V, "/updateRuns/run1/start"));
    expect([start.status, start.body.properties.status.status.state]).toEqual([200, "NotStarted"]);
    const waiting = await waitFor(V, "run1", (b) => b.properties.status.status.state === "Pending");
    const listed = await raw(emulator, "GET", at(V, "/updateRuns"));
    expect(shapeDiff(list.responses["200"]?.body, listed.body)).toEqual([]);
    checkWire(V, (s) => s.UpdateRun, waiting.body);
    const stage = waiting.body.properties.status.stages[0];
    // Resolved as given ("10", "2"): a count is not cut to the members there (Fleet's example shows the same).
    expect([stage.maxConcurrency, stage.groups[0].maxConcurrency]).toEqual([10, 2]);
    expect(stage.beforeGates[0]).toEqual({ displayName: "gate before stage1", gateId: expect.stringMatching(/\/gates\/[0-9a-f-]{36}$/), status: expect.objectContaining({ state: "Pending" }) });

    // The gate (compared with the 2026-06-02-preview Approval gate example; see the header).
    const gateExample = example("2026-06-02-preview", "Gates_Get.json");
    const gateName = String(stage.beforeGates[0].gateId).split("/").at(-1) as string;
    const gate = await raw(emulator, "GET", at(V, `/gates/${gateName}`));
    expect(gate.status).toBe(200);
    expect(shapeDiff(gateExample.responses["200"]?.body, gate.body)).toEqual([]);
    checkWire(V, (s) => s.Gate as z.ZodType, gate.body);
    expect(gate.headers.etag).toBe(gate.body.eTag);
    expect(gate.body.properties.target.updateRunProperties).toEqual({ name: "run1", stage: "stage1", timing: "Before" });
    const gates = await raw(emulator, "GET", at(V, "/gates"));
    expect(gates.body.value.map((g: { name: string }) => g.name)).toEqual([gateName]);

    const patched = await raw(emulator, "PATCH", at(V, `/gates/${gateName}`), { body: { properties: { state: "Completed" } }, headers: { "If-Match": gate.body.eTag } });
    expect([patched.status, patched.body.properties.state]).toEqual([200, "Completed"]);
    expect(patched.headers.etag).toBe(patched.body.eTag);
    expect(shapeDiff(gateExample.responses["200"]?.body, patched.body)).toEqual([]);
  });

  test("update runs: stop (a member in flight: Stopping)", async () => {
    const stop = example(V, "UpdateRuns_Stop.json");
    const body = stop.responses["200"]?.body as { properties: { strategy: Json } };
    expect((await raw(emulator, "PUT", at(V, "/updateRuns/run1"), { body: { properties: { strategy: body.properties.strategy, managedClusterUpdate: FULL_132 } } })).status).toBe(201);
    expect((await raw(emulator, "POST", at(V, "/updateRuns/run1/start"))).status).toBe(200);
    const stopped = await raw(emulator, "POST", at(V, "/updateRuns/run1/stop"));
    expect(Object.keys(stop.responses)).toContain(String(stopped.status));
    expect([stopped.headers["azure-asyncoperation"], stopped.headers.location]).toEqual([expect.any(String), expect.any(String)]);
    const stopping = await raw(emulator, "GET", at(V, "/updateRuns/run1"));
    expect(stopping.body.properties.status.status.state).toBe("Stopping");
    expect(shapeDiff(body, stopping.body)).toEqual([]);
    checkWire(V, (s) => s.UpdateRun, stopping.body);
  });
});

describe("2026-06-02-preview", () => {
  const V = "2026-06-02-preview";

  test("update strategies: create", async () => {
    const create = example(V, "UpdateStrategies_CreateOrUpdate.json");
    const request = withoutStrategyReference(create.parameters.resource);
    const put = await raw(emulator, "PUT", at(V, "/updateStrategies/strategy1"), { body: request });
    expect(put.status).toBe(201);
    expect(shapeDiff(withoutStrategyReference(create.responses["201"]?.body), put.body)).toEqual([]);
    checkWire(V, (s) => s.FleetUpdateStrategy, put.body);
  });

  test("update runs: create, get, start, delete; gates get and list", async () => {
    const create = example(V, "UpdateRuns_CreateOrUpdate.json");
    const resource = withoutStrategyReference(create.parameters.resource) as { properties: Record<string, Json> };
    const put = await raw(emulator, "PUT", at(V, "/updateRuns/run1"), { body: { properties: { ...resource.properties, managedClusterUpdate: FULL_132 } } });
    expect(put.status).toBe(201);
    expect(shapeDiff(withoutStrategyReference(create.responses["201"]?.body), put.body)).toEqual([]);
    checkWire(V, (s) => s.UpdateRun, put.body);

    const get = example(V, "UpdateRuns_Get.json");
    const getBody = withoutStrategyReference(get.responses["200"]?.body) as { properties: { strategy: Json } };
    // The Get example's run also has maxAllowedFailures: made from its own strategy.
    expect((await raw(emulator, "PUT", at(V, "/updateRuns/run2"), { body: { properties: { strategy: getBody.properties.strategy, managedClusterUpdate: FULL_132 } } })).status).toBe(201);
    const got = await raw(emulator, "GET", at(V, "/updateRuns/run2"));
    expect(shapeDiff(getBody, got.body)).toEqual([]);
    checkWire(V, (s) => s.UpdateRun, got.body);
    expect(got.body.properties.status.failureCount).toBe(0);
    expect(got.body.properties.status.stages.map((s: { maxAllowedFailures: number }) => s.maxAllowedFailures)).toEqual([2, 1]); // "25%" of 1 member: ceil = 1

    const start = example(V, "UpdateRuns_Start.json");
    const startBody = withoutStrategyReference(start.responses["200"]?.body) as { properties: { strategy: Json } };
    expect((await raw(emulator, "PUT", at(V, "/updateRuns/run3"), { body: { properties: { strategy: startBody.properties.strategy, managedClusterUpdate: FULL_132 } } })).status).toBe(201);
    const started = await raw(emulator, "POST", at(V, "/updateRuns/run3/start"));
    expect(Object.keys(start.responses)).toContain(String(started.status));
    expect(started.status).toBe(200);
    const running = await raw(emulator, "GET", at(V, "/updateRuns/run3"));
    expect(running.body.properties.status.status.state).toBe("Running");
    expect(shapeDiff(startBody, running.body)).toEqual([]);
    checkWire(V, (s) => s.UpdateRun, running.body);

    // run1 waits at its stage's before-gate once started: a gate resource.
    await raw(emulator, "POST", at(V, "/updateRuns/run1/start"));
    await waitFor(V, "run1", (b) => b.properties.status.status.state === "Pending");
    const gates = await raw(emulator, "GET", at(V, "/gates"));
    const list = example(V, "Gates_ListByFleet.json");
    const approvalGate = (list.responses["200"]?.body as { value: Json[] }).value[0];
    expect(gates.body.value).toHaveLength(1);
    expect(shapeDiff({ value: [approvalGate] }, gates.body)).toEqual([]);
    const gateGet = example(V, "Gates_Get.json");
    const gate = await raw(emulator, "GET", at(V, `/gates/${gates.body.value[0].name}`));
    expect(shapeDiff(gateGet.responses["200"]?.body, gate.body)).toEqual([]);
    expect(gate.headers.etag).toBe(gate.body.eTag);
    checkWire(V, (s) => s.Gate as z.ZodType, gate.body);

    // The example's stage2 alone: chosen by label, held by its ScheduledStart gate (Friday 18:00 -05:00).
    const stage2 = (resource.properties.strategy as { stages: Json[] }).stages[1] as Json;
    expect((await raw(emulator, "PUT", at(V, "/updateRuns/run4"), { body: { properties: { strategy: { stages: [stage2] }, managedClusterUpdate: FULL_132 } } })).status).toBe(201);
    await raw(emulator, "POST", at(V, "/updateRuns/run4/start"));
    await waitFor(V, "run4", (b) => b.properties.status.status.state === "Pending");
    const scheduledGate = (list.responses["200"]?.body as { value: Json[] }).value[1];
    const scheduled = (await raw(emulator, "GET", at(V, "/gates"))).body.value.find((g: { properties: { gateType: string } }) => g.properties.gateType === "ScheduledStart");
    expect(shapeDiff(scheduledGate, scheduled)).toEqual([]);
    checkWire(V, (s) => s.Gate as z.ZodType, scheduled);
    expect(scheduled.properties.target.updateRunProperties).toEqual({ name: "run4", stage: "stage2", timing: "Before" });
    // The next Friday 18:00 at -05:00 (23:00 UTC), a Friday, from the emulator's clock.
    const opens = new Date(scheduled.properties.scheduledStartProperties.absoluteStartTime);
    expect([opens.getUTCDay(), opens.getUTCHours(), opens.getUTCMinutes()]).toEqual([5, 23, 0]);
    expect(opens.getTime()).toBeGreaterThan(emulator.clock.now());
    expect(opens.getTime() - emulator.clock.now()).toBeLessThanOrEqual(7 * 24 * 3_600_000);
    const run4 = await raw(emulator, "GET", at(V, "/updateRuns/run4"));
    expect(run4.body.properties.status.stages[0].groups.map((g: { name: string; members: Array<{ name: string }> }) => [g.name, g.members.map((m) => m.name)])).toEqual([["stage2", ["member-two"]]]);
    await raw(emulator, "POST", at(V, "/updateRuns/run4/stop"));

    const del = example(V, "UpdateRuns_Delete.json");
    await raw(emulator, "POST", at(V, "/updateRuns/run1/stop"));
    await waitFor(V, "run1", (b) => b.properties.status.status.state === "Stopped");
    const deleted = await raw(emulator, "DELETE", at(V, "/updateRuns/run1"));
    expect(Object.keys(del.responses)).toContain(String(deleted.status));
    expect((await raw(emulator, "DELETE", at(V, "/updateRuns/run1"))).status).toBe(204);
  });
});

describe("2025-04-01-preview", () => {
  const V = "2025-04-01-preview";

  test("a group's after-gate, reached: Gates_Get shows the live service's shape, not the example's (written before the swagger was updated in place)", async () => {
    const strategy = { stages: [{ name: "stage1", groups: [{ name: "group-a", afterGates: [{ displayName: "Perform health checks after Group 1", type: "Approval" }] }] }] };
    expect((await raw(emulator, "PUT", at(V, "/updateRuns/run1"), { body: { properties: { strategy, managedClusterUpdate: FULL_132 } } })).status).toBe(201);
    await raw(emulator, "POST", at(V, "/updateRuns/run1/start"));
    await waitFor(V, "run1", (b) => b.properties.status.status.state === "Pending");
    const [listed] = (await raw(emulator, "GET", at(V, "/gates"))).body.value;
    const gate = await raw(emulator, "GET", at(V, `/gates/${listed.name}`));
    const get = example(V, "Gates_Get.json");
    // The example's gate is a tracked resource with a typed target; the service (test_fleet_hubless #58)
    // and the swagger at b85c970 answer a proxy resource targeting `updateRunProperties`.
    expect(shapeDiff(get.responses["200"]?.body, gate.body)).toEqual([
      "location: in the example, missing here",
      "properties.target.type: in the example, missing here",
      "properties.target.properties: in the example, missing here",
      "properties.target.updateRunProperties: here, not in the example",
    ]);
    expect(gate.body.properties.target.updateRunProperties).toEqual({ name: "run1", stage: "stage1", group: "group-a", timing: "After" });
    expect(gate.headers.etag).toBe(gate.body.eTag);
    checkWire(V, (s) => s.Gate as z.ZodType, gate.body);
  });
});
