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
import type { RunSummary, UpdateRunStatus } from "../../src";

const ROOT = path.resolve(__dirname, "../..");
type Props = Record<string, unknown>;
interface Provider {
  check(olds: Props, news: Props): Promise<{ failures: Array<{ property: string; reason: string }> }>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
}
const created: Array<{ name: string; inputs: Props; outs: Props }> = [];

function providerFor(inputs: Props): Provider {
  const module = "runName" in inputs ? "runProvider" : "strategyProvider";
  return require(path.join(ROOT, "dist", "pulumi", module)) as Provider;
}

function outputValue<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

describe("examples/quickstart", () => {
  let program: { status: pulumi.Output<UpdateRunStatus>; summary: pulumi.Output<RunSummary> };

  beforeAll(async () => {
    // Run in a scratch copy of the project layout, so the simulated fleet's state file is fresh.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quickstart-"));
    fs.mkdirSync(path.join(scratch, "examples", "quickstart"), { recursive: true });
    fs.copyFileSync(path.join(ROOT, "examples", "quickstart", "fleet.yaml"), path.join(scratch, "examples", "quickstart", "fleet.yaml"));
    process.chdir(scratch);

    await pulumi.runtime.setMocks(
      {
        newResource: async (args) => {
          const provider = providerFor(args.inputs);
          const { failures } = await provider.check({}, args.inputs);
          if (failures.length > 0) throw new Error(`check failed: ${JSON.stringify(failures)}`);
          const { id, outs } = await provider.create(args.inputs);
          created.push({ name: args.name, inputs: args.inputs, outs });
          return { id, state: outs };
        },
        call: (args) => args.inputs,
      },
      "quickstart",
      "test",
      false,
    );
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
