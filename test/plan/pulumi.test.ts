/**
 * The plan in Pulumi, through `@pulumi/pulumi`'s own dynamic-provider host (as the Pulumi engine
 * drives it): Check prints the plan's summary (stage ETAs in order, findings) without failing, and a
 * created run carries the plan as its `plan` output, kept as it was by later updates.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpdateRun } from "../../src/pulumi";
import type { Plan } from "../../src/plan/types";
import { captureDynamicInputs } from "../pulumi/support/captureInputs";
import { startProviderHost, type PropertyMap, type ProviderHost } from "../pulumi/support/providerHost";

const OLD_IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const pool = (version: string) => `[{name: system, orchestratorVersion: ${version}, nodeImageVersion: ${OLD_IMAGE}}]`;
const FLEET = `regions:
  westeurope:
    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]
    nodeImages: [{version: ${OLD_IMAGE}}, {version: AKSUbuntu-2204gen2containerd-202611.24.0}]
members:
  - {name: canary-1, region: westeurope, kubernetesVersion: 1.31.2, nodePools: ${pool("1.31.2")}}
  - {name: eu-1, region: westeurope, kubernetesVersion: 1.31.2, nodePools: ${pool("1.31.2")}}
  - {name: eu-2, region: westeurope, kubernetesVersion: 1.31.2, nodePools: ${pool("1.31.2")}, simulation: {upgradeMinutes: 20}}
  - {name: old-1, region: westeurope, kubernetesVersion: 1.30.5, nodePools: ${pool("1.30.5")}}
`;

let runProvider = "";
let host: ProviderHost;

function fleetDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plan-pulumi-"));
  fs.writeFileSync(path.join(dir, "fleet.yaml"), FLEET);
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
    ],
    strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 600 }, { name: "prod", groups: [{ name: "prod" }] }] },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    ...overrides,
  } as PropertyMap;
}

beforeAll(async () => {
  const captured = await captureDynamicInputs(() => {
    new UpdateRun("k8s-1-32", { backend: { simulator: { fleetFile: "fleet.yaml" } }, members: [{ name: "eu-1" }], managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } } });
  });
  runProvider = captured[0]!.provider;
  host = await startProviderHost();
  await host.configure();
}, 60_000);

afterAll(async () => {
  await host?.stop();
});

const ISO = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z";

describe("the plan in Pulumi", () => {
  it("Check prints the plan's summary: when the run ends, each stage's ETA in order, the findings; and still passes", async () => {
    const dir = fleetDir();
    const inputs = runInputs(dir, { members: [...(runInputs(dir).members as PropertyMap[]), { name: "old-1", group: "prod" }] });
    host.clearLogs();
    const { failures } = await host.check("k8s-1-32", {}, inputs);
    expect(failures).toEqual([]);
    await host.waitForLog(new RegExp(`^\\[k8s-1-32\\] plan: 4 members from ${ISO}; Failed at ${ISO}$`));
    const lines = host.logs.map((l) => l.message).filter((m) => m.startsWith("[k8s-1-32] plan:"));
    expect(lines[1]).toMatch(new RegExp(`^\\[k8s-1-32\\] plan: stage canary: ${ISO} → ${ISO} \\(1 member, Completed\\)$`));
    expect(lines[2]).toMatch(new RegExp(`^\\[k8s-1-32\\] plan: stage prod: ${ISO} → ${ISO} \\(3 members, Failed\\)$`));
    expect(lines[3]).toMatch(/^\[k8s-1-32\] plan: error UPGRADE_PATH_MINOR_SKIPPED old-1: .*from 1\.30\.5 to 1\.32\.0 skips a minor version/);
    // Check never touches the fleet: no state file appears.
    expect(fs.existsSync(path.join(dir, "fleet.yaml.state.json"))).toBe(false);
  });

  it("Check (pulumi preview) names a strategy group no member belongs to, and passes: the run is accepted, that group ends Skipped", async () => {
    const dir = fleetDir();
    host.clearLogs();
    const strategy = { stages: [{ name: "canary", groups: [{ name: "canary" }] }, { name: "prod", groups: [{ name: "prod" }, { name: "prod-us" }] }] };
    const { failures } = await host.check("k8s-1-32", {}, runInputs(dir, { strategy }));
    expect(failures).toEqual([]);
    await host.waitForLog(/^\[k8s-1-32\] plan: warning EMPTY_GROUP prod-us: In stage 'prod' \(strategy\.stages\[1\]\.groups\[1\]\), no member belongs to group 'prod-us': the group ends Skipped\./);
    const { properties } = await host.create("k8s-1-32", runInputs(dir, { strategy }));
    const status = properties.status as unknown as { status: { state: string }; stages: Array<{ groups: Array<{ name: string; status: { state: string } }> }> };
    expect(status.status.state).toBe("Completed");
    expect(status.stages[1]?.groups.map((g) => [g.name, g.status.state])).toEqual([
      ["prod", "Completed"],
      ["prod-us", "Skipped"],
    ]);
    expect((properties.plan as unknown as Plan).findings.filter((f) => f.code === "EMPTY_GROUP").map((f) => f.group)).toEqual(["prod-us"]);
  });

  it("Check says in one line why there is no plan, and does not fail", async () => {
    const dir = fleetDir();
    host.clearLogs();
    const missing = await host.check("k8s-1-32", {}, runInputs(dir, { backend: { simulator: { fleetFile: path.join(dir, "nowhere.yaml") } } }));
    expect(missing.failures).toEqual([]);
    await host.waitForLog(/^\[k8s-1-32\] plan: not computed: backend\.simulator\.fleetFile: cannot read .*nowhere\.yaml/);
    const many = Array.from({ length: 2001 }, (_, i) => ({ name: `m-${i}`, group: "prod" }));
    await host.check("k8s-1-32", {}, runInputs(dir, { members: many, strategy: { stages: [{ name: "prod", groups: [{ name: "prod" }] }] } }));
    await host.waitForLog("[k8s-1-32] plan: not computed: 2001 members is more than the 2000 planned during a preview; run `fleet-update plan`.");
  });

  it("a created run has the plan as its `plan` output, predicting what then happened; updates keep it", async () => {
    const dir = fleetDir();
    const { id, properties } = await host.create("k8s-1-32", runInputs(dir));
    const plan = properties.plan as unknown as Plan;
    expect(Object.keys(plan).sort()).toEqual(["findings", "horizon", "members", "plannedFrom", "run", "selectedNodeImageVersions", "stages"]);
    expect(plan.members.map((m) => [m.name, m.stage, m.group, m.priorityClass, m.predictedState])).toEqual([
      ["canary-1", "canary", "canary", "noWindow", "Completed"],
      ["eu-1", "prod", "prod", "noWindow", "Completed"],
      ["eu-2", "prod", "prod", "noWindow", "Completed"],
    ]);
    // Predicted durations: 10 minutes, the 10-minute wait, then 10 and 20 minutes one after the other.
    const at = (iso: string | undefined) => (Date.parse(iso as string) - Date.parse(plan.plannedFrom)) / 60_000;
    expect(plan.members.map((m) => [at(m.predictedStart), at(m.predictedEnd)])).toEqual([[0, 10], [20, 30], [30, 50]]);
    expect(plan.run).toMatchObject({ predictedState: "Completed" });
    const status = properties.status as unknown as { status: { state: string } };
    expect(status.status.state).toBe("Completed");

    const updated = await host.update(id, "k8s-1-32", properties, runInputs(dir, { timeoutMinutes: 30 }));
    expect(updated.properties.plan).toEqual(properties.plan);
  });
});
