/**
 * Issue 31, Must show, as a user sees it through the built CLI:
 * - `fleet-update simulate` of a scenario whose fleet file declares a sick cluster halts the same way,
 *   on the virtual clock, with no server: its tree, its JSON, its events file and its webhook carry
 *   the measurements; so does `--via arm-emulator`;
 * - `fleet-update run` against the ARM emulator, a real Prometheus scraping the emulator's `/metrics`:
 *   its progress lines, its `--json` status and its webhook carry them, and it exits 1 (the run failed).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RunEvent, UpdateRunStatus } from "../../src/model/status";
import { EMULATOR_RESOURCE_GROUP, EMULATOR_SUBSCRIPTION } from "../../src/simulation/viaArmEmulator";
import { startWebhookServer } from "../events/webhookServer";
import { runCli as cli } from "../support/cli";
import { prometheusBinary, startMeasuredEmulator } from "../support/prometheus";

const SICK = path.resolve(__dirname, "../../examples/health-analysis/sick-cluster.yaml");

describe("fleet-update simulate of a sick cluster (no server)", () => {
  it("halts before stage rest; the tree shows each analysis with its query, threshold and measured values", async () => {
    const { code, stdout } = await cli(["simulate", SICK]);
    expect(code).toBe(0);
    expect(stdout).toContain("Run scenario: Failed");
    expect(stdout).toContain(`✗ soak error-rate  Failed: cluster_error_rate{cluster="{{member.name}}"} result < 0.05 — 00:40:00 0.31 (c3) ✗`);
    expect(stdout).toMatch(/Stage rest: NotStarted/);
  });

  it("--json, --events and --webhook carry every measurement as an analysis event", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-analysis-"));
    const server = await startWebhookServer(() => 200);
    try {
      const events = path.join(dir, "events.jsonl");
      const { code, stdout } = await cli(["simulate", SICK, "--json", "--events", events, "--webhook", `${server.url}/hook`]);
      expect(code).toBe(0);
      const result = JSON.parse(stdout) as { status: UpdateRunStatus; events: RunEvent[] };
      const measured = result.events.filter((e) => e.measurement !== undefined);
      expect(measured.at(-1)).toMatchObject({ scope: "analysis", name: "early/soak/error-rate", to: "Failed", measurement: { value: 0.31, member: "c3", phase: "Failed" } });
      const fromFile = fs.readFileSync(events, "utf8").trim().split("\n").map((l) => JSON.parse(l) as RunEvent);
      expect(fromFile.filter((e) => e.measurement !== undefined)).toEqual(measured);
      expect((server.delivered() as RunEvent[]).filter((e) => e.measurement !== undefined)).toEqual(measured);
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--via arm-emulator halts the same way, measuring the emulator's clusters", async () => {
    const { code, stdout } = await cli(["simulate", SICK, "--via", "arm-emulator", "--json"]);
    expect(code).toBe(0);
    const { status } = JSON.parse(stdout) as { status: UpdateRunStatus };
    expect(status.status.state).toBe("Failed");
    expect(status.stages[1]?.status.error?.code).toBe("AnalysisFailed");
    expect(status.stages[1]?.analysisRuns?.find((a) => a.kind === "soak")?.measurements.at(-1)).toMatchObject({ value: 0.31, member: "c3" });
    expect(status.stages[2]?.status.state).toBe("NotStarted");
  }, 120_000);
});

const binary = prometheusBinary();
const SECRET = "t0ken-S3CR3T-31";

describe.skipIf(binary.path === undefined)("fleet-update run through the ARM emulator, measured by a real Prometheus", () => {
  it("its progress lines, --json status and webhook carry the measurements; it exits 1", async () => {
    // The CLI's client runs on the real clock: soaks of seconds, the emulator's upgrades 3 s each.
    const { scenario, emulator, prometheus, close } = await startMeasuredEmulator(binary.path as string);
    const server = await startWebhookServer(() => 200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-analysis-run-"));
    try {
      fs.writeFileSync(path.join(dir, "ca.pem"), emulator.certificatePem);
      const id = (name: string) => `/subscriptions/${EMULATOR_SUBSCRIPTION}/resourceGroups/${EMULATOR_RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/${name}`;
      const analysis = structuredClone(scenario.analysis!);
      analysis.templates[0]!.provider.prometheus!.address = prometheus.address;
      // Secrets: a header's value, and a web probe (Prometheus' own health endpoint) with a token in its query.
      analysis.templates[0]!.provider.prometheus!.headers = [{ key: "X-Scope-OrgID", value: SECRET }];
      analysis.templates.push({ name: "prometheus-up", provider: { web: { url: `${prometheus.address}/-/healthy?token=${SECRET}` } } });
      analysis.afterMember = ["prometheus-up"];
      const spec = {
        members: scenario.members.map((m) => ({ name: m.name, group: m.group, clusterResourceId: id(m.name) })),
        strategy: scenario.strategy,
        managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } },
        analysis,
      };
      fs.writeFileSync(path.join(dir, "rollout.yaml"), JSON.stringify(spec));
      const { code, stdout, stderr } = await cli(
        ["run", "rollout.yaml", "--backend", "azure", "--endpoint", emulator.url, "--ca-file", "ca.pem", "--credential", "emulator", "--poll-seconds", "1", "--progress", "lines", "--json", "--webhook", `${server.url}/hook`],
        dir,
      );
      expect(code, stderr).toBe(1);
      expect(stderr).toMatch(/analysis early\/soak\/error-rate Running → Failed: cluster_error_rate\{cluster="c3"\} = 0\.31 for member c3, not result < 0\.05/);
      const { status } = JSON.parse(stdout) as { status: UpdateRunStatus };
      expect(status.stages[1]?.status.error?.code).toBe("AnalysisFailed");
      expect(status.stages[1]?.analysisRuns?.find((a) => a.kind === "soak")).toMatchObject({ phase: "Failed", query: 'cluster_error_rate{cluster="{{member.name}}"}', successCondition: "result < 0.05" });
      expect(status.stages[2]?.status.state).toBe("NotStarted");
      expect((server.delivered() as RunEvent[]).some((e) => e.scope === "analysis" && e.measurement?.value === 0.31)).toBe(true);
      expect(emulator.fleet.toState().clusters.c4?.operations).toEqual([]);
      // The web probe measured each upgraded member: HTTP 200, its URL shown without its query.
      const c1 = status.stages[0]?.groups[0]?.members[0];
      expect(c1?.analysisRuns?.[0]).toMatchObject({ template: "prometheus-up", phase: "Successful", provider: "web", query: `${prometheus.address}/-/healthy?…`, measurements: [{ value: 200 }] });
      // The secrets are nowhere: not in the output, the events delivered, nor any file the run wrote (its journal).
      const written = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
      expect(written.some((f) => f.includes(".runs") || f.includes("runs"))).toBe(true);
      for (const [where, text] of [["stdout", stdout], ["stderr", stderr], ["webhook", JSON.stringify(server.delivered())], ...written.filter((f) => !f.endsWith("rollout.yaml")).map((f) => [f, fs.readFileSync(f, "utf8")])]) {
        expect(text!.includes(SECRET), `${where} holds the secret`).toBe(false);
      }
    } finally {
      await server.close();
      await close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
