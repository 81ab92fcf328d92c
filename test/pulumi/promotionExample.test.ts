/**
 * examples/promotion under Pulumi's mocks with the real providers: staging completes with a tolerated
 * failure, the retry run takes exactly the failed member with exactly staging's images, and
 * production gets those images.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { mockWithRealProviders, outputValue } from "./support/realProviderMocks";

const ROOT = path.resolve(__dirname, "../..");
const IMAGE_DEC = "AKSUbuntu-2204gen2containerd-202612.10.0";
type Program = typeof import("../../examples/promotion/index");

describe("examples/promotion", () => {
  let program: Program;
  let scratch = "";

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "promotion-"));
    fs.mkdirSync(path.join(scratch, "examples", "promotion"), { recursive: true });
    fs.copyFileSync(path.join(ROOT, "examples", "promotion", "fleet.yaml"), path.join(scratch, "examples", "promotion", "fleet.yaml"));
    process.chdir(scratch);
    await mockWithRealProviders("promotion");
    program = await import("../../examples/promotion/index");
  }, 120_000);

  it("staging completes with its one tolerated failure, and says so", async () => {
    expect(await outputValue(program.stagingSummary)).toMatchObject({ state: "Completed", outcome: "CompletedWithFailures", failureCount: 1 });
    expect(await outputValue(program.stagingFailed)).toEqual([{ name: "staging-2", group: "staging" }]);
    expect(await outputValue(program.stagingApplied)).toEqual([{ version: IMAGE_DEC }]);
  });

  it("the retry upgrades only the failed member, to exactly staging's image; production gets the same", async () => {
    expect(await outputValue(program.retrySummary)).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 1, Completed: 1 } });
    expect(await outputValue(program.productionSummary)).toMatchObject({ state: "Completed", outcome: "Succeeded", members: { total: 4, Completed: 4 } });
    const production = await outputValue(program.productionStatus);
    expect(production.nodeImageSelection.selectedNodeImageVersions).toEqual([{ version: IMAGE_DEC }]);
    const state = JSON.parse(fs.readFileSync(path.join(scratch, "examples", "promotion", "fleet.yaml.state.json"), "utf8")) as {
      clusters: Record<string, { nodePools: Array<{ nodeImageVersion: string }>; operations: Array<{ result?: string }> }>;
    };
    for (const [name, cluster] of Object.entries(state.clusters)) {
      expect(cluster.nodePools.map((p) => p.nodeImageVersion), name).toEqual([IMAGE_DEC]);
      expect(cluster.operations.map((o) => o.result), name).toEqual(name === "staging-2" ? ["Failed", "Succeeded"] : ["Succeeded"]);
    }
  });
});
