/**
 * The emulator's Fleet Manager runs honour `maxConcurrency` (2026-06-01) and `maxAllowedFailures`
 * (2026-06-02-preview) server-side, by Fleet's documented rules (the swagger's descriptions; docs/rules.md
 * §8, §10 and docs/fleet-api-versions.md): a count or a percent of the scope's members, a percent of
 * `maxConcurrency` rounded down with a minimum of 1, the stage's limit capping its groups'; a percent
 * of `maxAllowedFailures` rounded up, the group's and the stage's limits checked independently, and
 * `failureCount` past the limit when members in flight fail together. Runs are made and driven on the
 * `FleetManager` itself (`createRun`, the run's `RunDriver`), the status read as each version shows it.
 */
import { afterEach, expect, test } from "vitest";
import { FLEET_API_FEATURES } from "../../src/backends/azureFleet/wire";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { runBody } from "../../src/emulator/fleet/fleetResources";
import type { RunRecord } from "../../src/emulator/fleet/fleetState";
import { FleetSchema } from "../../src/model/fleet";
import type { UpdateRunStrategy } from "../../src/model/strategy";
import { IMAGE_NOV, IMAGE_OCT, RESOURCE_GROUP, SUBSCRIPTION } from "./helpers";

const SCOPE = { subscriptionId: SUBSCRIPTION, resourceGroup: RESOURCE_GROUP };
const FULL_132 = { upgrade: { type: "Full" as const, kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Latest" as const } };

let emulator: ArmEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** `n` clusters prod-1..n in group prod and dev-1..m in group dev; the named ones fail their upgrade. */
async function start(prod: number, dev: number, failing: string[] = []): Promise<ArmEmulator> {
  const cluster = (name: string, group: string) => ({
    name,
    group,
    region: "westeurope",
    kubernetesVersion: "1.31.2",
    nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OCT }],
    ...(failing.includes(name) ? { simulation: { fail: { code: "UpgradeFailed", message: "the upgrade failed" } } } : {}),
  });
  const members = [...Array.from({ length: prod }, (_, i) => cluster(`prod-${i + 1}`, "prod")), ...Array.from({ length: dev }, (_, i) => cluster(`dev-${i + 1}`, "dev"))];
  const fleet = FleetSchema.parse({
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: IMAGE_OCT }, { version: IMAGE_NOV }] } },
    members,
  });
  emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 5, throttling: false });
  return emulator;
}

