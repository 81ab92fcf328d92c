/**
 * Issue 12 end to end: `UpdateRun`'s provider on `backend.azureFleet` against the ARM emulator serving
 * Fleet Manager (which runs the update server-side with our engine). Create starts and follows the
 * fleet's run; a second create attaches (never a second run); state and skip become Fleet's stop,
 * start and skip (only new targets); a failure fails the call with the status kept; Check names
 * members the fleet does not have; delete removes the run, a started one too (as Fleet takes it).
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { FleetSchema } from "../../../src/model/fleet";
import type { ArmEmulator } from "../../../src/emulator";
import { startArmEmulator } from "../../../src/emulator";
import * as provider from "../../../src/pulumi/provider/runProvider";
import * as strategyProvider from "../../../src/pulumi/provider/strategyProvider";
import { RunNotFinishedError, type UpdateRunOutputs } from "../../../src/pulumi/provider/runSession";
import { sdkClient, IMAGE_OCT, IMAGE_NOV } from "../../emulator/helpers";
import { CANARY_THEN_PROD, FLEET, FULL_132, RESOURCE_GROUP, fleetClient, groupedFleet, startFleetEmulator, waitForRun } from "../../emulator/fleetHelpers";
import { fleetBackend, runRequests } from "../../backends/azureFleet/support";

let emulator: ArmEmulator;
afterEach(async () => {
  await emulator?.close();
});

function inputs(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { runName: "k8s-1-32", backend: fleetBackend(emulator), members: [], strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132, ...extra };
}

async function runsInFleet(): Promise<string[]> {
  const names: string[] = [];
  for await (const r of fleetClient(emulator).updateRuns.listByFleet(RESOURCE_GROUP, FLEET)) names.push(r.name ?? "");
  return names;
}

describe("a run through the provider", () => {
  beforeEach(async () => {
    emulator = await startFleetEmulator();
  });

  test("create starts the fleet's run and follows it to Completed; outputs in today's shape", async () => {
    const { id, outs } = await provider.create(inputs());
    const out = outs as unknown as UpdateRunOutputs;
    expect(id).toMatch(/\/fleets\/fleet\/updateRuns\/k8s-1-32$/);
    expect(out.status.status.state).toBe("Completed");
    expect(out.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 5, Completed: 5 } });
    expect(out.failedMembers).toEqual([]);
    expect(out.strategySnapshot.stages.map((s) => s.name)).toEqual(["canary", "prod"]);
    expect(out.engineState).toBeUndefined();
    expect(out.fleetRun).toEqual({ id, skipsSent: [] });
    for (const name of ["canary-1", "prod-1", "prod-2", "prod-3", "dev-1"]) {
      expect((await sdkClient(emulator).managedClusters.get(RESOURCE_GROUP, name)).currentKubernetesVersion).toBe("1.32.0");
    }
    // One PUT, one start; the rest is following with GETs. No token in the outputs.
    const calls = runRequests(emulator, "k8s-1-32");
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(1);
    expect(calls.filter((c) => c.method === "POST").map((c) => c.action)).toEqual(["/start"]);
    expect(JSON.stringify(outs)).not.toMatch(/Bearer|accessToken|authorization/i);
  });

  test("a second create of the same run attaches to it: one run in the fleet, each cluster upgraded once", async () => {
    const first = await provider.create(inputs({ returnAfterMinutes: 0.0005 }));
    expect((first.outs as unknown as UpdateRunOutputs).summary.outcome).toBe("Pending");
    const second = await provider.create(inputs());
    expect(second.id).toBe(first.id);
    expect((second.outs as unknown as UpdateRunOutputs).status.status.state).toBe("Completed");
    expect(await runsInFleet()).toEqual(["k8s-1-32"]);
    const log = emulator.fleet.operationLog();
    expect(new Set(log.map((o) => o.member)).size).toBe(log.length);
  });

  test("an existing run of that name with another target is refused, naming managedClusterUpdate", async () => {
    await provider.create(inputs({ state: "NotStarted" }));
    await expect(provider.create(inputs({ managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } } }))).rejects.toThrow(/managedClusterUpdate.*another managedClusterUpdate/s);
  });

  test("state NotStarted holds the run; Stopped stops it; Running starts it again; skip sends only new targets", async () => {
    const held = await provider.create(inputs({ state: "NotStarted" }));
    expect((held.outs as unknown as UpdateRunOutputs).status.status.state).toBe("NotStarted");
    expect(runRequests(emulator, "k8s-1-32").filter((c) => c.method === "POST")).toEqual([]);

    const skip = [{ type: "Member", name: "prod-3" }];
    const running = await provider.update(held.id, held.outs, inputs({ skip, returnAfterMinutes: 0.0005 }));
    const stopped = await provider.update(held.id, running.outs, inputs({ skip, state: "Stopped" }));
    expect((stopped.outs as unknown as UpdateRunOutputs).status.status.state).toMatch(/Stopped|Completed/);
    const resumed = await provider.update(held.id, stopped.outs, inputs({ skip: [...skip, { type: "Member", name: "dev-1" }] }));
    const out = resumed.outs as unknown as UpdateRunOutputs;
    expect(out.status.status.state).toBe("Completed");
    const members = Object.fromEntries(out.status.stages.flatMap((s) => s.groups.flatMap((g) => g.members)).map((m) => [m.name, m.status.state]));
    expect(members["prod-3"]).toBe("Skipped");
    expect(members["dev-1"]).toBe("Skipped");
    expect(out.fleetRun?.skipsSent).toEqual([{ type: "Member", name: "prod-3" }, { type: "Member", name: "dev-1" }]);
    const posts = runRequests(emulator, "k8s-1-32").filter((c) => c.method === "POST").map((c) => c.action);
    expect(posts.filter((a) => a === "/skip")).toHaveLength(2);
    expect(posts).toContain("/stop");
  });

  test("read re-reads the run and sends nothing", async () => {
    const { id, outs } = await provider.create(inputs({ state: "NotStarted" }));
    const before = runRequests(emulator, "k8s-1-32").length;
    const { props } = await provider.read(id, outs);
    expect((props as unknown as UpdateRunOutputs).status.status.state).toBe("NotStarted");
    expect(runRequests(emulator, "k8s-1-32").slice(before).every((c) => c.method === "GET")).toBe(true);
  });

  test("delete removes the run, a started one too, as Fleet does (200): it goes no further; the upgrade in flight ends", async () => {
    const created = await provider.create(inputs({ returnAfterMinutes: 0.0005 }));
    await waitForRun(fleetClient(emulator), "k8s-1-32", (r) => r.properties?.status?.stages?.[0]?.groups?.[0]?.members?.[0]?.status?.state === "Running");
    await provider.remove(created.id, created.outs);
    expect(await runsInFleet()).toEqual([]);
    // canary-1's upgrade was AKS's: it ends; the prod stage is never started (a second of real time: six upgrades).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(emulator.fleet.operationLog().map((o) => [o.member, o.result])).toEqual([["canary-1", "Succeeded"]]);
    // A finished run is deleted the same way; deleting what is gone is nothing.
    const again = await provider.create(inputs());
    expect((again.outs as unknown as UpdateRunOutputs).status.status.state).toBe("Completed");
    await provider.remove(again.id, again.outs);
    await provider.remove(again.id, again.outs);
    expect(await runsInFleet()).toEqual([]);
  });

  test("Check names a member the fleet does not have, and one in another group", async () => {
    const { failures } = await provider.check({}, inputs({ members: [{ name: "canary-1", group: "prod" }, { name: "nope", group: "prod" }] }));
    expect(failures.map((f) => f.property)).toEqual(["members[0].group", "members[1].name", "members"]);
    expect(failures[1]?.reason).toContain("'nope' is not a member of fleet 'fleet'");
    const ok = await provider.check({}, inputs());
    expect(ok.failures).toEqual([]);
  });

  test("a strategy kept in Fleet (UpdateStrategy's updateStrategyId) is referenced by id and snapshotted", async () => {
    const base = inputs();
    const created = await strategyProvider.create({ stages: CANARY_THEN_PROD.stages, backend: base.backend, strategyName: "rollout" });
    const { strategy: _inline, ...byId } = inputs({ backend: base.backend, updateStrategyId: created.outs.updateStrategyId });
    expect((await provider.check({}, byId)).failures).toEqual([]);
    const { outs } = await provider.create(byId);
    const out = outs as unknown as UpdateRunOutputs;
    expect(out.summary.outcome).toBe("Succeeded");
    expect(out.strategySnapshot.stages.map((s) => s.name)).toEqual(["canary", "prod"]);
    const put = emulator.requests.find((r) => r.method === "PUT" && r.path.endsWith("/updateRuns/k8s-1-32"));
    expect(put?.status).toBeLessThan(300);
    const bad = await provider.check({}, { ...byId, updateStrategyId: `${String(created.outs.updateStrategyId)}-nope` });
    expect(bad.failures.map((f) => f.property)).toEqual(["updateStrategyId"]);
    const approval = await provider.check({}, { ...byId, approvals: ["canary/after/0"] });
    expect(approval.failures.map((f) => [f.property, f.reason])).toEqual([["approvals[0]", "no gate 'canary/after/0' in the fleet's update strategy (it has no gates)"]]);
    const both = await provider.check({}, { ...byId, strategy: CANARY_THEN_PROD });
    expect(both.failures.map((f) => f.property)).toEqual(["updateStrategyId"]);
  });

  test("approvals: a gate nobody approved ends the call (the run waits in Fleet); each approved gate is PATCHed once, when Pending", async () => {
    const GATED = {
      stages: [
        { name: "canary", groups: [{ name: "canary" }], afterGates: [{ type: "Approval", displayName: "Canary looks good" }] },
        { name: "prod", beforeGates: [{ type: "Approval" }], groups: [{ name: "prod", afterGates: [{ type: "Approval" }] }, { name: "dev" }] },
      ],
    };
    const gateStates = (out: UpdateRunOutputs) => out.status.stages.flatMap((s) => [...(s.beforeGates ?? []), ...(s.afterGates ?? []), ...s.groups.flatMap((g) => g.afterGates ?? [])]).map((g) => `${g.gateId} ${g.status.state}`);
    const patches = () => emulator.requests.filter((r) => r.method === "PATCH" && r.path.includes("/gates/"));

    // Nobody approved: the canary is upgraded, then the call returns with its after-gate Pending.
    const waiting = await provider.create(inputs({ strategy: GATED }));
    const first = waiting.outs as unknown as UpdateRunOutputs;
    expect(first.status.status.state).toBe("Pending");
    expect(gateStates(first)).toEqual(["canary/after/0 Pending", "prod/before/0 NotStarted", "prod/prod/after/0 NotStarted"]);
    expect(emulator.fleet.operationLog().map((o) => o.member)).toEqual(["canary-1"]);
    expect(patches()).toEqual([]);

    // The canary's gate and prod's after-gate approved (the latter before it is reached): prod's before-gate waits next.
    const approvals = ["canary/after/0", "prod/prod/after/0"];
    const second = (await provider.update(waiting.id, waiting.outs, inputs({ strategy: GATED, approvals }))).outs as unknown as UpdateRunOutputs;
    expect(gateStates(second)).toEqual(["canary/after/0 Completed", "prod/before/0 Pending", "prod/prod/after/0 NotStarted"]);
    expect(patches()).toHaveLength(1);

    // All approved: the run completes; every gate was PATCHed exactly once, each only once it was Pending.
    const done = (await provider.update(waiting.id, second as never, inputs({ strategy: GATED, approvals: [...approvals, "prod/before/0"] }))).outs as unknown as UpdateRunOutputs;
    expect(done.status.status.state).toBe("Completed");
    expect(gateStates(done)).toEqual(["canary/after/0 Completed", "prod/before/0 Completed", "prod/prod/after/0 Completed"]);
    expect(patches()).toHaveLength(3);
    expect(new Set(patches().map((r) => r.path)).size).toBe(3);
    expect(patches().every((r) => r.status === 200)).toBe(true);
    const log = emulator.fleet.operationLog();
    expect(new Set(log.map((o) => o.member)).size).toBe(log.length);

    // An approval naming no gate of the strategy is a Check failure naming it.
    const { failures } = await provider.check({}, inputs({ strategy: GATED, approvals: ["prod/after/0"] }));
    expect(failures.map((f) => f.property)).toEqual(["approvals[0]"]);
  });

  test("diff replaces before creating (the fleet's run is named after the resource)", async () => {
    const before = inputs();
    const d = await provider.diff("x", before, inputs({ backend: before.backend, managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } } }));
    expect(d).toMatchObject({ replaces: ["managedClusterUpdate"], deleteBeforeReplace: true });
  });
});

describe("the api-version (issue 21)", () => {
  beforeEach(async () => {
    emulator = await startFleetEmulator();
  });

  test("a run with maxConcurrency, started at 2026-06-01, is continued at 2026-06-02-preview: an update (not a replacement) that attaches to the same fleet run", async () => {
    const limited = { stages: [{ name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 600 }, { name: "prod", maxConcurrency: "2", groups: [{ name: "prod", maxConcurrency: "50%" }, { name: "dev" }] }] };
    const { azureFleet } = fleetBackend(emulator) as { azureFleet: Record<string, unknown> };
    const at = (apiVersion: string, extra: Record<string, unknown> = {}) => inputs({ backend: { azureFleet: { ...azureFleet, apiVersion } }, strategy: limited, ...extra });
    const before = at("2026-06-01", { returnAfterMinutes: 0.0005 });
    expect((await provider.check({}, before)).failures).toEqual([]);
    const first = await provider.create(before);
    expect((first.outs as unknown as UpdateRunOutputs).summary.outcome).toBe("Pending");
    expect((first.outs as unknown as UpdateRunOutputs).strategySnapshot).toEqual(limited);

    const after = at("2026-06-02-preview");
    expect(await provider.diff(first.id, first.outs, after)).toMatchObject({ changes: true, replaces: [] });
    const second = await provider.update(first.id, first.outs, after);
    expect((second.outs as unknown as UpdateRunOutputs).status.status.state).toBe("Completed");
    expect(await runsInFleet()).toEqual(["k8s-1-32"]);
    expect(runRequests(emulator, "k8s-1-32").filter((c) => c.method === "PUT")).toHaveLength(1);
    const log = emulator.fleet.operationLog();
    expect(new Set(log.map((o) => o.member)).size).toBe(log.length);
    // Another fleet is another run.
    const moved = inputs({ backend: { azureFleet: { ...azureFleet, fleetId: `${azureFleet.fleetId as string}-2`, apiVersion: "2026-06-02-preview" } }, strategy: limited });
    expect(await provider.diff(first.id, first.outs, moved)).toMatchObject({ replaces: ["backend"] });
  });
});

describe("a failing member", () => {
  test("fails the call with the status kept; the next up starts the run again", async () => {
    const fleet = groupedFleet();
    const failing = FleetSchema.parse({
      ...fleet,
      members: fleet.members.map((m) => (m.name === "prod-2" ? { ...m, simulation: { fail: { code: "UpgradeFailed", message: "drain timed out", attempts: 1 } } } : m)),
    });
    emulator = await startArmEmulator({ fleet: failing, msPerSimulatedMinute: 10, throttling: false });
    const error = await provider.create(inputs()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunNotFinishedError);
    const failed = error as RunNotFinishedError;
    expect(failed.outputs.summary.outcome).toBe("Failed");
    expect(failed.outputs.failedMembers.map((m) => m.name)).toEqual(["prod-2"]);
    expect(failed.message).toMatch(/failed/);
    const retried = await provider.update(failed.id, failed.properties, inputs());
    expect((retried.outs as unknown as UpdateRunOutputs).summary.outcome).toBe("Succeeded");
    void IMAGE_OCT;
    void IMAGE_NOV;
  });
});
