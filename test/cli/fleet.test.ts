/**
 * Issue 12 through the command line: `fleet-update run --backend azure-fleet:FLEET_ID` creates and
 * follows the fleet's run (JSON and exit code as `run`'s; running it again attaches), `plan` reads the
 * fleet's members then their clusters, `simulate --via fleet-emulator --json` has `--via
 * arm-emulator`'s shape, and a flag or a feature Fleet lacks is named.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ArmEmulator } from "../../src/emulator";
import { gateCommand } from "../../src/cli/gate";
import { planCommand } from "../../src/cli/plan";
import { runCommand } from "../../src/cli/run";
import { simulateCommand, type CommandIO } from "../../src/cli/simulate";
import type { Plan } from "../../src/plan/types";
import type { UpdateRunStatus } from "../../src/model/status";
import { CANARY_THEN_PROD, FULL_132, groupedFleet, startFleetEmulator } from "../emulator/fleetHelpers";
import { FLEET_ID, caFile } from "../backends/azureFleet/support";

function capture(): CommandIO & { out: string; err: string } {
  const io = { out: "", err: "", stdout: (t: string) => void (io.out += t), stderr: (t: string) => void (io.err += t) };
  return io;
}

let emulator: ArmEmulator;
let dir: string;
let flags: Record<string, string>;
beforeEach(async () => {
  emulator = await startFleetEmulator();
  const ca = caFile(emulator);
  dir = path.dirname(ca);
  flags = { backend: `azure-fleet:${FLEET_ID}`, endpoint: emulator.url, caFile: ca, credential: "emulator", pollSeconds: "0.02", progress: "lines" };
});
afterEach(async () => {
  await emulator.close();
});

function spec(fields: Record<string, unknown>): string {
  const file = path.join(dir, "cli-run.yaml");
  fs.writeFileSync(file, JSON.stringify(fields));
  return file;
}

describe("fleet-update run --backend azure-fleet:", () => {
  test("runs to Completed (exit 0, the JSON of run), and again attaches to the same run", async () => {
    const file = spec({ strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 });
    const io = capture();
    expect(await runCommand(file, { ...flags, json: true }, io)).toBe(0);
    const result = JSON.parse(io.out) as { status: { status: { state: string } }; summary: { outcome: string }; failedMembers: unknown[]; appliedNodeImageVersions: unknown[] };
    expect(Object.keys(result)).toEqual(["status", "summary", "failedMembers", "appliedNodeImageVersions"]);
    expect(result.summary.outcome).toBe("Succeeded");
    expect(io.err).toMatch(/\[cli-run\] \S+ member canary-1 \w+ → Completed/);
    const again = capture();
    expect(await runCommand(file, { ...flags, json: true }, again)).toBe(0);
    const puts = emulator.requests.filter((r) => r.method === "PUT" && r.path.endsWith("/updateRuns/cli-run") && r.status < 300);
    expect(puts).toHaveLength(1);
    expect(emulator.fleet.operationLog()).toHaveLength(5);
  });

  test("gates: run stops following at an unapproved gate (exit 4); gate list shows them; gate approve PATCHes a Pending gate in Fleet, all or nothing", async () => {
    const strategy = {
      stages: [
        { name: "canary", groups: [{ name: "canary" }], afterGates: [{ type: "Approval", displayName: "Canary looks good" }] },
        { name: "prod", beforeGates: [{ type: "Approval" }], groups: [{ name: "prod" }, { name: "dev" }] },
      ],
    };
    const file = spec({ strategy, managedClusterUpdate: FULL_132 });
    const waiting = capture();
    expect(await runCommand(file, flags, waiting)).toBe(4);
    expect(waiting.out).toContain("Waiting for approval of 'canary/after/0'");

    const list = capture();
    expect(await gateCommand("list", file, [], flags, list)).toBe(0);
    expect(list.out).toBe("canary/after/0\tPending\tCanary looks good\nprod/before/0\tNotStarted\tApproval\n");

    const patches = () => emulator.requests.filter((r) => r.method === "PATCH");
    const early = capture();
    expect(await gateCommand("approve", file, ["canary/after/0", "prod/before/0"], flags, early)).toBe(2);
    expect(early.err).toContain("gate 'prod/before/0' is not reached yet");
    const unknown = capture();
    expect(await gateCommand("approve", file, ["canary/after/0", "nope/after/0"], flags, unknown)).toBe(2);
    expect(unknown.err).toContain("no gate 'nope/after/0' in this run (its gates: canary/after/0, prod/before/0)");
    expect(patches()).toEqual([]);

    const approved = capture();
    expect(await gateCommand("approve", file, ["canary/after/0"], flags, approved)).toBe(0);
    expect(approved.out).toContain("approved canary/after/0 in fleet 'fleet'; the run goes on server-side");
    expect(patches()).toHaveLength(1);

    // The spec's approvals are PATCHed by `run` as each gate becomes Pending: the run completes.
    const done = capture();
    expect(await runCommand(spec({ strategy, managedClusterUpdate: FULL_132, approvals: ["canary/after/0", "prod/before/0"] }), flags, done)).toBe(0);
    expect(patches()).toHaveLength(2);
    expect(emulator.fleet.operationLog()).toHaveLength(5);
  });

  test("state NotStarted: created, not started (exit 4)", async () => {
    const io = capture();
    const code = await runCommand(spec({ managedClusterUpdate: FULL_132, state: "NotStarted" }), flags, io);
    expect(code).toBe(4);
    expect(io.out).toMatch(/NotStarted/);
  });

  test("a feature Fleet lacks at the api-version in use, a bad --api-version, and a flag for another backend, are named (exit 2)", async () => {
    const io = capture();
    const strategy = { stages: [{ name: "all", groups: [{ name: "canary", maxConcurrency: "2", maxAllowedFailures: "1" }, { name: "prod" }, { name: "dev" }] }] };
    expect(await runCommand(spec({ strategy, managedClusterUpdate: FULL_132 }), { ...flags, timeScale: "60" }, io)).toBe(2);
    expect(io.err).toContain("--time-scale: applies to --backend simulator:FLEET_FILE only");
    const feature = capture();
    expect(await runCommand(spec({ strategy, managedClusterUpdate: FULL_132 }), flags, feature)).toBe(2);
    expect(feature.err).toContain("strategy.stages[0].groups[0].maxAllowedFailures: Fleet Manager takes maxAllowedFailures from api-version 2026-06-02-preview (--api-version is 2026-06-01)");
    expect(feature.err).not.toContain("maxConcurrency");
    const legacy = capture();
    expect(await runCommand(spec({ strategy, managedClusterUpdate: FULL_132 }), { ...flags, apiVersion: "2025-04-01-preview" }, legacy)).toBe(2);
    expect(legacy.err).toContain("strategy.stages[0].groups[0].maxConcurrency: Fleet Manager takes maxConcurrency from api-version 2026-06-01 (--api-version is 2025-04-01-preview)");
    const unknown = capture();
    expect(await runCommand(spec({ strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 }), { ...flags, apiVersion: "2021-01-01" }, unknown)).toBe(2);
    expect(unknown.err).toContain("--api-version: must be 2026-06-01 (GA, the default), 2026-06-02-preview or 2025-04-01-preview (legacy)");
    const elsewhere = capture();
    expect(await gateCommand("list", spec({ strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 }), [], { backend: "azure", apiVersion: "2026-06-01" }, elsewhere)).toBe(2);
    expect(elsewhere.err).toContain("--api-version: applies to --backend azure-fleet:FLEET_ID only");
    expect(emulator.requests.filter((r) => r.path.includes("/updateRuns/"))).toEqual([]);
  });

  test("--api-version 2026-06-02-preview: limits sent, a failure within maxAllowedFailures tolerated (exit 1: completed with failures)", async () => {
    const failing = await startFleetEmulator({ fleet: groupedFleet({}, ["prod-2"]) });
    try {
      const io = capture();
      const strategy = { stages: [{ name: "all", maxConcurrency: "50%", groups: [{ name: "canary" }, { name: "prod", maxConcurrency: "2", maxAllowedFailures: "1" }, { name: "dev" }] }] };
      const file = spec({ name: "tolerant", strategy, managedClusterUpdate: FULL_132 });
      const code = await runCommand(file, { ...flags, endpoint: failing.url, caFile: caFile(failing), apiVersion: "2026-06-02-preview", json: true }, io);
      const out = JSON.parse(io.out.slice(io.out.indexOf("{"))) as { summary: { state: string; outcome: string; failureCount: number }; failedMembers: Array<{ name: string }> };
      expect(out.summary).toMatchObject({ state: "Completed", outcome: "CompletedWithFailures", failureCount: 1 });
      expect(out.failedMembers.map((m) => m.name)).toEqual(["prod-2"]);
      expect(code).toBe(1);
      expect(failing.fleet.operationLog().map((o) => o.member).sort()).toEqual(["canary-1", "dev-1", "prod-1", "prod-2", "prod-3"]);
    } finally {
      await failing.close();
    }
  });

  test("a member not in the fleet is named, nothing created", async () => {
    const io = capture();
    expect(await runCommand(spec({ members: [{ name: "ghost", group: "prod" }], managedClusterUpdate: FULL_132 }), flags, io)).toBe(2);
    expect(io.err).toContain("members[0].name: member 'ghost' is not a member of fleet 'fleet'");
    expect(emulator.requests.filter((r) => r.method === "PUT")).toEqual([]);
  });
});

test("plan --backend azure-fleet: reads the fleet's members and their clusters (GETs only)", async () => {
  const io = capture();
  const { pollSeconds: _p, progress: _g, ...planFlags } = flags;
  expect(await planCommand(spec({ strategy: CANARY_THEN_PROD, managedClusterUpdate: FULL_132 }), { ...planFlags, json: true }, io)).toBe(0);
  const plan = JSON.parse(io.out) as Plan;
  expect(plan.members.map((m) => `${m.name} ${m.stage}/${m.group}`)).toEqual(["canary-1 canary/canary", "prod-1 prod/prod", "prod-2 prod/prod", "prod-3 prod/prod", "dev-1 prod/dev"]);
  expect(plan.run.predictedState).toBe("Completed");
  expect(emulator.requests.filter((r) => r.method !== "GET")).toEqual([]);
});

test("simulate --via fleet-emulator --json: the shape of --via arm-emulator; Fleet's missing features named", async () => {
  const scenario = path.resolve(__dirname, "../../examples/scenarios/02-staged-parallel.yaml");
  const io = capture();
  expect(await simulateCommand(scenario, { via: "fleet-emulator", json: true }, io)).toBe(0);
  const result = JSON.parse(io.out) as Record<string, unknown> & { status: { status: { state: string } } };
  expect(Object.keys(result)).toEqual(["status", "summary", "clusters", "events", "requests"]);
  expect(result.status.status.state).toBe("Completed");

  // maxConcurrency is Fleet's from 2026-06-01 (the default); the legacy api-version lacks it.
  const limited = path.resolve(__dirname, "../scenarios/max-concurrency-count.yaml");
  const refused = capture();
  expect(await simulateCommand(limited, { via: "fleet-emulator", json: true, apiVersion: "2025-04-01-preview" }, refused)).toBe(2);
  expect(refused.err).toMatch(/max-concurrency-count\.yaml: strategy\.stages\[\d+\]\S*maxConcurrency: Fleet Manager takes maxConcurrency from api-version 2026-06-01 \(--api-version is 2025-04-01-preview\)/);
  const wrong = capture();
  expect(await simulateCommand(limited, { via: "fleet-emulator", apiVersion: "2026-06-01-preview" }, wrong)).toBe(2);
  expect(wrong.err).toContain("--api-version: must be 2026-06-01 (GA, the default)");
  const inProcess = capture();
  expect(await simulateCommand(limited, { apiVersion: "2026-06-01" }, inProcess)).toBe(2);
  expect(inProcess.err).toContain("--api-version: applies to --via fleet-emulator only");
});

test("simulate --via fleet-emulator: a gated run waits where it waits in process, its gates approved by PATCH once Pending", async () => {
  const gated = path.resolve(__dirname, "../report/gatedRun.yaml");
  const local = capture();
  const viaFleet = capture();
  const localCode = await simulateCommand(gated, { json: true }, local);
  expect(await simulateCommand(gated, { via: "fleet-emulator", json: true }, viaFleet)).toBe(localCode);
  const states = (out: string) => {
    const status = (JSON.parse(out) as { status: UpdateRunStatus }).status;
    return [status.status.state, ...status.stages.flatMap((s) => [...(s.beforeGates ?? []), ...s.groups.flatMap((g) => [...(g.afterGates ?? []), ...g.members.map((m) => ({ gateId: m.name, status: m.status }))])].map((x) => `${x.gateId} ${x.status.state}`))];
  };
  // The stage's before-gate approved at 02:00 (a PATCH once it was Pending); the group's after-gate never is.
  expect(states(viaFleet.out)).toEqual(["Pending", "production/before/0 Completed", "production/prod/after/0 Pending", "eu-1 Completed", "eu-2 Completed"]);
  expect(states(viaFleet.out)).toEqual(states(local.out));
});
