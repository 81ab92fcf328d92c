/**
 * Steering a run through the program, with the real Pulumi CLI: a gate holds production, the run is
 * stopped by config and `pulumi up`, then resumed with the approval; a secret in a member's health
 * probe never reaches the state file or the CLI's output in plain text.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2eProject, type OperationResult } from "./support/project";
import { realCliAvailable } from "./support/pulumiCli";
import { readFleetState } from "../../src/backends/simulator/stateFile";

const PROGRAM_DIR = "test/e2e/programs/controlled";
const TOKEN = "s3cr3t-probe-token-7f1c";

interface Summary { state: string; outcome: string; members: Record<string, number> }

describe.skipIf(!realCliAvailable())("stop, resume and secrets through the real Pulumi CLI", () => {
  let project: E2eProject;
  let probe: http.Server;
  const probed: string[] = [];
  const outputs: OperationResult[] = [];

  beforeAll(async () => {
    probe = http.createServer((req, res) => {
      probed.push(req.url ?? "");
      res.writeHead(200).end("ok");
    });
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    project = new E2eProject({
      files: [PROGRAM_DIR, ["examples/quickstart/fleet.yaml", `${PROGRAM_DIR}/fleet.yaml`]],
      projectDir: PROGRAM_DIR,
      program: `${PROGRAM_DIR}/index.ts`,
      main: PROGRAM_DIR,
      projectName: "fleet-update-e2e-controlled",
    });
  }, 60_000);

  afterAll(() => {
    probe?.close();
    project?.cleanup();
  });

  function config(extra: Record<string, unknown>): Record<string, unknown> {
    const { port } = probe.address() as AddressInfo;
    return { gateProduction: "true", probeUrl: `http://127.0.0.1:${port}/healthz`, probeToken: { value: TOKEN, secret: true }, ...extra };
  }

  function operationsPerCluster(): Record<string, number> {
    const state = readFleetState(project.path(PROGRAM_DIR, "fleet.yaml.state.json")) as { clusters: Record<string, { operations: unknown[] }> };
    return Object.fromEntries(Object.entries(state.clusters).map(([name, c]) => [name, c.operations.length]));
  }

  it("a gate holds production: up returns with the run Pending and only the canary upgraded", async () => {
    const up = await project.run("up", { config: config({ state: "Running", approvals: "[]" }) });
    outputs.push(up);
    expect(up.ok, `${up.message}\n${up.output.slice(-2000)}`).toBe(true);
    expect(up.outputs!.summary as Summary).toMatchObject({ state: "Pending", outcome: "Pending" });
    expect(up.output).toMatch(/prod\/before\/0/);
    expect(operationsPerCluster()).toMatchObject({ "canary-1": 1, "eu-1": 0, "us-1": 0 });
    // The probe ran, with its token, against our server.
    expect(probed).toEqual([`/healthz?token=${TOKEN}`]);
  }, 300_000);

  it("state Stopped through config: the run is Stopped, nothing more upgraded", async () => {
    const up = await project.run("up", { config: config({ state: "Stopped" }) });
    outputs.push(up);
    expect(up.ok, `${up.message}\n${up.output.slice(-2000)}`).toBe(true);
    expect((up.outputs!.summary as Summary).state).toBe("Stopped");
    expect(operationsPerCluster()).toMatchObject({ "canary-1": 1, "eu-1": 0 });
  }, 300_000);

  it("Running with the approval: the same run completes, no cluster upgraded twice", async () => {
    const up = await project.run("up", { config: config({ state: "Running", approvals: '["prod/before/0"]' }) });
    outputs.push(up);
    expect(up.ok, `${up.message}\n${up.output.slice(-2000)}`).toBe(true);
    expect(up.outputs!.summary as Summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });
    expect(up.summary?.resourceChanges).toMatchObject({ update: 1 });
    expect(Object.values(operationsPerCluster())).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  }, 300_000);

  it("the probe's secret token is in neither the state file nor the CLI's output", () => {
    expect(outputs).toHaveLength(3);
    const state = fs.readFileSync(project.stateFile(), "utf8");
    expect(state).toContain("healthz"); // the probe is there…
    expect(where(state, TOKEN), "the state file holds the token").toBe(""); // …its token only encrypted
    for (const op of outputs) expect(where(op.output, TOKEN), "the CLI printed the token").toBe("");
    // Nor in the run's journal or the fleet's files on disk.
    for (const file of fs.readdirSync(project.path(PROGRAM_DIR), { recursive: true }) as string[]) {
      const full = project.path(PROGRAM_DIR, file);
      if (fs.statSync(full).isFile()) expect(where(fs.readFileSync(full, "utf8"), TOKEN), file).toBe("");
    }
  });
});

/** The text around the first occurrence of `needle`, or "" when there is none (short failure messages). */
function where(haystack: string, needle: string): string {
  const at = haystack.indexOf(needle);
  return at < 0 ? "" : haystack.slice(Math.max(0, at - 200), at + needle.length);
}
