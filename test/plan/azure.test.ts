/**
 * `fleet-update plan` on a run spec with the Azure backend, against the ARM emulator: the clusters and
 * region offers are read through ARM (GETs only), and the plan says what ARM cannot (an assumed
 * upgrade duration; a version a region does not list yet has no announced date).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { planCommand } from "../../src/cli/plan";
import { validateScenario } from "../../src/simulation/scenario";
import type { Plan } from "../../src/plan/types";

const SUBSCRIPTION = "00000000-0000-0000-0000-000000000000";
const GROUP = "fleet";
const OLD_IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NEW_IMAGE = "AKSUbuntu-2204gen2containerd-202611.24.0";
const id = (name: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/${GROUP}/providers/Microsoft.ContainerService/managedClusters/${name}`;

let emulator: ArmEmulator;

beforeAll(async () => {
  const member = (name: string, region: string) => ({ name, region, kubernetesVersion: "1.31.2", nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: OLD_IMAGE }] });
  const { regions, members } = validateScenario({
    start: "2026-12-05T00:00:00Z",
    regions: {
      westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: OLD_IMAGE }, { version: NEW_IMAGE }] },
      // ARM lists what a region offers now: a version arriving next year is not listed, with no date.
      eastus: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0", availableAt: "2099-01-01T00:00:00Z" }], nodeImages: [{ version: OLD_IMAGE }] },
    },
    // busy-1: an operation started outside the fleet, running for days; ARM shows it only as Updating.
    members: [
      member("eu-1", "westeurope"),
      member("eu-2", "westeurope"),
      member("us-1", "eastus"),
      { ...member("busy-1", "westeurope"), simulation: { busyUntil: "2099-01-01T00:00:00Z" } },
      { ...member("stopped-1", "westeurope"), simulation: { powerState: "Stopped" } },
      // auto-1: upgrades itself (AKS's patch channel), as ARM shows in autoUpgradeProfile.
      { ...member("auto-1", "westeurope"), autoUpgradeProfile: { upgradeChannel: "patch", nodeOSUpgradeChannel: "SecurityPatch" } },
    ],
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
  });
  // Simulated time runs at real speed from now, so the plan's "now" (the real clock) is the emulator's.
  emulator = await startArmEmulator({ fleet: { regions, members }, msPerSimulatedMinute: 60_000, subscriptionId: SUBSCRIPTION, resourceGroup: GROUP, throttling: false });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
});

/** A directory holding the emulator's certificate and `run.yaml`: a run spec on the emulator with `spec`'s fields. */
function runSpecDir(spec: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "plan-azure-"));
  writeFileSync(join(dir, "arm.pem"), emulator.certificatePem);
  writeFileSync(join(dir, "run.yaml"), JSON.stringify({ backend: { azure: { endpoint: emulator.url, trustedCaFile: "arm.pem", credential: "emulator" } }, ...spec }));
  return dir;
}

