/**
 * Contract tests: `@pulumi/pulumi`'s own dynamic-provider host, driven over gRPC as the Pulumi engine
 * does, with `__provider` serialized from the real `UpdateStrategy` / `UpdateRun` classes.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpdateRun, UpdateStrategy } from "../../../src/pulumi";
import type { UpdateRunStatus } from "../../../src/model/status";
import type { RunSummary } from "../../../src/engine/summary";
import { captureDynamicInputs } from "../support/captureInputs";
import { ProviderCallError, startProviderHost, UNKNOWN_VALUE, type PropertyMap, type ProviderHost } from "../support/providerHost";
import { readFleetState } from "../../../src/backends/simulator/stateFile";

const POOL = "[{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]";
const FLEET = (extra: Record<string, string> = {}) => `regions:
  westeurope:
    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]
    nodeImages: [{version: AKSUbuntu-2204gen2containerd-202611.24.0}]
members:
${["canary-1", "eu-1", "eu-2", "eu-3"].map((n) => `  - {name: ${n}, region: westeurope, kubernetesVersion: 1.31.2, nodePools: ${POOL}${extra[n] ?? ""}}`).join("\n")}
`;

let runProvider = "";
let strategyProvider = "";
let runProviders: string[] = [];
let host: ProviderHost;

/** A fresh simulated fleet in its own directory, with the run's inputs pointing at it. */
function fleetDir(extra: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "contract-"));
  fs.writeFileSync(path.join(dir, "fleet.yaml"), FLEET(extra));
  return dir;
}

function runInputs(dir: string, overrides: Record<string, unknown> = {}): PropertyMap {
  return {
    __provider: runProvider,
    runName: "k8s-1-32",
    backend: { simulator: { fleetFile: path.join(dir, "fleet.yaml"), timeScale: 20_000 } },
    members: [
      { name: "canary-1", group: "canary" },
      { name: "eu-1", group: "prod" },
      { name: "eu-2", group: "prod" },
      { name: "eu-3", group: "prod" },
    ],
    strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 600 }, { name: "prod", groups: [{ name: "prod" }] }] },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    ...overrides,
  } as PropertyMap;
}

function operationsOf(dir: string): Record<string, Array<{ operationId: string; result?: string }>> {
  const state = readFleetState(path.join(dir, "fleet.yaml.state.json")) as { clusters: Record<string, { operations: Array<{ operationId: string; result?: string }> }> };
  return Object.fromEntries(Object.entries(state.clusters).map(([name, c]) => [name, c.operations]));
}

const statusOf = (props: PropertyMap) => props.status as unknown as UpdateRunStatus;
const summaryOf = (props: PropertyMap) => props.summary as unknown as RunSummary;
const memberStates = (props: PropertyMap) =>
  Object.fromEntries(statusOf(props).stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((m) => [m.name, m.status.state]))));

beforeAll(async () => {
  const captured = await captureDynamicInputs(() => {
    const strategy = new UpdateStrategy("rollout", { stages: [{ name: "canary", groups: [{ name: "canary" }] }] });
    const backend = { simulator: { fleetFile: "fleet.yaml" } };
    const managedClusterUpdate = { upgrade: { type: "Full" as const, kubernetesVersion: "1.32.0" } };
    new UpdateRun("a", { backend, members: [{ name: "canary-1", group: "canary" }], strategy: strategy.strategy, managedClusterUpdate });
    new UpdateRun("b", { backend, members: [{ name: "eu-1" }], managedClusterUpdate });
  });
  strategyProvider = captured.find((c) => c.name === "rollout")!.provider;
  runProviders = captured.filter((c) => c.name !== "rollout").map((c) => c.provider);
  runProvider = runProviders[0]!;
  host = await startProviderHost();
  await host.configure();
}, 60_000);

afterAll(async () => {
  await host?.stop();
});

