/**
 * The quickstart program (`examples/quickstart`, run by the root Pulumi.yaml) under Pulumi's mocks.
 * The mocks do what the engine would: each dynamic resource's inputs go through its real provider's
 * check and create, so the program's wiring, validation and the rollout itself are exercised.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { mockWithRealProviders, outputValue, type CreatedResource } from "./support/realProviderMocks";
import type { RunSummary, UpdateRunStatus } from "../../src";

const ROOT = path.resolve(__dirname, "../..");
let created: CreatedResource[] = [];

describe("examples/quickstart", () => {
  let program: { status: pulumi.Output<UpdateRunStatus>; summary: pulumi.Output<RunSummary> };

  beforeAll(async () => {
    // Run in a scratch copy of the project layout, so the simulated fleet's state file is fresh.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quickstart-"));
    fs.mkdirSync(path.join(scratch, "examples", "quickstart"), { recursive: true });
    fs.copyFileSync(path.join(ROOT, "examples", "quickstart", "fleet.yaml"), path.join(scratch, "examples", "quickstart", "fleet.yaml"));
    process.chdir(scratch);

    created = await mockWithRealProviders("quickstart");
    program = await import("../../examples/quickstart/index");
  }, 120_000);

  it("runs the rollout to Completed and exports its status and summary", async () => {
    const [status, summary] = await Promise.all([outputValue(program.status), outputValue(program.summary)]);
    expect(status.status.state).toBe("Completed");
    expect(status.stages.map((s) => s.name)).toEqual(["canary", "prod"]);
    expect(status.stages[1]!.groups.map((g) => g.name)).toEqual(["prod-eu", "prod-us", "prod-asia"]);
    expect(summary).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 8, Completed: 8 } });
    expect(status.nodeImageSelection.selectedNodeImageVersions).toEqual([{ version: "AKSUbuntu-2204gen2containerd-202611.24.0" }]);
  });

  it("waits the canary stage's 10 minutes before production, in simulated time", async () => {
    const status = await outputValue(program.status);
    const canary = status.stages[0]!;
    const prodStart = Date.parse(status.stages[1]!.status.startTime!);
    expect(prodStart - Date.parse(canary.groups[0]!.status.completedTime!)).toBeGreaterThanOrEqual(600_000);
  });

  it("passes the strategy resource's output to the run, and registers one strategy and one run", () => {
    expect(created.map((c) => c.name).sort()).toEqual(["k8s-1-32", "rollout"]);
    const run = created.find((c) => c.name === "k8s-1-32")!;
    expect((run.inputs.strategy as { stages: unknown[] }).stages).toHaveLength(2);
    expect(typeof run.inputs.__provider).toBe("string");
  });
});
