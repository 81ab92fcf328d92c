/**
 * Issue 22, docs/rules.md §18 on Fleet Manager: `UpdateRun`'s provider given an `autoUpgradeProfile`
 * puts the profile (named after the run, `disabled: true`), calls `generateUpdateRun`, starts and
 * follows the generated run; the update Fleet generated is the `generatedUpdate` output; a second
 * create attaches (never a second generated run); delete removes the run, the profile and the strategy
 * kept for it; no qualifying version is refused with no run made; an api-version without
 * `generateUpdateRun` is refused at Check.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../../src/emulator";
import * as provider from "../../../src/pulumi/provider/runProvider";
import type { UpdateRunOutputs } from "../../../src/pulumi/provider/runSession";
import { sdkClient } from "../../emulator/helpers";
import { CANARY_THEN_PROD, FLEET, RESOURCE_GROUP, fleetClient, startFleetEmulator } from "../../emulator/fleetHelpers";
import { fleetBackend } from "../../backends/azureFleet/support";

let emulator: ArmEmulator;
beforeEach(async () => {
  emulator = await startFleetEmulator();
});
afterEach(async () => {
  await emulator?.close();
});

const PROFILE = { channel: "Rapid" };

function inputs(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { runName: "latest", backend: fleetBackend(emulator), members: [], strategy: CANARY_THEN_PROD, autoUpgradeProfile: PROFILE, ...extra };
}

async function runsInFleet(): Promise<Array<{ name: string; profile?: string }>> {
  const out: Array<{ name: string; profile?: string }> = [];
  for await (const r of fleetClient(emulator).updateRuns.listByFleet(RESOURCE_GROUP, FLEET)) out.push({ name: r.name ?? "", ...(r.properties?.autoUpgradeProfileId === undefined ? {} : { profile: r.properties.autoUpgradeProfileId.split("/").at(-1) as string }) });
  return out;
}

async function profiles(): Promise<Array<{ name: string; disabled?: boolean; channel?: string }>> {
  const out: Array<{ name: string; disabled?: boolean; channel?: string }> = [];
  for await (const p of fleetClient(emulator).autoUpgradeProfiles.listByFleet(RESOURCE_GROUP, FLEET)) out.push({ name: p.name ?? "", ...(p.properties?.disabled === undefined ? {} : { disabled: p.properties.disabled }), ...(p.properties?.channel === undefined ? {} : { channel: p.properties.channel }) });
  return out;
}

describe("a run from an auto-upgrade profile on Fleet Manager", () => {
  test("the profile is put disabled, the generated run started and followed; Fleet's choice is the generatedUpdate output", async () => {
    const { id, outs } = await provider.create(inputs());
    const out = outs as unknown as UpdateRunOutputs;
    expect(out.status.status.state).toBe("Completed");
    expect(out.generatedUpdate).toEqual({ upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Latest" } });
    const runs = await runsInFleet();
    expect(runs).toEqual([{ name: expect.not.stringMatching(/^latest$/), profile: "latest" }]);
    expect(id.endsWith(`/updateRuns/${runs[0]?.name}`)).toBe(true);
    expect(await profiles()).toEqual([{ name: "latest", disabled: true, channel: "Rapid" }]);
    expect(out.strategySnapshot.stages.map((s) => s.name)).toEqual(["canary", "prod"]);
    for (const name of ["canary-1", "prod-1", "dev-1"]) {
      expect((await sdkClient(emulator).managedClusters.get(RESOURCE_GROUP, name)).currentKubernetesVersion).toBe("1.32.0");
    }
  });

  test("a second create attaches to the generated run: one run, each cluster upgraded once", async () => {
    const first = await provider.create(inputs({ returnAfterMinutes: 0.0005 }));
    expect((first.outs as unknown as UpdateRunOutputs).summary.outcome).toBe("Pending");
    // A client that lost its outputs (killed before Pulumi saved them) finds the run the profile generated.
    const second = await provider.create(inputs());
    expect(second.id).toBe(first.id);
    expect((second.outs as unknown as UpdateRunOutputs).status.status.state).toBe("Completed");
    expect(await runsInFleet()).toHaveLength(1);
    const log = emulator.fleet.operationLog();
    expect(new Set(log.map((o) => o.member)).size).toBe(log.length);
  });

  test("delete removes the run, the profile and the strategy kept for it", async () => {
    const { id, outs } = await provider.create(inputs());
    await provider.remove(id, { ...inputs(), ...outs });
    expect(await runsInFleet()).toEqual([]);
    expect(await profiles()).toEqual([]);
    expect(await fleetClient(emulator).fleetUpdateStrategies.get(RESOURCE_GROUP, FLEET, "latest").catch((e: { statusCode?: number }) => e.statusCode)).toBe(404);
  });

  test("no qualifying version: refused naming autoUpgradeProfile, and no run is made", async () => {
    await expect(provider.create(inputs({ autoUpgradeProfile: { channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.40" } }))).rejects.toThrow(/autoUpgradeProfile: Fleet Manager generated no update run/);
    expect(await runsInFleet()).toEqual([]);
    expect(emulator.fleet.operationLog()).toEqual([]);
  });

  test("SecurityPatch (2026-06-02-preview): refused at Check at an older version naming the one that has it; at the preview a node-image-only run is generated and run", async () => {
    const backend = fleetBackend(emulator) as { azureFleet: Record<string, unknown> };
    const security = { autoUpgradeProfile: { channel: "SecurityPatch" } };
    expect((await provider.check({}, inputs(security))).failures).toEqual([
      { property: "autoUpgradeProfile.channel", reason: "Fleet Manager takes channel SecurityPatch from api-version 2026-06-02-preview (backend.azureFleet.apiVersion is 2026-06-01)" },
    ]);
    const preview = inputs({ ...security, backend: { azureFleet: { ...backend.azureFleet, apiVersion: "2026-06-02-preview" } } });
    expect((await provider.check({}, preview)).failures).toEqual([]);
    const out = (await provider.create(preview)).outs as unknown as UpdateRunOutputs;
    expect(out.generatedUpdate).toEqual({ upgrade: { type: "NodeImageOnly" }, nodeImageSelection: { type: "Latest" } });
    expect(out.status.status.state).toBe("Completed");
    expect(await profiles()).toEqual([{ name: "latest", disabled: true, channel: "SecurityPatch" }]);
  });

  test("at 2025-04-01-preview too (the live service has generateUpdateRun and the TargetKubernetesVersion channel there): accepted at Check", async () => {
    const backend = fleetBackend(emulator) as { azureFleet: Record<string, unknown> };
    const legacy = { backend: { azureFleet: { ...backend.azureFleet, apiVersion: "2025-04-01-preview" } } };
    expect((await provider.check({}, inputs(legacy))).failures).toEqual([]);
    expect((await provider.check({}, inputs({ ...legacy, autoUpgradeProfile: { channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.32", longTermSupport: true } }))).failures).toEqual([]);
  });
});