describe("the serialized provider (__provider)", () => {
  it("is a small stub, identical for every UpdateRun, that loads the implementation by package name", () => {
    expect(runProvider.length).toBeLessThanOrEqual(2048);
    expect(strategyProvider.length).toBeLessThanOrEqual(2048);
    expect(runProviders[1]).toBe(runProviders[0]);
    expect(runProvider).toContain('require("pulumi-fleet-update/dist/pulumi/runProvider")');
    expect(runProvider).not.toMatch(/zod|ZodObject/);
  });
});

describe("Check", () => {
  it("accepts valid inputs", async () => {
    const { failures } = await host.check("k8s-1-32", {}, runInputs(fleetDir()));
    expect(failures).toEqual([]);
  });

  it("returns every problem as a failure whose property is the field path", async () => {
    const inputs = runInputs(fleetDir(), {
      members: [{ name: "Canary", group: "canary" }, { name: "eu-1", group: "prod" }],
      strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }] }, { name: "prod", groups: [{ name: "prod" }, { name: "typo" }] }] },
      managedClusterUpdate: { upgrade: { type: "Full" } },
    });
    const { failures } = await host.check("k8s-1-32", {}, inputs);
    expect(failures).toEqual(
      expect.arrayContaining([
        { property: "members[0].name", reason: expect.stringContaining("lowercase") },
        { property: "managedClusterUpdate.upgrade.kubernetesVersion", reason: "is required for a Full upgrade" },
      ]),
    );
    // A strategy group no member belongs to is accepted, as Fleet accepts it (docs/rules.md §2): the
    // plan printed at preview names it (test/plan/pulumi.test.ts).
    const cross = await host.check("k8s-1-32", {}, runInputs(fleetDir(), { strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }, { name: "typo" }] }, { name: "prod", groups: [{ name: "prod" }] }] } }));
    expect(cross.failures).toEqual([]);
  });

  it("accepts values unknown at preview anywhere", async () => {
    const inputs = runInputs(fleetDir(), { strategy: UNKNOWN_VALUE, members: [{ name: UNKNOWN_VALUE, group: "canary" }] });
    expect((await host.check("k8s-1-32", {}, inputs)).failures).toEqual([]);
    const strategy = await host.check("rollout", {}, { __provider: strategyProvider, stages: UNKNOWN_VALUE });
    expect(strategy.failures).toEqual([]);
  });

  it("validates a strategy resource on its own", async () => {
    const { failures } = await host.check("rollout", {}, { __provider: strategyProvider, stages: [{ name: "a", groups: [] }, { name: "a", groups: [{ name: "g" }] }] });
    expect(failures).toEqual(
      expect.arrayContaining([
        { property: "stages[0].groups", reason: "a stage needs at least one group" },
        { property: "stages[1].name", reason: "duplicate stage name 'a' (also stages[0])" },
      ]),
    );
  });
});

