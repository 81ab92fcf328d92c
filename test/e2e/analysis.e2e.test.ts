/**
 * Issue 31, Must show: a real-CLI `pulumi up` of a TypeScript program and of a Pulumi YAML program,
 * each with a Prometheus analysis against a real Prometheus. The clusters are the ARM emulator's
 * (`backend.azure`, the emulator credential); Prometheus scrapes the emulator's `/metrics`, where the
 * 3rd cluster's error rate rises after its upgrade. Each `up` fails with the run halted before its last
 * stage: the stack's `status` output names the query, the measured value and the threshold, no member
 * of the last stage was upgraded, and the query header's secret value is nowhere in plain text.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import type { UpdateRunStatus } from "../../src/model/status";
import { EMULATOR_RESOURCE_GROUP, EMULATOR_SUBSCRIPTION } from "../../src/simulation/viaArmEmulator";
import { prometheusBinary, startMeasuredEmulator, type RunningPrometheus } from "../support/prometheus";
import { E2eProject } from "./support/project";
import { REPO_ROOT, realCliAvailable, yamlHostAvailable } from "./support/pulumiCli";

const RUN_TYPE = "fleet-update:index:UpdateRun";
const ORG_ID = "org-S3CR3T-31-e2e";
const binary = prometheusBinary();
if (binary.path === undefined) console.warn(`skipped: the analysis e2e tests (${binary.why})`);

/** The emulator and Prometheus (`startMeasuredEmulator`), and the emulator's certificate in a file. */
async function world(): Promise<{ emulator: ArmEmulator; prometheus: RunningPrometheus; caFile: string; close: () => Promise<void> }> {
  const measured = await startMeasuredEmulator(binary.path as string);
  const caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "e2e-ca-")), "ca.pem");
  fs.writeFileSync(caFile, measured.emulator.certificatePem);
  return {
    emulator: measured.emulator,
    prometheus: measured.prometheus,
    caFile,
    close: async () => {
      await measured.close();
      fs.rmSync(path.dirname(caFile), { recursive: true, force: true });
    },
  };
}

/** A new stack of `project`, its config pointing at the world; the header's value set as a secret. */
async function configure(project: E2eProject, w: Awaited<ReturnType<typeof world>>): Promise<void> {
  for (const args of [
    ["stack", "init", project.stackName],
    ["config", "set", "endpoint", w.emulator.url],
    ["config", "set", "caFile", w.caFile],
    ["config", "set", "prometheus", w.prometheus.address],
    ["config", "set", "--secret", "orgId", ORG_ID],
  ]) {
    const done = await project.cli(args);
    expect(done.code, done.stderr).toBe(0);
  }
}

/** Every file under a folder, symlinks not followed, as text. */
function filesUnder(folder: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const file = path.join(folder, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) out.push(...filesUnder(file));
    else if (entry.isFile()) out.push([file, fs.readFileSync(file, "utf8")]);
  }
  return out;
}

/** What `up` must have done: halted at early's soak on c3's 0.31; rest untouched; the secret nowhere. */
async function expectHalted(project: E2eProject, projectDir: string, up: { code: number | null; stdout: string; stderr: string }, emulator: ArmEmulator): Promise<void> {
  expect(up.code, `${up.stdout.slice(-3000)}\n${up.stderr.slice(-3000)}`).not.toBe(0);
  expect(up.stdout + up.stderr).toMatch(/AnalysisFailed|Analysis 'error-rate' failed/);
  const exported = await project.cli(["stack", "export"]);
  expect(exported.code, exported.stderr).toBe(0);
  const run = (JSON.parse(exported.stdout) as { deployment: { resources: Array<{ type: string; outputs: Record<string, unknown> }> } }).deployment.resources.find((r) => r.type === RUN_TYPE || (r.type === "pulumi-nodejs:dynamic:Resource" && r.outputs.status !== undefined))!;
  const status = run.outputs.status as UpdateRunStatus;
  expect(status.status.state).toBe("Failed");
  expect(status.stages[1]?.status.error?.code).toBe("AnalysisFailed");
  expect(status.stages[1]?.status.error?.message).toContain(`cluster_error_rate{cluster="c3"} = 0.31 for member c3, not result < 0.05`);
  expect(status.stages[1]?.analysisRuns?.find((a) => a.kind === "soak")).toMatchObject({ phase: "Failed", query: 'cluster_error_rate{cluster="{{member.name}}"}', successCondition: "result < 0.05" });
  expect(status.stages[2]?.status.state).toBe("NotStarted");
  expect(emulator.fleet.toState().clusters.c4?.operations).toEqual([]);
  for (const [where, text] of [
    ["`pulumi up`'s output", up.stdout + up.stderr],
    ["`pulumi stack export`", exported.stdout],
    ["the file backend's state", fs.readFileSync(project.stateFile(), "utf8")],
    // The run's journal among them (`.fleet-update/runs`).
    ...filesUnder(project.path(projectDir)),
  ] as ReadonlyArray<readonly [string, string]>) {
    expect(text.includes(ORG_ID), `${where} holds the header's value`).toBe(false);
  }
}

