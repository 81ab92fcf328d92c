/**
 * Issue 12: `UpdateStrategy` with `backend.azureFleet` is kept in Fleet Manager as
 * `fleets/{f}/updateStrategies/{name}`: created (If-None-Match), updated with its eTag (If-Match; a
 * change made outside Pulumi is not overwritten), read back, deleted on destroy. Features Fleet lacks
 * are refused at Check, naming the field.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../../src/emulator";
import * as provider from "../../../src/pulumi/provider/strategyProvider";
import { CANARY_THEN_PROD, FLEET, RESOURCE_GROUP, fleetClient, startFleetEmulator } from "../../emulator/fleetHelpers";
import { fleetBackend } from "../../backends/azureFleet/support";

let emulator: ArmEmulator;
beforeEach(async () => {
  emulator = await startFleetEmulator();
});
afterEach(async () => {
  await emulator.close();
});

describe("UpdateStrategy kept in Fleet Manager", () => {
  test("create, update with the eTag, read, delete", async () => {
    const backend = fleetBackend(emulator);
    const inputs = { stages: CANARY_THEN_PROD.stages, backend, strategyName: "rollout" };
    expect((await provider.check({}, inputs)).failures).toEqual([]);
    const created = await provider.create(inputs);
    expect(created.id).toMatch(/\/fleets\/fleet\/updateStrategies\/rollout$/);
    expect(created.outs.updateStrategyId).toBe(created.id);
    const sdk = fleetClient(emulator);
    const there = await sdk.fleetUpdateStrategies.get(RESOURCE_GROUP, FLEET, "rollout");
    expect(there.properties?.strategy.stages.map((s) => s.name)).toEqual(["canary", "prod"]);
    expect(created.outs.eTag).toBe(there.eTag);

    const changed = { ...inputs, stages: [{ name: "all", groups: [{ name: "canary" }, { name: "prod" }, { name: "dev" }] }] };
    const updated = await provider.update(created.id, created.outs, changed);
    expect(updated.outs.eTag).not.toBe(created.outs.eTag);
    expect((await sdk.fleetUpdateStrategies.get(RESOURCE_GROUP, FLEET, "rollout")).properties?.strategy.stages.map((s) => s.name)).toEqual(["all"]);

    // Changed outside Pulumi: the stale eTag is refused, nothing overwritten.
    await sdk.fleetUpdateStrategies.createOrUpdate(RESOURCE_GROUP, FLEET, "rollout", { properties: { strategy: { stages: [{ name: "manual", groups: [{ name: "prod" }] }] } } }).pollUntilDone();
    await expect(provider.update(created.id, updated.outs, inputs)).rejects.toThrow(/outside Pulumi/);
    const read = await provider.read(created.id, updated.outs);
    expect((read.props.stages as Array<{ name: string }>).map((s) => s.name)).toEqual(["manual"]);

    await provider.remove(created.id, read.props);
    const left = [];
    for await (const s of sdk.fleetUpdateStrategies.listByFleet(RESOURCE_GROUP, FLEET)) left.push(s.name);
    expect(left).toEqual([]);
  });

  test("Check names what Fleet lacks at the api-version in use, and a bad name", async () => {
    const backend = fleetBackend(emulator);
    const stages = [{ name: "s", groups: [{ name: "g", maxConcurrency: "2", maxAllowedFailures: "1" }], afterGates: [{ type: "Approval" }] }];
    const { failures } = await provider.check({}, { stages, backend, strategyName: "Bad_Name" });
    expect(failures.map((f) => `${f.property}: ${f.reason}`).sort()).toEqual([
      "stages[0].groups[0].maxAllowedFailures: Fleet Manager takes maxAllowedFailures from api-version 2026-06-02-preview (backend.azureFleet.apiVersion is 2026-06-01)",
      expect.stringMatching(/^strategyName: /),
    ]);
    const fleet = backend.azureFleet as Record<string, unknown>;
    const preview = { azureFleet: { ...fleet, apiVersion: "2026-06-02-preview" } };
    expect((await provider.check({}, { stages, backend: preview, strategyName: "rollout" })).failures).toEqual([]);
    const legacy = { azureFleet: { ...fleet, apiVersion: "2025-04-01-preview" } };
    expect((await provider.check({}, { stages, backend: legacy, strategyName: "rollout" })).failures.map((f) => f.property)).toEqual(["stages[0].groups[0].maxConcurrency", "stages[0].groups[0].maxAllowedFailures"]);
  });

  test("limits kept in the fleet at the api-version that has them, read back as written; a change of apiVersion alone is an update, not a replacement", async () => {
    const fleet = fleetBackend(emulator).azureFleet as Record<string, unknown>;
    type Item = { name: string; maxConcurrency?: string; maxAllowedFailures?: string };
    const stages: Array<Item & { groups: Item[] }> = [
      { name: "canary", groups: [{ name: "canary", maxConcurrency: "1" }], maxConcurrency: "1" },
      { name: "prod", groups: [{ name: "prod", maxConcurrency: "50%", maxAllowedFailures: "1" }, { name: "dev" }], maxAllowedFailures: "20%" },
    ];
    const inputs = { stages, backend: { azureFleet: { ...fleet, apiVersion: "2026-06-02-preview" } }, strategyName: "limits" };
    expect((await provider.check({}, inputs)).failures).toEqual([]);
    const created = await provider.create(inputs);
    const read = await provider.read(created.id, created.outs);
    expect(read.props.stages).toEqual(stages);
    // At 2026-06-01 the fleet shows what that version has: maxConcurrency, no maxAllowedFailures.
    const ga = { ...inputs, stages: stages.map(({ maxAllowedFailures: _s, groups, ...stage }) => ({ ...stage, groups: groups.map(({ maxAllowedFailures: _g, ...group }) => group) })), backend: { azureFleet: { ...fleet, apiVersion: "2026-06-01" } } };
    expect(await provider.diff(created.id, created.outs, { ...inputs, backend: ga.backend })).toEqual({ changes: true });
    const atGa = await provider.read(created.id, { ...created.outs, backend: ga.backend });
    expect(atGa.props.stages).toEqual(ga.stages);
    expect(await provider.diff(created.id, created.outs, { ...inputs, backend: { azureFleet: { ...fleet, fleetId: `${fleet.fleetId as string}x` } } })).toMatchObject({ replaces: ["backend"] });
  });

  test("without a backend nothing changes: a local strategy", async () => {
    const { id, outs } = await provider.create({ stages: CANARY_THEN_PROD.stages });
    expect(id).toMatch(/^strategy-/);
    expect(outs.updateStrategyId).toBeUndefined();
  });
});