/** Create the run on the Fleet Manager, start it, and let it settle. */
async function run(em: ArmEmulator, strategy: UpdateRunStrategy): Promise<RunRecord> {
  const manager = em.fleetManager;
  const fleet = manager.store.get("fleet");
  if (fleet === undefined) throw new Error("no fleet");
  const record = manager.createRun(fleet, SCOPE, "run", { strategy, managedClusterUpdate: FULL_132 }, "digest");
  fleet.runs.set("run", record);
  await record.driver.start();
  const deadline = Date.now() + 20_000;
  while (!record.engine.settled) {
    if (Date.now() > deadline) throw new Error(`run did not settle: ${record.engine.state}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await record.driver.catchUp();
  }
  return record;
}

/** The most members upgrading at once, from the run's events. */
function peakRunning(record: RunRecord, group?: string): number {
  const groupOf = new Map(record.engine.status().stages.flatMap((s) => s.groups.flatMap((g) => g.members.map((m) => [m.name, g.name] as const))));
  let now = 0;
  let peak = 0;
  for (const e of record.events) {
    if (e.scope !== "member" || (group !== undefined && groupOf.get(e.name) !== group)) continue;
    if (e.to === "Running" && e.from !== "Running") now++;
    if (e.from === "Running" && e.to !== "Running") now--;
    peak = Math.max(peak, now);
  }
  return peak;
}

function statusAt(em: ArmEmulator, record: RunRecord, version: keyof typeof FLEET_API_FEATURES) {
  const fleet = em.fleetManager.store.get("fleet");
  if (fleet === undefined) throw new Error("no fleet");
  return (runBody(SCOPE, fleet, record, FLEET_API_FEATURES[version]) as { properties: { status: Record<string, unknown> & { stages: Array<Record<string, unknown> & { groups: Array<Record<string, unknown>> }> } } }).properties.status;
}

test("maxConcurrency: the stage's limit caps its groups' ('2' over '100%' of 4)", async () => {
  const em = await start(4, 2);
  const record = await run(em, { stages: [{ name: "all", maxConcurrency: "2", groups: [{ name: "prod", maxConcurrency: "100%" }, { name: "dev", maxConcurrency: "100%" }] }] });
  expect(record.engine.state).toBe("Completed");
  expect(peakRunning(record)).toBe(2);
  const stage = statusAt(em, record, "2026-06-01").stages[0];
  expect([stage?.maxConcurrency, stage?.groups.map((g) => g.maxConcurrency)]).toEqual([2, [4, 2]]);
});

test("maxConcurrency: a percent rounds down, never below 1 ('50%' of 3 is 1, '10%' of 4 is 1, '75%' of 4 is 3)", async () => {
  const em = await start(4, 3);
  const record = await run(em, { stages: [{ name: "a", groups: [{ name: "dev", maxConcurrency: "50%" }] }, { name: "b", groups: [{ name: "prod", maxConcurrency: "75%" }] }] });
  expect(record.engine.state).toBe("Completed");
  expect([peakRunning(record, "dev"), peakRunning(record, "prod")]).toEqual([1, 3]);
  const stages = statusAt(em, record, "2026-06-01").stages;
  expect(stages.map((s) => s.groups[0]?.maxConcurrency)).toEqual([1, 3]);
  // A stage without maxConcurrency shows none (no cap of its own); a group without one, 1.
  expect(stages.map((s) => s.maxConcurrency)).toEqual([undefined, undefined]);

  await em.close();
  const em2 = await start(4, 0);
  const slow = await run(em2, { stages: [{ name: "a", groups: [{ name: "prod", maxConcurrency: "10%" }] }] });
  expect([peakRunning(slow), statusAt(em2, slow, "2026-06-01").stages[0]?.groups[0]?.maxConcurrency]).toEqual([1, 1]);
});

test("maxAllowedFailures: within the group's limit ('50%' of 4, rounded up: 2) the run completes with its failures counted", async () => {
  const em = await start(4, 0, ["prod-1", "prod-3"]);
  const record = await run(em, { stages: [{ name: "all", groups: [{ name: "prod", maxAllowedFailures: "50%" }] }] });
  expect(record.engine.state).toBe("Completed");
  const status = statusAt(em, record, "2026-06-02-preview");
  expect([status.failureCount, status.stages[0]?.failureCount, status.stages[0]?.groups[0]?.failureCount, status.stages[0]?.groups[0]?.maxAllowedFailures]).toEqual([2, 2, 2, 2]);
  // At 2026-06-01 neither the counts nor the limit exist.
  expect(statusAt(em, record, "2026-06-01").stages[0]?.groups[0]).not.toHaveProperty("failureCount");
});

test("maxAllowedFailures: one failure past the group's limit fails the group and the run ('25%' of 4 rounds up to 1)", async () => {
  const em = await start(4, 0, ["prod-1", "prod-2"]);
  const record = await run(em, { stages: [{ name: "all", groups: [{ name: "prod", maxAllowedFailures: "25%" }] }] });
  expect(record.engine.state).toBe("Failed");
  const group = statusAt(em, record, "2026-06-02-preview").stages[0]?.groups[0];
  expect([group?.maxAllowedFailures, group?.failureCount, (group?.status as { state: string }).state]).toEqual([1, 2, "Failed"]);
  // One at a time (a group's default maxConcurrency): prod-3 and prod-4 never started.
  expect(em.fleet.operationLog().map((o) => o.member)).toEqual(["prod-1", "prod-2"]);
});

test("maxAllowedFailures: members failing together may take failureCount past the limit", async () => {
  const em = await start(3, 0, ["prod-1", "prod-2", "prod-3"]);
  const record = await run(em, { stages: [{ name: "all", groups: [{ name: "prod", maxConcurrency: "3", maxAllowedFailures: "1" }] }] });
  expect(record.engine.state).toBe("Failed");
  const status = statusAt(em, record, "2026-06-02-preview");
  expect([status.stages[0]?.groups[0]?.maxAllowedFailures, status.stages[0]?.groups[0]?.failureCount, status.failureCount]).toEqual([1, 3, 3]);
});

test("maxAllowedFailures: the stage's limit is checked on its own, whatever its groups allow", async () => {
  const em = await start(2, 2, ["prod-1", "dev-1"]);
  const record = await run(em, { stages: [{ name: "all", maxAllowedFailures: "1", groups: [{ name: "prod", maxAllowedFailures: "1" }, { name: "dev", maxAllowedFailures: "1" }] }] });
  // Each group is within its limit (1 failure each), the stage is not (2 > 1): the stage and the run fail.
  expect(record.engine.state).toBe("Failed");
  const stage = statusAt(em, record, "2026-06-02-preview").stages[0];
  expect([stage?.maxAllowedFailures, stage?.failureCount, (stage?.status as { state: string }).state]).toEqual([1, 2, "Failed"]);
  expect(stage?.groups.map((g) => [g.maxAllowedFailures, g.failureCount])).toEqual([
    [1, 1],
    [1, 1],
  ]);
});
