/**
 * Issue 22 through the real Pulumi CLI: a program whose groups are chosen by label, production behind
 * a ScheduledStart gate an hour of simulated time ahead. One `pulumi up` upgrades the canary, waits at
 * the gate until its instant, then upgrades production's label-selected groups; a second `up` changes
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2eProject } from "./support/project";
import { realCliAvailable } from "./support/pulumiCli";
import { readFleetState } from "../../src/backends/simulator/stateFile";
import type { UpdateRunStatus } from "../../src/model/status";

const PROGRAM_DIR = "test/e2e/programs/labelled";
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

describe.skipIf(!realCliAvailable())("label-selected groups and a ScheduledStart gate through the real Pulumi CLI", () => {
  let project: E2eProject;

  beforeAll(() => {
    project = new E2eProject({
      files: [PROGRAM_DIR, ["examples/quickstart/fleet.yaml", `${PROGRAM_DIR}/fleet.yaml`]],
      projectDir: PROGRAM_DIR,
      program: `${PROGRAM_DIR}/index.ts`,
      main: PROGRAM_DIR,
      projectName: "fleet-update-e2e-labelled",
    });
  }, 60_000);

  afterAll(() => project?.cleanup());

  it("production waits for its scheduled start, then its groups chosen by label are upgraded; a second up is a no-op", async () => {
    // The simulated fleet's clock starts now: the gate opens at the next whole minute an hour ahead (UTC).
    const opens = new Date(Math.ceil((Date.now() + 60 * 60_000) / 60_000) * 60_000);
    const config = { startDay: DAYS[opens.getUTCDay()] as string, startTime: opens.toISOString().slice(11, 16), timeScale: "600" };
    const up = await project.run("up", { config });
    expect(up.ok, `${up.message}\n${up.output.slice(-2000)}`).toBe(true);
    expect(up.outputs!.summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });
    expect(up.outputs!.excludedMembers).toEqual([]);

    const status = up.outputs!.status as UpdateRunStatus;
    const prod = status.stages.find((s) => s.name === "prod");
    expect(prod?.groups.map((g) => [g.name, g.members.map((m) => m.name)])).toEqual([
      ["prod-eu", ["eu-1", "eu-2"]],
      ["prod-elsewhere", ["us-1", "us-2", "us-3", "asia-1", "asia-2"]],
    ]);
    const gate = prod?.beforeGates?.[0];
    expect(gate).toMatchObject({ gateId: "prod/before/0", displayName: "Production window", status: { state: "Completed" } });
    const absolute = Date.parse(gate?.scheduledStartProperties?.absoluteStartTime ?? "");
    expect(absolute).toBe(opens.getTime());
    // Nothing in production started before the gate's instant; the canary did.
    for (const m of prod?.groups.flatMap((g) => g.members) ?? []) expect(Date.parse(m.status.startTime ?? ""), m.name).toBeGreaterThanOrEqual(absolute);
    const canary = status.stages[0]?.groups[0]?.members[0];
    expect(Date.parse(canary?.status.completedTime ?? "")).toBeLessThan(absolute);

    const state = readFleetState(project.path(PROGRAM_DIR, "fleet.yaml.state.json")) as { clusters: Record<string, { operations: unknown[] }> };
    expect(Object.values(state.clusters).map((c) => c.operations.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);

    const again = await project.run("up", { config });
    expect(again.ok, again.message).toBe(true);
    // The stack and the run, both unchanged.
    expect(again.summary?.resourceChanges).toEqual({ same: 2 });
  }, 300_000);
});
