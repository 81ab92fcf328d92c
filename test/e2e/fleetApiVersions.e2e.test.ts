/**
 * Issue 21 through the real Pulumi CLI, against the ARM emulator's Fleet Manager (started here; its
 * endpoint and CA reach the program through config):
 * - at 2026-06-01 (the default, GA): a strategy kept in the fleet with `maxConcurrency` (prod stage
 *   and group) and an approval gate after the canary. The first `up` returns at the gate, the second,
 *   with the approval in config, completes the same fleet run; the fleet shows the limits as written
 *   and resolved, and prod never had more than two members upgrading at once.
 * - at 2026-06-02-preview: `maxAllowedFailures` on the prod group and stage; one prod member fails,
 *   the run still completes (Completed, outcome CompletedWithFailures, docs/behaviour.md), and `up`
 *   succeeds with the failed member in `failedMembers`.
 */
import * as fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { emulatorCredential } from "../../src/backends/azure/credentials";
import { FleetClient } from "../../src/backends/azureFleet/fleetClient";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import type { UpdateRunStatus } from "../../src/model/status";
import { FLEET, RESOURCE_GROUP, SUBSCRIPTION, groupedFleet } from "../emulator/fleetHelpers";
import { E2eProject } from "./support/project";
import { realCliAvailable } from "./support/pulumiCli";

const PROGRAM_DIR = "test/e2e/programs/fleet";
const FLEET_ID = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/fleets/${FLEET}`;

interface Summary { state: string; outcome: string; failureCount: number; members: Record<string, number> }

/** The most operations that overlapped among `members`, by the emulator's (simulated) times. */
function mostAtOnce(emulator: ArmEmulator, members: readonly string[]): number {
  const ops = emulator.fleet.operationLog().filter((o) => members.includes(o.member));
  return Math.max(0, ...ops.map((a) => ops.filter((b) => b.startTime <= a.startTime && (b.endTime === undefined || b.endTime > a.startTime)).length));
}

describe.skipIf(!realCliAvailable())("Fleet Manager's api-versions through the real Pulumi CLI", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  async function setUp(projectName: string, failing: string[] = []): Promise<{ emulator: ArmEmulator; project: E2eProject; config: Record<string, string> }> {
    const emulator = await startArmEmulator({ fleet: groupedFleet({}, failing), msPerSimulatedMinute: 20, throttling: false });
    cleanups.push(() => emulator.close());
    const project = new E2eProject({ files: [PROGRAM_DIR], projectDir: PROGRAM_DIR, program: `${PROGRAM_DIR}/index.ts`, main: PROGRAM_DIR, projectName });
    cleanups.push(() => project.cleanup());
    fs.writeFileSync(project.path("emulator-ca.pem"), emulator.certificatePem);
    const config = { fleetId: FLEET_ID, armEndpoint: emulator.url, trustedCaFile: project.path("emulator-ca.pem"), pollSeconds: "0.05" };
    return { emulator, project, config };
  }

  it("2026-06-01: maxConcurrency and an approval gate; up waits at the gate, up with the approval completes the same fleet run", async () => {
    const { emulator, project, config } = await setUp("fleet-update-e2e-paced");
    const gated = { ...config, variant: "gated", apiVersion: "2026-06-01" };
    const first = await project.run("up", { config: gated });
    expect(first.ok, `${first.message}\n${first.output.slice(-3000)}`).toBe(true);
    expect((first.outputs!.summary as Summary).state).toBe("Pending");
    expect(((first.outputs!.status as UpdateRunStatus).stages[0]?.afterGates ?? []).map((g) => `${g.gateId} ${g.status.state}`)).toEqual(["canary/after/0 Pending"]);
    expect(emulator.fleet.operationLog().map((op) => op.member)).toEqual(["canary-1"]);

    const approved = await project.run("up", { config: { ...gated, approvals: JSON.stringify(["canary/after/0"]) } });
    expect(approved.ok, `${approved.message}\n${approved.output.slice(-3000)}`).toBe(true);
    expect(approved.outputs!.summary as Summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 5, Completed: 5 } });
    expect(approved.outputs!.fleetRunId).toBe(`${FLEET_ID}/updateRuns/paced`);
    expect(emulator.fleet.operationLog().map((op) => op.member).sort()).toEqual(["canary-1", "dev-1", "prod-1", "prod-2", "prod-3"]);
    // prod's "2": two at once, never three.
    expect(mostAtOnce(emulator, ["prod-1", "prod-2", "prod-3"])).toBe(2);
    // The fleet holds the limits as written (the strategy) and resolved (the run's status), at 2026-06-01.
    const client = new FleetClient({ fleetId: FLEET_ID, credential: emulatorCredential, endpoint: emulator.url, trustedCaPem: emulator.certificatePem, apiVersion: "2026-06-01" });
    const strategy = await client.getStrategy("rollout");
    expect(strategy?.properties?.strategy?.stages[1]).toMatchObject({ name: "prod", maxConcurrency: "3", groups: [{ name: "prod", maxConcurrency: "2" }, { name: "dev" }] });
    const run = await client.getRun("paced");
    expect(run?.properties?.status?.stages?.[1]).toMatchObject({ maxConcurrency: 3, groups: [{ name: "prod", maxConcurrency: 2 }, { name: "dev", maxConcurrency: 1 }] });
    const writes = emulator.requests.filter((r) => r.method !== "GET" && r.status < 300).map((r) => `${r.method} ${r.path.slice(FLEET_ID.length)}`);
    expect(writes.filter((w) => w.startsWith("PUT /updateRuns/"))).toEqual(["PUT /updateRuns/paced"]);
    expect(writes.filter((w) => w.startsWith("PATCH /gates/"))).toHaveLength(1);
  }, 600_000);

  it("2026-06-02-preview: maxAllowedFailures; one prod member fails and the run still completes", async () => {
    const { emulator, project, config } = await setUp("fleet-update-e2e-tolerant", ["prod-2"]);
    // At the default version maxAllowedFailures is refused at preview, naming the version that has it.
    const refused = await project.run("preview", { config: { ...config, variant: "tolerant" } });
    expect(refused.ok).toBe(false);
    expect(refused.output).toContain("Fleet Manager takes maxAllowedFailures from api-version 2026-06-02-preview (backend.azureFleet.apiVersion is 2026-06-01)");
    expect(emulator.requests.filter((r) => r.method !== "GET")).toEqual([]);

    const up = await project.run("up", { config: { ...config, variant: "tolerant", apiVersion: "2026-06-02-preview" } });
    expect(up.ok, `${up.message}\n${up.output.slice(-3000)}`).toBe(true);
    expect(up.outputs!.summary as Summary).toMatchObject({ state: "Completed", outcome: "CompletedWithFailures", failureCount: 1, members: { total: 5, Completed: 4, Failed: 1 } });
    expect((up.outputs!.failedMembers as Array<{ name: string; group: string }>).map((m) => `${m.group}/${m.name}`)).toEqual(["prod/prod-2"]);
    const status = up.outputs!.status as UpdateRunStatus;
    expect(status.stages.map((s) => `${s.name} ${s.status.state} ${s.failureCount}`)).toEqual(["canary Completed 0", "prod Completed 1"]);
    expect(emulator.fleet.operationLog().map((op) => op.member).sort()).toEqual(["canary-1", "dev-1", "prod-1", "prod-2", "prod-3"]);
  }, 600_000);
});
