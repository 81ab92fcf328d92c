/**
 * The three example scenarios (examples/scenarios) give exactly the outcome their comments describe.
 * Each test simulates its scenario itself (a few milliseconds), not a `beforeAll`: code run outside a
 * test is covered by no test, and mutation testing then runs every test against each of its mutants.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { RunEventSchema, UpdateRunStatusSchema } from "../../src/model/status";
import { IMAGE, Outcome, expectNoOverlappingOperations, maxRunningAtOnce, simulate } from "./helpers";

const SCENARIOS = path.resolve(__dirname, "../../examples/scenarios");
const read = (file: string): string => fs.readFileSync(path.join(SCENARIOS, file), "utf8");

/** Never two members of one group running at once (docs/rules.md §3.3, group maxConcurrency 1 by default). */
function expectOneAtATimePerGroup(outcome: Outcome): void {
  for (const stage of outcome.result.status.stages) {
    for (const group of stage.groups) {
      expect(maxRunningAtOnce(outcome, group.members.map((m) => m.name)), `group ${group.name}`).toBeLessThanOrEqual(1);
    }
  }
}

describe("01-default-sequential: no strategy, one group, one member at a time", () => {
  const simulated = (): Promise<Outcome> => simulate(read("01-default-sequential.yaml"));

  it("puts every member in stage 'default', group 'default', in declaration order", async () => {
    const out = await simulated();
    expect(out.result.status.stages.map((s) => s.name)).toEqual(["default"]);
    expect(out.stage("default").groups.map((g) => g.name)).toEqual(["default"]);
    expect(out.memberNames()).toEqual(["dev-1", "dev-2", "dev-3"]);
    expect(out.stage("default").afterStageWaitStatus).toBeUndefined();
  });

  it("upgrades dev-1 then dev-2, never at the same time", async () => {
    const out = await simulated();
    expect(out.member("dev-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.member("dev-2").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:10:00Z", completedTime: "2026-12-05T00:35:00Z" });
    expect(out.member("dev-1").operationId).toBe("op-dev-1-1");
    expect(out.member("dev-2").operationId).toBe("op-dev-2-1");
    expect(out.ops("dev-1")).toEqual([
      { operationId: "op-dev-1-1", kind: "Full", startTime: "2026-12-05T00:00:00Z", endTime: "2026-12-05T00:10:00Z", result: "Succeeded" },
    ]);
    expect(out.ops("dev-2")).toEqual([
      { operationId: "op-dev-2-1", kind: "Full", startTime: "2026-12-05T00:10:00Z", endTime: "2026-12-05T00:35:00Z", result: "Succeeded" },
    ]);
    expectOneAtATimePerGroup(out);
    expectNoOverlappingOperations(out);
  });

  it("skips dev-3, already at target, with a message saying so and no operation", async () => {
    const out = await simulated();
    const dev3 = out.member("dev-3");
    expect(dev3.status.state).toBe("Skipped");
    expect(dev3.status.startTime).toBeUndefined();
    expect(dev3.operationId).toBeUndefined();
    expect(dev3.message).toMatch(/already at target/i);
    expect(out.ops("dev-3")).toEqual([]);
  });

  it("leaves every cluster on 1.32.0 with the newest node image (Latest)", async () => {
    const out = await simulated();
    for (const name of ["dev-1", "dev-2", "dev-3"]) {
      const cluster = out.cluster(name);
      expect(cluster.kubernetesVersion).toBe("1.32.0");
      for (const pool of cluster.nodePools) {
        expect(pool.orchestratorVersion).toBe("1.32.0");
        expect(pool.nodeImageVersion).toBe(IMAGE.NOV);
      }
    }
    expect(out.cluster("dev-2").nodePools.map((p) => p.name)).toEqual(["system", "user"]);
    expect(out.selectedImages).toEqual([]);
  });

  it("completes the group, the stage and the run when dev-2 ends", async () => {
    const out = await simulated();
    const done = { state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:35:00Z" };
    expect(out.group("default").status).toEqual(done);
    expect(out.stage("default").status).toEqual(done);
    expect(out.run).toEqual(done);
    expect(out.transitions("run", "scenario")).toEqual(["2026-12-05T00:00:00Z NotStarted->Running", "2026-12-05T00:35:00Z Running->Completed"]);
  });
});

describe("02-staged-parallel: two stages, parallel groups, a one-hour wait", () => {
  const simulated = (): Promise<Outcome> => simulate(read("02-staged-parallel.yaml"));

  it("upgrades canary-1 from 00:00 to 00:10", async () => {
    const out = await simulated();
    expect(out.member("canary-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.ops("canary-1")).toEqual([
      { operationId: "op-canary-1-1", kind: "Full", startTime: "2026-12-05T00:00:00Z", endTime: "2026-12-05T00:10:00Z", result: "Succeeded" },
    ]);
  });

  it("waits one hour after the canary stage, until 01:10", async () => {
    const out = await simulated();
    const canary = out.stage("canary");
    expect(canary.afterStageWaitStatus).toEqual({
      status: { state: "Completed", startTime: "2026-12-05T00:10:00Z", completedTime: "2026-12-05T01:10:00Z" },
      waitDurationInSeconds: 3600,
    });
    expect(canary.status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T01:10:00Z" });
    expect(out.transitions("wait", "canary")).toEqual(["2026-12-05T00:10:00Z NotStarted->Running", "2026-12-05T01:10:00Z Running->Completed"]);
  });

  it("starts eu-1 and us-1 together at 01:10, and eu-2 after eu-1", async () => {
    const out = await simulated();
    expect(out.member("eu-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T01:10:00Z", completedTime: "2026-12-05T01:20:00Z" });
    expect(out.member("us-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T01:10:00Z", completedTime: "2026-12-05T01:20:00Z" });
    expect(out.member("eu-2").status).toEqual({ state: "Completed", startTime: "2026-12-05T01:20:00Z", completedTime: "2026-12-05T01:30:00Z" });
    expect(out.opStarts("eu-1")).toEqual(["2026-12-05T01:10:00Z"]);
    expect(out.opStarts("us-1")).toEqual(["2026-12-05T01:10:00Z"]);
    expect(out.opStarts("eu-2")).toEqual(["2026-12-05T01:20:00Z"]);
    expect(out.ops("eu-2")[0]?.endTime).toBe("2026-12-05T01:30:00Z");
    expect(out.stage("production").status).toEqual({ state: "Completed", startTime: "2026-12-05T01:10:00Z", completedTime: "2026-12-05T01:30:00Z" });
    expect(out.group("prod-eu").status).toEqual({ state: "Completed", startTime: "2026-12-05T01:10:00Z", completedTime: "2026-12-05T01:30:00Z" });
    expect(out.group("prod-us").status).toEqual({ state: "Completed", startTime: "2026-12-05T01:10:00Z", completedTime: "2026-12-05T01:20:00Z" });
    expectOneAtATimePerGroup(out);
    expectNoOverlappingOperations(out);
  });

  it("completes the run at 01:30", async () => {
    const out = await simulated();
    expect(out.run).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T01:30:00Z" });
  });

  it("records the Consistent pick, 202611.24.0, and applies it everywhere", async () => {
    const out = await simulated();
    expect(out.selectedImages).toEqual([IMAGE.NOV]);
    for (const name of ["canary-1", "eu-1", "eu-2", "us-1"]) {
      expect(out.cluster(name).kubernetesVersion).toBe("1.32.0");
      expect(out.cluster(name).nodePools).toEqual([{ name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.NOV }]);
    }
  });
});

describe("03-maintenance-window: windows order the group, a closed window makes a member Pending", () => {
  const simulated = (): Promise<Outcome> => simulate(read("03-maintenance-window.yaml"));

  it("upgrades open-1 at 00:00, none-1 at 00:10, closed-1 at 12:00", async () => {
    const out = await simulated();
    expect(out.member("open-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.member("none-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:10:00Z", completedTime: "2026-12-05T00:20:00Z" });
    expect(out.member("closed-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T12:00:00Z", completedTime: "2026-12-05T12:10:00Z" });
    expect(out.ops("open-1")).toEqual([
      { operationId: "op-open-1-1", kind: "ControlPlaneOnly", startTime: "2026-12-05T00:00:00Z", endTime: "2026-12-05T00:10:00Z", result: "Succeeded" },
    ]);
    expect(out.ops("none-1")).toEqual([
      { operationId: "op-none-1-1", kind: "ControlPlaneOnly", startTime: "2026-12-05T00:10:00Z", endTime: "2026-12-05T00:20:00Z", result: "Succeeded" },
    ]);
    expect(out.ops("closed-1")).toEqual([
      { operationId: "op-closed-1-1", kind: "ControlPlaneOnly", startTime: "2026-12-05T12:00:00Z", endTime: "2026-12-05T12:10:00Z", result: "Succeeded" },
    ]);
    expectOneAtATimePerGroup(out);
    expectNoOverlappingOperations(out);
  });

  it("keeps declaration order in the status tree whatever the upgrade order", async () => {
    const out = await simulated();
    expect(out.memberNames()).toEqual(["closed-1", "none-1", "open-1"]);
  });

  it("makes closed-1 Pending at 00:20 with a message naming 2026-12-05T12:00:00Z, then Running at 12:00", async () => {
    const out = await simulated();
    const closed = out.eventsOf("member", "closed-1");
    expect(closed.map((e) => `${e.time} ${e.from}->${e.to}`)).toEqual([
      "2026-12-05T00:20:00Z NotStarted->Pending",
      "2026-12-05T12:00:00Z Pending->Running",
      "2026-12-05T12:10:00Z Running->Completed",
    ]);
    expect(closed[0]?.message).toContain("2026-12-05T12:00:00Z");
  });

  it("shows the group, the stage and the run Pending while closed-1 waits", async () => {
    const out = await simulated();
    for (const [scope, name] of [["group", "prod"], ["stage", "all"], ["run", "scenario"]] as const) {
      expect(out.transitions(scope, name), `${scope} ${name}`).toEqual([
        "2026-12-05T00:00:00Z NotStarted->Running",
        "2026-12-05T00:20:00Z Running->Pending",
        "2026-12-05T12:00:00Z Pending->Running",
        "2026-12-05T12:10:00Z Running->Completed",
      ]);
    }
    expect(out.run).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T12:10:00Z" });
  });

  it("upgrades only the control planes: node pools keep 1.31.2 and their image", async () => {
    const out = await simulated();
    for (const name of ["closed-1", "none-1", "open-1"]) {
      expect(out.cluster(name).kubernetesVersion).toBe("1.32.0");
      expect(out.cluster(name).nodePools).toEqual([{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE.OCT }]);
    }
    expect(out.selectedImages).toEqual([]);
  });
});

describe("example scenarios: output shape (docs/rules.md §5, §7)", () => {
  it.each(["01-default-sequential.yaml", "02-staged-parallel.yaml", "03-maintenance-window.yaml"])("%s: status is an UpdateRunStatus, events are RunEvents", async (file) => {
    const out = await simulate(read(file)); // also checks: events agree with the status, no nulls, times end in Z
    expect(() => UpdateRunStatusSchema.parse(out.result.status)).not.toThrow();
    for (const event of out.events) expect(() => RunEventSchema.parse(event)).not.toThrow();
    expect(out.report.excludedMembers).toEqual([]);
    expect(out.refusedActions).toEqual([]);
  });
});

describe("example scenarios are deterministic", () => {
  it.each(["01-default-sequential.yaml", "02-staged-parallel.yaml", "03-maintenance-window.yaml"])("%s gives byte-identical results twice", async (file) => {
    const first = await simulate(read(file));
    const second = await simulate(read(file));
    expect(JSON.stringify(second.result)).toBe(JSON.stringify(first.result));
  });
});
