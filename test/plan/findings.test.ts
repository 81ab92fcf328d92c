/**
 * Pre-flight findings: each code appears for a scenario that should raise it, naming the member or
 * region, and not for the same scenario with the cause removed.
 */
import { describe, expect, it } from "vitest";
import { validateScenario, type Scenario } from "../../src/simulation/scenario";
import type { Finding, FindingCode } from "../../src/plan/types";
import { planScenario } from "./support";

const OLD_IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const NEW_IMAGE = "AKSUbuntu-2204gen2containerd-202611.24.0";

type Raw = Record<string, unknown>;

/** One region, members in group `g` of one stage, a Full upgrade to 1.32.0 with the latest images. */
function scenario(members: Raw[], extra: Raw = {}): Scenario {
  return validateScenario({
    start: "2026-12-05T00:00:00Z",
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.31.5" }, { version: "1.32.0" }], nodeImages: [{ version: OLD_IMAGE }, { version: NEW_IMAGE }] } },
    members: members.map((m, i) => ({
      name: `m${i + 1}`,
      group: "g",
      region: "westeurope",
      kubernetesVersion: "1.31.2",
      nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: OLD_IMAGE }],
      ...m,
    })),
    strategy: { stages: [{ name: "all", groups: [{ name: "g" }] }] },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Latest" } },
    ...extra,
  });
}

async function findingsOf(s: Scenario, code: FindingCode): Promise<Finding[]> {
  return (await planScenario(s)).findings.filter((f) => f.code === code);
}

const pools = (version: string, image = OLD_IMAGE) => [{ name: "system", orchestratorVersion: version, nodeImageVersion: image }];
const controlPlaneOnly = { managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } } };

describe("plan findings", () => {
  it("UPGRADE_PATH_MINOR_SKIPPED: a control plane two minor versions behind the target", async () => {
    const found = await findingsOf(scenario([{ kubernetesVersion: "1.30.5", nodePools: pools("1.30.5") }, {}]), "UPGRADE_PATH_MINOR_SKIPPED");
    expect(found).toEqual([{ severity: "error", code: "UPGRADE_PATH_MINOR_SKIPPED", member: "m1", message: expect.stringContaining("from 1.30.5 to 1.32.0 skips a minor version") }]);
    expect(await findingsOf(scenario([{}, {}]), "UPGRADE_PATH_MINOR_SKIPPED")).toEqual([]);
  });

  it("DOWNGRADE: an error when AKS would refuse it, a warning when the member is skipped as newer", async () => {
    const refused = await findingsOf(scenario([{ kubernetesVersion: "1.33.0", nodePools: pools("1.31.2") }]), "DOWNGRADE");
    expect(refused).toEqual([{ severity: "error", code: "DOWNGRADE", member: "m1", message: expect.stringContaining("from 1.33.0 to 1.32.0 is a downgrade") }]);
    const skipped = await findingsOf(scenario([{ kubernetesVersion: "1.33.0", nodePools: pools("1.31.2") }], controlPlaneOnly), "DOWNGRADE");
    expect(skipped).toEqual([{ severity: "warning", code: "DOWNGRADE", member: "m1", message: expect.stringContaining("newer than the target 1.32.0: it is skipped, never moved back") }]);
    expect(await findingsOf(scenario([{}]), "DOWNGRADE")).toEqual([]);
  });

  it("POOL_ABOVE_CONTROL_PLANE: a control-plane-only upgrade that leaves a pool above the control plane", async () => {
    const s = (pool: string) => scenario([{ nodePools: pools(pool) }], { managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.31.5" } } });
    expect(await findingsOf(s("1.32.0"), "POOL_ABOVE_CONTROL_PLANE")).toEqual([{ severity: "error", code: "POOL_ABOVE_CONTROL_PLANE", member: "m1", message: expect.stringContaining("above the control plane's 1.31.5") }]);
    expect(await findingsOf(s("1.31.2"), "POOL_ABOVE_CONTROL_PLANE")).toEqual([]);
  });

  it("VERSION_NOT_IN_REGION: when the target reaches the region, or that no date is announced", async () => {
    const region = (versions: Raw[]) => ({ regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, ...versions], nodeImages: [{ version: NEW_IMAGE }] } } });
    const late = await findingsOf(scenario([{}, {}], region([{ version: "1.32.0", availableAt: "2026-12-07T06:00:00Z" }])), "VERSION_NOT_IN_REGION");
    expect(late).toEqual([{ severity: "warning", code: "VERSION_NOT_IN_REGION", region: "westeurope", message: "Kubernetes 1.32.0 reaches region westeurope at 2026-12-07T06:00:00Z: 2 members (m1, m2) wait until then." }]);
    const never = await findingsOf(scenario([{}], region([])), "VERSION_NOT_IN_REGION");
    expect(never).toEqual([{ severity: "error", code: "VERSION_NOT_IN_REGION", region: "westeurope", message: expect.stringContaining("is not offered in region westeurope and no date is announced") }]);
    expect(await findingsOf(scenario([{}]), "VERSION_NOT_IN_REGION")).toEqual([]);
  });

  it("NODE_IMAGE_NOT_IN_REGION: a Custom image the region does not offer yet", async () => {
    const custom = (version: string) => ({ managedClusterUpdate: { upgrade: { type: "NodeImageOnly" }, nodeImageSelection: { type: "Custom", customNodeImageVersions: [{ version }] } } });
    const missing = await findingsOf(scenario([{}], custom("AKSUbuntu-2204gen2containerd-202612.01.0")), "NODE_IMAGE_NOT_IN_REGION");
    expect(missing).toEqual([{ severity: "error", code: "NODE_IMAGE_NOT_IN_REGION", region: "westeurope", message: expect.stringContaining("Node image AKSUbuntu-2204gen2containerd-202612.01.0 is not offered in region westeurope") }]);
    expect(await findingsOf(scenario([{}], custom(NEW_IMAGE)), "NODE_IMAGE_NOT_IN_REGION")).toEqual([]);
  });

  it("MEMBER_IN_NO_STAGE: a member whose group no stage holds", async () => {
    const found = await findingsOf(scenario([{}, { group: "orphans" }]), "MEMBER_IN_NO_STAGE");
    expect(found).toEqual([{ severity: "warning", code: "MEMBER_IN_NO_STAGE", member: "m2", message: expect.stringContaining("group 'orphans' is in no stage") }]);
    expect(await findingsOf(scenario([{}, {}]), "MEMBER_IN_NO_STAGE")).toEqual([]);
  });

  it("EMPTY_GROUP: a strategy group no member belongs to (accepted, as Fleet accepts it), named, with the members left out", async () => {
    const typo = { strategy: { stages: [{ name: "all", groups: [{ name: "g" }, { name: "gg" }] }] } };
    const found = await findingsOf(scenario([{}, { group: "g2" }], typo), "EMPTY_GROUP");
    expect(found).toEqual([
      {
        severity: "warning",
        code: "EMPTY_GROUP",
        group: "gg",
        message: "In stage 'all' (strategy.stages[0].groups[1]), no member belongs to group 'gg': the group ends Skipped. A typo would leave clusters out of the run. Members left out of the run: m2 (MEMBER_IN_NO_STAGE).",
      },
    ]);
    const plan = await planScenario(scenario([{}, { group: "g2" }], typo));
    expect(plan.run.predictedState).toBe("Completed");
    // Chosen by label and matching nobody: the same finding, saying so.
    const byLabel = { strategy: { stages: [{ name: "all", groups: [{ name: "g" }, { name: "qa", memberSelector: { byLabel: "env=qa" } }] }] } };
    expect((await findingsOf(scenario([{}], byLabel), "EMPTY_GROUP")).map((f) => f.message)).toEqual([
      "In stage 'all' (strategy.stages[0].groups[1]), group 'qa' selects no member (memberSelector 'env=qa'): the group ends Skipped. A typo would leave clusters out of the run.",
    ]);
    expect(await findingsOf(scenario([{}, {}]), "EMPTY_GROUP")).toEqual([]);
  });

  it("CLUSTER_STOPPED: a stopped cluster, whose member is predicted to fail", async () => {
    const plan = await planScenario(scenario([{ simulation: { powerState: "Stopped" } }]));
    expect(plan.findings.filter((f) => f.code === "CLUSTER_STOPPED")).toEqual([{ severity: "error", code: "CLUSTER_STOPPED", member: "m1", message: expect.stringContaining("is stopped") }]);
    expect(plan.members[0]?.predictedState).toBe("Failed");
    expect(await findingsOf(scenario([{ simulation: { powerState: "Running" } }]), "CLUSTER_STOPPED")).toEqual([]);
  });

  it("CLUSTER_AUTO_UPGRADES: a cluster that upgrades itself (upgradeChannel not none, a re-imaging nodeOSUpgradeChannel), naming the member and the channel", async () => {
    const found = await findingsOf(scenario([{ autoUpgradeProfile: { upgradeChannel: "patch" } }, { autoUpgradeProfile: { nodeOSUpgradeChannel: "NodeImage" } }, {}]), "CLUSTER_AUTO_UPGRADES");
    expect(found).toEqual([
      { severity: "warning", code: "CLUSTER_AUTO_UPGRADES", member: "m1", message: expect.stringContaining("upgradeChannel patch") },
      { severity: "warning", code: "CLUSTER_AUTO_UPGRADES", member: "m2", message: expect.stringContaining("nodeOSUpgradeChannel NodeImage") },
    ]);
    const quiet = scenario([{ autoUpgradeProfile: { upgradeChannel: "none", nodeOSUpgradeChannel: "Unmanaged" } }, { autoUpgradeProfile: { nodeOSUpgradeChannel: "None" } }]);
    expect(await findingsOf(quiet, "CLUSTER_AUTO_UPGRADES")).toEqual([]);
  });

  it("OPERATION_IN_FLIGHT: another operation still running when the run starts", async () => {
    const found = await findingsOf(scenario([{ simulation: { busyUntil: "2026-12-05T02:00:00Z" } }]), "OPERATION_IN_FLIGHT");
    expect(found).toEqual([{ severity: "warning", code: "OPERATION_IN_FLIGHT", member: "m1", message: expect.stringContaining("expected to end at 2026-12-05T02:00:00Z") }]);
    expect(await findingsOf(scenario([{ simulation: { busyUntil: "2026-12-04T23:00:00Z" } }]), "OPERATION_IN_FLIGHT")).toEqual([]);
  });

  it("NODE_IMAGE_STALE: an image more than 90 days old when its member is reached, not when the run starts", async () => {
    // Built 2026-09-10: 86 days old at the start, 91 when a window first opens on 2026-12-10.
    const image = "AKSUbuntu-2204gen2containerd-202609.10.0";
    const window = { aksManagedAutoUpgradeSchedule: { maintenanceWindow: { schedule: { daily: { intervalDays: 1 } }, startTime: "00:00", durationHours: 4, startDate: "2026-12-10" } } };
    const s = scenario([{ nodePools: pools("1.31.2", image) }, { nodePools: pools("1.31.2", image), maintenanceConfigurations: window }], controlPlaneOnly);
    const found = await findingsOf(s, "NODE_IMAGE_STALE");
    expect(found).toEqual([{ severity: "warning", code: "NODE_IMAGE_STALE", member: "m2", message: expect.stringContaining("built 2026-09-10: 91 days old when the member is reached at 2026-12-10T00:00:00Z") }]);
    // A Full upgrade gives the pools the newest image first: nothing stale.
    expect(await findingsOf(scenario([{ nodePools: pools("1.31.2", image) }, { nodePools: pools("1.31.2", image), maintenanceConfigurations: window }]), "NODE_IMAGE_STALE")).toEqual([]);
  });

  it("GATE_AWAITS_APPROVAL: a gate nobody approves holds everything behind it", async () => {
    const gated = { strategy: { stages: [{ name: "all", groups: [{ name: "g" }], beforeGates: [{ type: "Approval", displayName: "Change board" }] }] } };
    const plan = await planScenario(scenario([{}], gated));
    expect(plan.findings.filter((f) => f.code === "GATE_AWAITS_APPROVAL")).toEqual([
      { severity: "warning", code: "GATE_AWAITS_APPROVAL", message: expect.stringContaining("gate 'all/before/0' (Change board)") },
    ]);
    expect(plan.members[0]?.predictedStart).toBeUndefined();
    expect(await findingsOf(scenario([{}]), "GATE_AWAITS_APPROVAL")).toEqual([]);
  });

  it("NOT_FINISHED_BY_HORIZON: members still waiting when the plan stops looking", async () => {
    const window = { aksManagedAutoUpgradeSchedule: { maintenanceWindow: { schedule: { daily: { intervalDays: 1 } }, startTime: "12:00", durationHours: 4 } } };
    const found = await findingsOf(scenario([{}, { maintenanceConfigurations: window }], { until: "2026-12-05T06:00:00Z" }), "NOT_FINISHED_BY_HORIZON");
    expect(found).toEqual([{ severity: "warning", code: "NOT_FINISHED_BY_HORIZON", message: "1 of 2 members are not finished by 2026-12-05T06:00:00Z (m2)." }]);
    expect(await findingsOf(scenario([{}, { maintenanceConfigurations: window }], { until: "2026-12-06T00:00:00Z" }), "NOT_FINISHED_BY_HORIZON")).toEqual([]);
  });

  it("PLAN_ASSUMPTION: what the plan leaves out of a scenario (failures, user actions) is said", async () => {
    const s = scenario([{ simulation: { fail: { code: "UpgradeFailed", message: "drain timed out" } } }, {}], { actions: [{ at: "2026-12-05T01:00:00Z", stop: true }] });
    const plan = await planScenario(s);
    expect(plan.findings.filter((f) => f.code === "PLAN_ASSUMPTION")).toEqual([
      { severity: "info", code: "PLAN_ASSUMPTION", message: "The plan assumes nothing fails and nobody acts: it leaves out simulated failures of m1 and 1 user action." },
    ]);
    expect(plan.members.map((m) => m.predictedState)).toEqual(["Completed", "Completed"]);
    expect(await findingsOf(scenario([{}, {}]), "PLAN_ASSUMPTION")).toEqual([]);
  });

  it("lists errors first, then warnings, then information", async () => {
    const s = scenario([{ kubernetesVersion: "1.30.5", nodePools: pools("1.30.5"), simulation: { busyUntil: "2026-12-05T02:00:00Z", fail: { code: "X", message: "x" } } }, { group: "orphans" }]);
    const severities = (await planScenario(s)).findings.map((f) => f.severity);
    expect(severities).toEqual(["error", "warning", "warning", "info"]);
  });
});