describe("Diff", () => {
  it("replaces for a new target, member list or strategy; updates in place for state and skip; ignores provider changes", async () => {
    const olds = runInputs(fleetDir());
    const diff = (news: PropertyMap) => host.diff("id", "k8s-1-32", olds, news);
    expect(await diff({ ...olds, __provider: `${runProvider}\n// edited` })).toMatchObject({ changes: "none", replaces: [] });
    expect(await diff({ ...olds, managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.33.0" } } })).toMatchObject({ changes: "some", replaces: ["managedClusterUpdate"] });
    expect(await diff({ ...olds, members: [] })).toMatchObject({ changes: "some", replaces: ["members"] });
    expect(await diff({ ...olds, strategy: undefined as unknown as PropertyMap })).toMatchObject({ changes: "some", replaces: ["strategy"] });
    expect(await diff({ ...olds, state: "Stopped" })).toMatchObject({ changes: "some", replaces: [] });
    expect(await diff({ ...olds, skip: [{ type: "Member", name: "eu-3" }] })).toMatchObject({ changes: "some", replaces: [] });
  });
});

describe("Create, Update, Read, Delete", () => {
  it("creates a run and executes it to Completed, with status, summary, strategy snapshot and images as outputs", async () => {
    const dir = fleetDir();
    const { id, properties } = await host.create("k8s-1-32", runInputs(dir));
    expect(id).toMatch(/^k8s-1-32-/);
    expect(summaryOf(properties)).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 4, Completed: 4 } });
    expect(statusOf(properties).stages.map((s) => s.status.state)).toEqual(["Completed", "Completed"]);
    expect(properties.strategySnapshot).toEqual(runInputs(dir).strategy);
    expect(properties.selectedNodeImageVersions).toEqual([]);
    expect(properties.appliedNodeImageVersions).toEqual([{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }]);
    expect(properties.failedMembers).toEqual([]);
    expect(properties.__provider).toBe(runProvider);
    // Every cluster upgraded exactly once.
    for (const ops of Object.values(operationsOf(dir))) expect(ops.map((o) => o.result)).toEqual(["Succeeded"]);
    // Progress: one line per state change, prefixed by the resource name.
    await host.waitForLog(/\[k8s-1-32\] .* run k8s-1-32 Running → Completed/);
  });

  it("a failing run keeps its status (ErrorResourceInitFailed), and Update retries the failed member to Completed", async () => {
    const dir = fleetDir({ "eu-2": ", simulation: {fail: {code: DrainFailed, message: drain timed out}}" });
    const inputs = runInputs(dir);
    const failure = await host.create("k8s-1-32", inputs).then(
      () => undefined,
      (e: unknown) => e as ProviderCallError,
    );
    expect(failure).toBeInstanceOf(ProviderCallError);
    expect(failure!.message).toContain("Member 'eu-2' failed: drain timed out");
    const kept = failure!.initFailed!;
    expect(kept.reasons).toHaveLength(1);
    expect(kept.properties.__provider).toBe(runProvider);
    expect(memberStates(kept.properties)).toEqual({ "canary-1": "Completed", "eu-1": "Completed", "eu-2": "Failed", "eu-3": "NotStarted" });
    expect(statusOf(kept.properties).status.state).toBe("Failed");
    expect(kept.properties.failedMembers).toEqual([{ name: "eu-2", group: "prod" }]);

    fs.writeFileSync(path.join(dir, "fleet.yaml"), FLEET()); // the cause is fixed
    const { properties } = await host.update(kept.id, "k8s-1-32", kept.properties, inputs);
    expect(memberStates(properties)).toEqual({ "canary-1": "Completed", "eu-1": "Completed", "eu-2": "Completed", "eu-3": "Completed" });
    const ops = operationsOf(dir);
    expect(ops["eu-2"]!.map((o) => o.result)).toEqual(["Failed", "Succeeded"]);
    expect(ops["eu-1"]!.map((o) => o.result)).toEqual(["Succeeded"]);
  });

  it("Update with state Stopped stops the run; Running resumes it where it left off", async () => {
    const dir = fleetDir();
    const created = await host.create("k8s-1-32", runInputs(dir, { state: "NotStarted" }));
    expect(summaryOf(created.properties).state).toBe("NotStarted");
    expect(Object.values(operationsOf(dir)).flat()).toEqual([]);

    const stopped = await host.update(created.id, "k8s-1-32", created.properties, runInputs(dir, { state: "Stopped" }));
    expect(summaryOf(stopped.properties).state).toBe("NotStarted");

    const running = await host.update(created.id, "k8s-1-32", stopped.properties, runInputs(dir, { state: "Running" }));
    expect(summaryOf(running.properties)).toMatchObject({ state: "Completed", members: { Completed: 4 } });

    const again = await host.update(created.id, "k8s-1-32", running.properties, runInputs(dir, { state: "Stopped" }));
    expect(summaryOf(again.properties).state).toBe("Completed");
    for (const ops of Object.values(operationsOf(dir))) expect(ops).toHaveLength(1);
  });

  it("Update with skip skips the named items and goes on", async () => {
    const dir = fleetDir();
    const created = await host.create("k8s-1-32", runInputs(dir, { state: "NotStarted" }));
    const updated = await host.update(created.id, "k8s-1-32", created.properties, runInputs(dir, { skip: [{ type: "Member", name: "eu-3" }, { type: "AfterStageWait", name: "canary" }] }));
    expect(memberStates(updated.properties)).toEqual({ "canary-1": "Completed", "eu-1": "Completed", "eu-2": "Completed", "eu-3": "Skipped" });
    expect(statusOf(updated.properties).stages[0]!.afterStageWaitStatus!.status.state).toBe("Skipped");
    expect(operationsOf(dir)["eu-3"]).toEqual([]);
  });

  it("Read recomputes statuses from the backend after an out-of-band change, without starting anything", async () => {
    const dir = fleetDir({ "canary-1": ", simulation: {upgradeMinutes: 300}" });
    // A deadline far shorter than canary-1's upgrade: create returns with canary-1 still Running.
    const inputs = runInputs(dir, { timeoutMinutes: 0.002 });
    const failure = (await host.create("k8s-1-32", inputs).catch((e: unknown) => e)) as ProviderCallError;
    const kept = failure.initFailed!;
    expect(memberStates(kept.properties)["canary-1"]).toBe("Running");
    // The upgrade ends in the backend while nobody watches (300 simulated minutes = 0.9 s here).
    await new Promise((r) => setTimeout(r, 1_300));
    const read = await host.read(kept.id, "k8s-1-32", kept.properties, inputs);
    expect(memberStates(read.properties)).toEqual({ "canary-1": "Completed", "eu-1": "NotStarted", "eu-2": "NotStarted", "eu-3": "NotStarted" });
    expect(Object.values(operationsOf(dir)).flat()).toHaveLength(1);
  });

  it("Delete forgets the run and never touches clusters", async () => {
    const dir = fleetDir();
    const created = await host.create("k8s-1-32", runInputs(dir));
    const before = fs.readFileSync(path.join(dir, "fleet.yaml.state.json"), "utf8");
    const journal = path.join(dir, "fleet.yaml.state.runs", "k8s-1-32.json");
    expect(fs.existsSync(journal)).toBe(true);
    await host.delete(created.id, "k8s-1-32", created.properties);
    expect(fs.readFileSync(path.join(dir, "fleet.yaml.state.json"), "utf8")).toBe(before);
    // Forgotten: the journal is gone, so creating it again is a new run (its clusters already at target).
    expect(fs.existsSync(journal)).toBe(false);
    const again = await host.create("k8s-1-32", runInputs(dir));
    expect(again.id).not.toBe(created.id);
    expect(summaryOf(again.properties).members).toMatchObject({ total: 4, Skipped: 4 });
  });

  it("a create whose result Pulumi never saw (killed right after the run ended) is taken up from the journal, not run again", async () => {
    const dir = fleetDir();
    const created = await host.create("k8s-1-32", runInputs(dir));
    // Pulumi lost the result: the next `pulumi up` creates again with the same inputs.
    const again = await host.create("k8s-1-32", runInputs(dir));
    expect(again.id).toBe(created.id);
    expect(summaryOf(again.properties)).toMatchObject({ state: "Completed", members: { total: 4, Completed: 4 } });
    for (const ops of Object.values(operationsOf(dir))) expect(ops).toHaveLength(1);
  });
});

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("approval gates and long waits (issue 5)", () => {
  const gated = { stages: [{ name: "canary", groups: [{ name: "canary" }] }, { name: "prod", beforeGates: [{ displayName: "CAB", type: "Approval" }], groups: [{ name: "prod" }] }] };

  it("a run reaching an unapproved gate returns successfully with the gate Pending; the next up with the approval continues to Completed", async () => {
    const dir = fleetDir();
    const inputs = runInputs(dir, { strategy: gated });
    const created = await host.create("k8s-1-32", inputs);
    expect(summaryOf(created.properties)).toMatchObject({ state: "Pending", outcome: "Pending" });
    const prod = statusOf(created.properties).stages[1]!;
    expect(prod.beforeGates).toEqual([{ displayName: "CAB", gateId: "prod/before/0", status: { state: "Pending", startTime: expect.any(String) } }]);
    expect(prod.status.state).toBe("Pending");
    expect(memberStates(created.properties)).toEqual({ "canary-1": "Completed", "eu-1": "NotStarted", "eu-2": "NotStarted", "eu-3": "NotStarted" });
    await host.waitForLog(/\[k8s-1-32\] Waiting for approval of 'prod\/before\/0'/);

    // Nothing changed in the program, yet the next `pulumi up` has work to do: an in-place update.
    expect(await host.diff(created.id, "k8s-1-32", created.properties, inputs)).toMatchObject({ changes: "some", replaces: [] });
    const waitingAgain = await host.update(created.id, "k8s-1-32", created.properties, inputs);
    expect(summaryOf(waitingAgain.properties).outcome).toBe("Pending");

    const approved = runInputs(dir, { strategy: gated, approvals: ["prod/before/0"] });
    expect(await host.diff(created.id, "k8s-1-32", waitingAgain.properties, approved)).toMatchObject({ changes: "some", replaces: [] });
    const done = await host.update(created.id, "k8s-1-32", waitingAgain.properties, approved);
    expect(summaryOf(done.properties)).toMatchObject({ state: "Completed", outcome: "Succeeded" });
    expect(statusOf(done.properties).stages[1]!.beforeGates![0]!.status.state).toBe("Completed");
    for (const ops of Object.values(operationsOf(dir))) expect(ops.map((o) => o.result)).toEqual(["Succeeded"]);
    // Finished: the same program again is no change.
    expect(await host.diff(created.id, "k8s-1-32", done.properties, approved)).toMatchObject({ changes: "none" });
  });

  it("Check names an approval of a gate the strategy does not have by its path", async () => {
    const { failures } = await host.check("k8s-1-32", {}, runInputs(fleetDir(), { strategy: gated, approvals: ["prod/after/0"] }));
    expect(failures).toEqual([{ property: "approvals[0]", reason: "no gate 'prod/after/0' in this run (its gates: prod/before/0)" }]);
  });

  it("returnAfterMinutes: a long after-stage wait ends the call successfully, the status saying until when", async () => {
    const dir = fleetDir();
    // A 40-hour wait; at this time scale 0.1 real minutes is about 33 simulated hours (40 h ≈ 7 s real).
    const strategy = { stages: [{ name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 144_000 }, { name: "prod", groups: [{ name: "prod" }] }] };
    const inputs = runInputs(dir, { strategy, returnAfterMinutes: 0.1 });
    const created = await host.create("k8s-1-32", inputs);
    expect(summaryOf(created.properties).outcome).toBe("Pending");
    const wait = statusOf(created.properties).stages[0]!.afterStageWaitStatus!;
    expect(wait.status.state).toBe("Running");
    const prodMessage = statusOf(created.properties).stages[1]!.groups[0]!.members[0]!.message;
    expect(prodMessage).toMatch(/^Waiting for the after-stage wait of stage 'canary' to end at \d{4}-\d\d-\d\dT/);
    expect(operationsOf(dir)["eu-1"]).toEqual([]);
    // The next `pulumi up` continues it; waiting in place this time, it runs to the end.
    const later = runInputs(dir, { strategy });
    expect(await host.diff(created.id, "k8s-1-32", created.properties, later)).toMatchObject({ changes: "some", replaces: [] });
    const done = await host.update(created.id, "k8s-1-32", created.properties, later);
    expect(summaryOf(done.properties)).toMatchObject({ state: "Completed", outcome: "Succeeded" });
    for (const ops of Object.values(operationsOf(dir))) expect(ops).toHaveLength(1);
  });

  it("skip of an after-stage wait under way (docs/rules.md §3.9): the next up ends the wait at once and runs the next stage", async () => {
    const dir = fleetDir();
    const waitSeconds = 144_000; // 40 simulated hours: about 7 real seconds at this time scale
    const strategy = { stages: [{ name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: waitSeconds }, { name: "prod", groups: [{ name: "prod" }] }] };
    const created = await host.create("k8s-1-32", runInputs(dir, { strategy, returnAfterMinutes: 0.01 }));
    const counting = statusOf(created.properties).stages[0]!.afterStageWaitStatus!.status;
    expect(counting.state).toBe("Running");
    const skipWait = runInputs(dir, { strategy, skip: [{ type: "AfterStageWait", name: "canary" }] });
    expect(await host.diff(created.id, "k8s-1-32", created.properties, skipWait)).toMatchObject({ changes: "some", replaces: [] });
    const done = await host.update(created.id, "k8s-1-32", created.properties, skipWait);
    const [canary, prod] = statusOf(done.properties).stages;
    const wait = canary!.afterStageWaitStatus!.status;
    expect(wait.state).toBe("Skipped");
    expect(wait.startTime).toBe(counting.startTime);
    // Cut short: it ended long before its 40 hours, and prod started at that very instant.
    const waited = Date.parse(wait.completedTime!) - Date.parse(wait.startTime!);
    expect(waited).toBeLessThan(waitSeconds * 1000);
    expect(canary!.status.completedTime).toBe(wait.completedTime);
    expect(prod!.status.startTime).toBe(wait.completedTime);
    expect(summaryOf(done.properties)).toMatchObject({ state: "Completed", outcome: "Succeeded" });
    for (const ops of Object.values(operationsOf(dir))) expect(ops).toHaveLength(1);
    // The skip can stay in the program: the wait is finished, so the next up changes nothing.
    expect(await host.diff(created.id, "k8s-1-32", done.properties, skipWait)).toMatchObject({ changes: "none" });
  });

  it("skip of the Stage whose wait is under way fails the up, saying to skip the wait, and changes nothing", async () => {
    const dir = fleetDir();
    const strategy = { stages: [{ name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 144_000 }, { name: "prod", groups: [{ name: "prod" }] }] };
    const created = await host.create("k8s-1-32", runInputs(dir, { strategy, returnAfterMinutes: 0.01 }));
    const refused = await host.update(created.id, "k8s-1-32", created.properties, runInputs(dir, { strategy, skip: [{ type: "Stage", name: "canary" }] })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderCallError);
    expect(String((refused as Error).message)).toMatch(/skip its AfterStageWait to end the wait now/);
    expect(operationsOf(dir)["eu-1"]).toEqual([]);
  });
});

