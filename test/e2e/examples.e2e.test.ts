/**
 * The other examples through the real Pulumi CLI, each from its own folder: `examples/promotion`
 * (chained runs through outputs), `examples/aks` (the Azure backend against the ARM emulator the
 * test starts) and `examples/fleet-manager` (the run executed by the emulator's Fleet Manager, held
 * at an approval gate until the approval is committed to config); and a broken strategy, which
 * `pulumi preview` refuses naming the property path.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { parseOrThrow } from "../../src/model/issues";
import { FleetSchema } from "../../src/model/fleet";
import type { UpdateRunStatus } from "../../src/model/status";
import { FLEET, RESOURCE_GROUP, SUBSCRIPTION, groupedFleet } from "../emulator/fleetHelpers";
import { E2eProject } from "./support/project";
import { realCliAvailable } from "./support/pulumiCli";

interface Summary { state: string; outcome: string; members: Record<string, number> }

describe.skipIf(!realCliAvailable())("examples through the real Pulumi CLI", () => {
  const projects: E2eProject[] = [];
  afterAll(() => projects.forEach((p) => p.cleanup()));

  it("examples/promotion: staging, its retry and production, chained through outputs", async () => {
    const project = new E2eProject({ files: ["examples/promotion"], projectDir: "examples/promotion", program: "examples/promotion/index.ts", main: "examples/promotion", projectName: "fleet-update-promotion" });
    projects.push(project);
    const up = await project.run("up");
    expect(up.ok, `${up.message}\n${up.output.slice(-3000)}`).toBe(true);
    const o = up.outputs as Record<string, unknown>;
    // Staging tolerates its failure; the retry takes exactly that member with staging's images;
    // production gets those same images.
    expect(o.stagingSummary).toMatchObject({ state: "Completed", outcome: "CompletedWithFailures", failureCount: 1 });
    expect(o.stagingFailed).toEqual([{ name: "staging-2", group: "staging" }]);
    expect(o.retrySummary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 1, Completed: 1 } });
    expect(o.productionSummary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 4, Completed: 4 } });
    const production = o.productionStatus as { nodeImageSelection: { selectedNodeImageVersions: unknown } };
    expect(production.nodeImageSelection.selectedNodeImageVersions).toEqual(o.stagingApplied);
    const runs = project.resources("pulumi-nodejs:dynamic:Resource").map((r) => r.urn.split("::").pop()).sort();
    expect(runs).toEqual(["production", "staging", "staging-retry"]);
  }, 600_000);

  describe("examples/aks against the ARM emulator", () => {
    const SUBSCRIPTION = "22222222-3333-4444-5555-666666666666";
    const NAMES = ["canary-1", "prod-eu-1", "prod-eu-2", "prod-us-1"];
    let emulator: ArmEmulator;
    let project: E2eProject;

    beforeAll(async () => {
      const pool = { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: "AKSUbuntu-2204gen2containerd-202610.01.0" };
      const fleet = parseOrThrow(FleetSchema, {
        regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }] } },
        members: NAMES.map((name) => ({ name, region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [pool] })),
      });
      emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 20, subscriptionId: SUBSCRIPTION, resourceGroup: "prod" });
      project = new E2eProject({ files: ["examples/aks"], projectDir: "examples/aks", program: "examples/aks/index.ts", main: "examples/aks", projectName: "aks-fleet-update" });
      projects.push(project);
      fs.writeFileSync(project.path("emulator-ca.pem"), emulator.certificatePem);
    }, 120_000);

    afterAll(async () => {
      await emulator?.close();
    });

    it("upgrades the clusters named in config, canary first, through ARM", async () => {
      const ids = NAMES.map((n) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/prod/providers/Microsoft.ContainerService/managedClusters/${n}`);
      const config = {
        clusterIds: JSON.stringify(ids),
        kubernetesVersion: "1.32.0",
        armEndpoint: emulator.url,
        trustedCaFile: project.path("emulator-ca.pem"),
        credential: "emulator",
        canaryWaitSeconds: "0",
        pollSeconds: "0.05",
      };
      const up = await project.run("up", { config });
      expect(up.ok, `${up.message}\n${up.output.slice(-3000)}`).toBe(true);
      expect(up.outputs!.summary as Summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 4, Completed: 4 } });
      expect(emulator.fleet.operationLog().map((op) => op.member).sort()).toEqual([...NAMES].sort());
      // The run's journal lives in the project, not wherever the CLI happened to start.
      expect(fs.existsSync(path.join(project.dir, "examples", "aks", ".fleet-update", "runs", "aks-upgrade.json"))).toBe(true);
    }, 600_000);
  });

  describe("examples/fleet-manager against the emulator's Fleet Manager", () => {
    const fleetId = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/fleets/${FLEET}`;
    let emulator: ArmEmulator;
    let project: E2eProject;
    let config: Record<string, string>;

    beforeAll(async () => {
      emulator = await startArmEmulator({ fleet: groupedFleet(), msPerSimulatedMinute: 20, throttling: false });
      project = new E2eProject({ files: ["examples/fleet-manager"], projectDir: "examples/fleet-manager", program: "examples/fleet-manager/index.ts", main: "examples/fleet-manager", projectName: "fleet-update-fleet-manager" });
      projects.push(project);
      fs.writeFileSync(project.path("emulator-ca.pem"), emulator.certificatePem);
      config = { fleetId, kubernetesVersion: "1.32.0", armEndpoint: emulator.url, trustedCaFile: project.path("emulator-ca.pem"), credential: "emulator", pollSeconds: "0.05" };
    }, 120_000);

    afterAll(async () => {
      await emulator?.close();
    });

    it("up waits at the canary's gate; up with the approval in config completes the same fleet run; destroy removes run and strategy", async () => {
      const gates = (status: unknown) => ((status as UpdateRunStatus).stages[0]?.afterGates ?? []).map((g) => `${g.gateId} ${g.status.state}`);
      const first = await project.run("up", { config });
      expect(first.ok, `${first.message}\n${first.output.slice(-3000)}`).toBe(true);
      expect((first.outputs!.summary as Summary).state).toBe("Pending");
      expect(gates(first.outputs!.status)).toEqual(["canary/after/0 Pending"]);
      expect(first.output).toContain("Waiting for approval of 'canary/after/0'");
      expect(emulator.fleet.operationLog().map((op) => op.member)).toEqual(["canary-1"]);

      const approved = await project.run("up", { config: { ...config, approvals: JSON.stringify(["canary/after/0"]) } });
      expect(approved.ok, `${approved.message}\n${approved.output.slice(-3000)}`).toBe(true);
      expect(approved.outputs!.summary as Summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 5, Completed: 5 } });
      expect(gates(approved.outputs!.status)).toEqual(["canary/after/0 Completed"]);
      expect(approved.outputs!.fleetRunId).toBe(`${fleetId}/updateRuns/k8s-upgrade`);
      const log = emulator.fleet.operationLog().map((op) => op.member);
      expect([...log].sort()).toEqual(["canary-1", "dev-1", "prod-1", "prod-2", "prod-3"]);
      // One run, created once from the strategy kept in the fleet; the gate approved by one PATCH.
      const writes = emulator.requests.filter((r) => r.method !== "GET" && r.status < 300).map((r) => `${r.method} ${r.path.slice(fleetId.length)}`);
      expect(writes.filter((w) => w.startsWith("PUT /updateRuns/"))).toEqual(["PUT /updateRuns/k8s-upgrade"]);
      expect(writes.filter((w) => w.startsWith("PUT /updateStrategies/"))).toEqual(["PUT /updateStrategies/rollout"]);
      expect(writes.filter((w) => w.startsWith("PATCH /gates/"))).toHaveLength(1);

      const destroyed = await project.run("destroy", { config });
      expect(destroyed.ok, `${destroyed.message}\n${destroyed.output.slice(-3000)}`).toBe(true);
      expect(emulator.requests.filter((r) => r.method === "DELETE" && r.status < 300).map((r) => r.path.slice(fleetId.length)).sort()).toEqual(["/updateRuns/k8s-upgrade", "/updateStrategies/rollout"]);
    }, 600_000);
  });

  it("a broken strategy: preview fails naming the property path, and nothing touches the fleet", async () => {
    const dir = "test/e2e/programs/broken";
    const project = new E2eProject({ files: [dir, ["examples/quickstart/fleet.yaml", `${dir}/fleet.yaml`]], projectDir: dir, program: `${dir}/index.ts`, main: dir, projectName: "fleet-update-e2e-broken" });
    projects.push(project);
    const preview = await project.run("preview");
    expect(preview.ok).toBe(false);
    expect(preview.output).toMatch(/stages\[1\]\.groups\[1\]\.name/);
    expect(preview.output).toMatch(/listed twice/);
    // No fleet state, lease or journal was written beside the fleet.
    expect(fs.readdirSync(project.path(dir)).filter((f) => f.startsWith("fleet.yaml")).sort()).toEqual(["fleet.yaml"]);
  }, 300_000);
});
