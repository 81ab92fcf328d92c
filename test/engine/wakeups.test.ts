/**
 * The engine reacts at the moment something becomes possible (docs/rules.md §3.4: "react at the moment a
 * window opens or a version appears; do not poll on a coarse fixed period").
 */
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/simulation/scenario";
import { simulateScenario } from "../../src/simulation/simulateScenario";

const POOL = "[{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]";

function member(name: string, extra: string): string {
  return `  - {name: ${name}, group: g, region: westeurope, kubernetesVersion: 1.31.2, nodePools: ${POOL}${extra}}`;
}

function dailyWindow(startTime: string): string {
  return `, maintenanceConfigurations: {aksManagedAutoUpgradeSchedule: {maintenanceWindow: {schedule: {daily: {intervalDays: 1}}, startTime: "${startTime}", durationHours: 4}}}`;
}

describe("wake-ups", () => {
  it("starts a Pending member when its window opens even while the group's other slot is busy", async () => {
    // x is tried first (window opens within 4 h) and goes Pending; a starts and runs for a day; b
    // goes Pending until 18:00. x must start at 02:00, not when b's window opens.
    const scenario = parseScenario(`
start: 2026-12-05T00:00:00Z
until: 2026-12-07T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.32.0}]}}
members:
${member("x", dailyWindow("02:00"))}
${member("a", ", simulation: {upgradeMinutes: 1440}")}
${member("b", dailyWindow("18:00"))}
strategy: {stages: [{name: s, groups: [{name: g, maxConcurrency: "2"}]}]}
managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}
`);
    const { result } = await simulateScenario(scenario);
    const starts = Object.fromEntries(result.status.stages[0]!.groups[0]!.members.map((m) => [m.name, m.status.startTime]));
    expect(starts).toEqual({ x: "2026-12-05T02:00:00Z", a: "2026-12-05T00:00:00Z", b: "2026-12-05T18:00:00Z" });
  });

  it("starts a member exactly when its target version appears in its region", async () => {
    const scenario = parseScenario(`
start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.32.0, availableAt: 2026-12-05T07:13:00Z}]}}
members:
${member("a", "")}
strategy: {stages: [{name: s, groups: [{name: g}]}]}
managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}
`);
    const { result } = await simulateScenario(scenario);
    const pending = result.events.find((e) => e.name === "a" && e.to === "Pending");
    expect(pending?.message).toBe("Kubernetes version 1.32.0 is not yet available in region westeurope; expected at 2026-12-05T07:13:00Z.");
    expect(result.status.stages[0]!.groups[0]!.members[0]!.status.startTime).toBe("2026-12-05T07:13:00Z");
  });
});