describe.skipIf(binary.path === undefined || !realCliAvailable())("pulumi up of a TypeScript program with a Prometheus analysis", () => {
  let project: E2eProject;
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world();
    project = new E2eProject({
      files: ["package.json", "tsconfig.json", "test/e2e/programs/analysed"],
      projectDir: "test/e2e/programs/analysed",
      program: "test/e2e/programs/analysed/index.ts",
      main: "test/e2e/programs/analysed",
      projectName: "fleet-update-e2e-analysed",
    });
    await configure(project, w);
  }, 300_000);
  afterAll(async () => {
    project?.cleanup();
    await w?.close();
  });

  it("up fails with the run halted before its last stage, the status naming query, value and threshold", async () => {
    const up = await project.cli(["up", "--yes", "--skip-preview"]);
    await expectHalted(project, "test/e2e/programs/analysed", up, w.emulator);
  }, 600_000);
});

describe.skipIf(binary.path === undefined || !yamlHostAvailable())("pulumi up of a Pulumi YAML program with a Prometheus analysis (the provider plugin)", () => {
  const PROJECT = "proj";
  let project: E2eProject;
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world();
    project = new E2eProject({ files: [], projectDir: PROJECT, program: path.join(PROJECT, "Pulumi.yaml"), main: PROJECT, projectName: "fleet-update-e2e-analysed-yaml" });
    fs.mkdirSync(project.path(PROJECT, "node_modules"), { recursive: true });
    fs.symlinkSync(REPO_ROOT, project.path(PROJECT, "node_modules", "pulumi-fleet-update"), "junction");
    const id = (name: string) => `/subscriptions/${EMULATOR_SUBSCRIPTION}/resourceGroups/${EMULATOR_RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/${name}`;
    fs.writeFileSync(
      project.path(PROJECT, "Pulumi.yaml"),
      `name: fleet-update-e2e-analysed-yaml
runtime: yaml
plugins:
  providers:
    - name: fleet-update
      path: node_modules/pulumi-fleet-update/bin
config:
  endpoint: { type: string }
  caFile: { type: string }
  prometheus: { type: string }
  orgId: { type: string, secret: true }
resources:
  k8s-1-32:
    type: ${RUN_TYPE}
    properties:
      backend:
        azure:
          endpoint: \${endpoint}
          trustedCaFile: \${caFile}
          credential: emulator
          pollIntervalSeconds: { initial: 1, steady: 1 }
      members:
        - { name: c1, group: canary, clusterResourceId: "${id("c1")}" }
        - { name: c2, group: early, clusterResourceId: "${id("c2")}" }
        - { name: c3, group: early, clusterResourceId: "${id("c3")}" }
        - { name: c4, group: rest, clusterResourceId: "${id("c4")}" }
      strategy:
        stages:
          - { name: canary, groups: [{ name: canary }], afterStageWaitInSeconds: 8 }
          - { name: early, groups: [{ name: early }], afterStageWaitInSeconds: 8 }
          - { name: rest, groups: [{ name: rest }], afterStageWaitInSeconds: 8 }
      managedClusterUpdate:
        upgrade: { type: ControlPlaneOnly, kubernetesVersion: 1.32.0 }
      analysis:
        templates:
          - name: error-rate
            provider:
              prometheus:
                address: \${prometheus}
                query: 'cluster_error_rate{cluster="{{member.name}}"}'
                headers:
                  - key: X-Scope-OrgID
                    value: \${orgId}
            initialDelay: 4s
            interval: 2s
            successCondition: result < 0.05
        stages:
          - { name: canary, preCheck: [error-rate], soak: [error-rate] }
          - { name: early, preCheck: [error-rate], soak: [error-rate] }
          - { name: rest, preCheck: [error-rate], soak: [error-rate] }
      timeoutMinutes: 10
outputs:
  status: \${k8s-1-32.status}
`,
    );
    await configure(project, w);
  }, 300_000);
  afterAll(async () => {
    project?.cleanup();
    await w?.close();
  });

  it("up fails with the run halted before its last stage, the status naming query, value and threshold", async () => {
    const up = await project.cli(["up", "--yes", "--skip-preview"]);
    await expectHalted(project, PROJECT, up, w.emulator);
  }, 600_000);
});
