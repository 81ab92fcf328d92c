/**
 * Approval gates on the emulator's Fleet Manager: a run whose strategy has gates waits at a gate,
 * which is listed under `fleets/{fleet}/gates` (api-version 2025-04-01-preview on), until a PATCH
 * approves it; the server-side run then goes on.
 */
import { afterEach, beforeEach, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { raw } from "./helpers";
import { FAST_POLL, FLEET, FULL_132, RESOURCE_GROUP, fleetClient, fleetPath, runState, startFleetEmulator, waitForRun } from "./fleetHelpers";

let emulator: ArmEmulator;
beforeEach(async () => {
  emulator = await startFleetEmulator();
});
afterEach(async () => {
  await emulator.close();
});

/** Gates exist from this api-version on. */
const PREVIEW = "?api-version=2025-04-01-preview";

const GATED = {
  stages: [
    { name: "canary", groups: [{ name: "canary" }], afterGates: [{ type: "Approval", displayName: "Canary looks good" }] },
    { name: "prod", groups: [{ name: "prod" }, { name: "dev" }] },
  ],
};

test("the run waits at the canary's after-gate until it is approved by PATCH; the gate's eTag and state are checked", async () => {
  const put = await raw(emulator, "PUT", fleetPath("/updateRuns/gated"), { body: { properties: { strategy: GATED, managedClusterUpdate: FULL_132 } } });
  expect(put.status).toBe(201);
  const client = fleetClient(emulator);
  await client.updateRuns.start(RESOURCE_GROUP, FLEET, "gated", FAST_POLL).pollUntilDone();

  // The canary is upgraded, then its stage waits for approval: prod is not touched meanwhile.
  await waitForRun(client, "gated", (r) => r.properties?.status?.stages?.[0]?.groups?.[0]?.members?.[0]?.status?.state === "Completed");
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(emulator.fleet.operationLog().map((o) => o.member)).toEqual(["canary-1"]);

  const gates = await raw(emulator, "GET", fleetPath(`/gates${PREVIEW}`));
  expect(gates.status).toBe(200);
  expect(gates.body.value).toHaveLength(1);
  const gate = gates.body.value[0];
  expect(gate.name).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  // Every version names the target as `updateRunProperties` (2025-04-01-preview too, as Fleet answers it live).
  expect(gate.properties).toEqual({
    provisioningState: "Succeeded",
    displayName: "Canary looks good",
    gateType: "Approval",
    state: "Pending",
    target: { id: fleetPath("/updateRuns/gated"), updateRunProperties: { name: "gated", stage: "canary", timing: "After" } },
  });
  // Fleet made it: no systemData (nor location) until a user writes it.
  expect(Object.keys(gate).sort()).toEqual(["eTag", "id", "name", "properties", "type"]);
  const ga = await raw(emulator, "GET", fleetPath(`/gates/${gate.name}?api-version=2026-06-01`));
  expect(ga.body.properties.target).toEqual({ id: fleetPath("/updateRuns/gated"), updateRunProperties: { name: "gated", stage: "canary", timing: "After" } });
  expect(ga.headers.etag).toBe(ga.body.eTag);
  const run = await raw(emulator, "GET", fleetPath("/updateRuns/gated"));
  expect(run.body.properties.status.stages[0].afterGates).toEqual([{ displayName: "Canary looks good", gateId: gate.id, status: expect.objectContaining({ state: "Pending" }) }]);

  const wrongState = await raw(emulator, "PATCH", fleetPath(`/gates/${gate.name}${PREVIEW}`), { body: { properties: { state: "Skipped" } } });
  expect([wrongState.status, wrongState.body.error.details[0].target]).toEqual([400, "properties.state"]);
  const stale = await raw(emulator, "PATCH", fleetPath(`/gates/${gate.name}${PREVIEW}`), { body: { properties: { state: "Completed" } }, headers: { "If-Match": `"not-${gate.eTag}"` } });
  expect(stale.status).toBe(412);
  expect(emulator.fleet.operationLog()).toHaveLength(1);

  const approved = await raw(emulator, "PATCH", fleetPath(`/gates/${gate.name}${PREVIEW}`), { body: { properties: { state: "Completed" } }, headers: { "If-Match": `"${gate.eTag}"` } });
  expect([approved.status, approved.body.properties.state]).toEqual([200, "Completed"]);
  expect(approved.body.systemData).toEqual(expect.objectContaining({ lastModifiedAt: expect.any(String) }));
  const done = await waitForRun(client, "gated", (r) => runState(r) === "Completed");
  expect(done.properties?.status?.stages?.map((s) => s.status?.state)).toEqual(["Completed", "Completed"]);
  expect(emulator.fleet.operationLog().map((o) => o.member).sort()).toEqual(["canary-1", "dev-1", "prod-1", "prod-2", "prod-3"]);
});

test("an unknown gate is 404; an api-version without gates is answered as ARM answers an unknown type", async () => {
  const answer = await raw(emulator, "GET", fleetPath(`/gates/00000000-0000-0000-0000-000000000000${PREVIEW}`));
  expect(answer.status).toBe(404);
  const ga = await raw(emulator, "GET", fleetPath("/gates?api-version=2025-03-01"));
  expect([ga.status, ga.body.error.code]).toEqual([400, "NoRegisteredProviderFound"]);
});