describe("interrupted create", () => {
  it("a host killed mid-create, then create again: no cluster upgraded twice, and the status is truthful", async () => {
    const slow = Object.fromEntries(["canary-1", "eu-1", "eu-2", "eu-3"].map((n) => [n, ", simulation: {upgradeMinutes: 60}"]));
    // Kill points: after the 1st, 2nd and 3rd upgrade has started (and a little later each time).
    for (const [afterUpgrades, extraMs] of [[1, 0], [2, 40], [3, 90]] as const) {
      const dir = fleetDir(slow);
      const inputs = runInputs(dir, { strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }] }, { name: "prod", groups: [{ name: "prod" }] }] } });
      const doomed = await startProviderHost();
      await doomed.configure();
      const interrupted = doomed.create("k8s-1-32", inputs).catch((e: unknown) => e);
      await until(() => fs.existsSync(path.join(dir, "fleet.yaml.state.json")) && Object.values(operationsOf(dir)).flat().length >= afterUpgrades);
      await new Promise((r) => setTimeout(r, extraMs));
      await doomed.kill("SIGKILL");
      const killAfterMs = `${afterUpgrades} upgrade(s) + ${extraMs} ms`;
      expect(await interrupted).toBeInstanceOf(ProviderCallError);
      const upgradedBefore = Object.entries(operationsOf(dir)).filter(([, ops]) => ops.length > 0).map(([name]) => name);
      expect(upgradedBefore.length).toBeGreaterThan(0);

      // Pulumi never saw the create's result, so the next `pulumi up` creates again.
      const { properties } = await host.create("k8s-1-32", inputs);
      expect(summaryOf(properties)).toMatchObject({ state: "Completed", members: { total: 4, Completed: 4 } });
      for (const [name, ops] of Object.entries(operationsOf(dir))) {
        expect(ops.map((o) => o.result), `${name} after a kill at ${killAfterMs}`).toEqual(["Succeeded"]);
      }
    }
  }, 60_000);
});