describe("fleet-update plan with the Azure backend (ARM emulator)", () => {
  it("reads clusters and offers through ARM without writing anything, and plans from now", async () => {
    const dir = runSpecDir({
      members: [
        { name: "eu-1", group: "eu", clusterResourceId: id("eu-1") },
        { name: "eu-2", group: "eu", clusterResourceId: id("eu-2") },
        { name: "us-1", group: "us", clusterResourceId: id("us-1") },
      ],
      strategy: { stages: [{ name: "eu", groups: [{ name: "eu" }] }, { name: "us", groups: [{ name: "us" }] }] },
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    });
    emulator.clearRequestLog();
    const now = Date.now();
    let stdout = "";
    let stderr = "";
    const code = await planCommand(join(dir, "run.yaml"), { json: true, upgradeMinutes: "15" }, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, now);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const plan = JSON.parse(stdout) as Plan;
    const start = Math.ceil(now / 1000) * 1000;
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString().replace(".000Z", "Z");
    expect(plan.plannedFrom).toBe(at(0));
    expect(plan.members.map((m) => [m.name, m.predictedStart, m.predictedEnd, m.predictedState])).toEqual([
      ["eu-1", at(0), at(15), "Completed"],
      ["eu-2", at(15), at(30), "Completed"],
      ["us-1", undefined, undefined, "Pending"],
    ]);
    expect(plan.findings.map((f) => [f.severity, f.code, f.region])).toEqual([
      ["error", "VERSION_NOT_IN_REGION", "eastus"],
      ["warning", "NOT_FINISHED_BY_HORIZON", undefined],
      ["info", "PLAN_ASSUMPTION", undefined],
    ]);
    expect(plan.findings[0]?.message).toContain("no date is announced");
    expect(plan.findings[2]?.message).toBe("The plan assumes each upgrade takes 15 minutes and none fails.");
    expect(emulator.counters.GET).toBeGreaterThan(0);
    expect([emulator.counters.PUT, emulator.counters.POST]).toEqual([0, 0]);
    expect(emulator.fleet.operationLog()).toEqual([]);
  });

  it("exits 2 naming the member whose cluster ARM does not know", async () => {
    const dir = runSpecDir({
      members: [{ name: "eu-1", clusterResourceId: id("eu-1") }, { name: "gone", clusterResourceId: id("gone") }],
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    });
    let stderr = "";
    const code = await planCommand(join(dir, "run.yaml"), {}, { stdout: () => undefined, stderr: (t) => (stderr += t) });
    expect(code).toBe(2);
    expect(stderr).toMatch(/run\.yaml: members\[1\]\.clusterResourceId: cannot read the cluster: .*gone.* \(\w+\)\n$/);
  });

  it("assumes, and says, when an operation ARM shows in progress ends", async () => {
    const dir = runSpecDir({
      members: [{ name: "busy-1", clusterResourceId: id("busy-1") }],
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    });
    const now = Date.now();
    let stdout = "";
    expect(await planCommand(join(dir, "run.yaml"), { json: true }, { stdout: (t) => (stdout += t), stderr: () => undefined }, now)).toBe(0);
    const plan = JSON.parse(stdout) as Plan;
    const assumedEnd = new Date(Math.ceil(now / 1000) * 1000 + 15 * 60_000).toISOString().replace(".000Z", "Z");
    expect(plan.members[0]?.predictedStart).toBe(assumedEnd);
    expect(plan.findings).toContainEqual({ severity: "warning", code: "OPERATION_IN_FLIGHT", member: "busy-1", message: expect.stringContaining(`expected to end at ${assumedEnd}`) });
    expect(plan.findings).toContainEqual({ severity: "info", code: "PLAN_ASSUMPTION", member: "busy-1", message: `The backend does not say when the operation in progress on the cluster ends: the plan assumes ${assumedEnd}.` });
  });

  it("names a cluster ARM reports stopped (powerState Stopped) as an error finding", async () => {
    const dir = runSpecDir({
      members: [{ name: "stopped-1", clusterResourceId: id("stopped-1") }, { name: "eu-1", clusterResourceId: id("eu-1") }],
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    });
    let stdout = "";
    expect(await planCommand(join(dir, "run.yaml"), { json: true }, { stdout: (t) => (stdout += t), stderr: () => undefined })).toBe(0);
    const plan = JSON.parse(stdout) as Plan;
    expect(plan.findings.filter((f) => f.code === "CLUSTER_STOPPED")).toEqual([expect.objectContaining({ severity: "error", member: "stopped-1" })]);
  });

  it("names a cluster that upgrades itself (ARM's autoUpgradeProfile), with its channels", async () => {
    const dir = runSpecDir({
      members: [{ name: "auto-1", clusterResourceId: id("auto-1") }, { name: "eu-1", clusterResourceId: id("eu-1") }],
      managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    });
    let stdout = "";
    expect(await planCommand(join(dir, "run.yaml"), { json: true }, { stdout: (t) => (stdout += t), stderr: () => undefined })).toBe(0);
    const plan = JSON.parse(stdout) as Plan;
    expect(plan.findings.filter((f) => f.code === "CLUSTER_AUTO_UPGRADES")).toEqual([
      { severity: "warning", code: "CLUSTER_AUTO_UPGRADES", member: "auto-1", message: expect.stringMatching(/upgradeChannel patch .* and nodeOSUpgradeChannel SecurityPatch/) },
    ]);
  });
});
