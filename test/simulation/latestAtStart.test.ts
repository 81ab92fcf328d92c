/**
 * Issue 29, "latest at start": with `Latest`, a member's node image is the newest of its family in its
 * region at the member's recorded start — the instant its upgrade's operation started, which is the
 * member's `startTime` on every backend (docs/rules.md §3.6, §20). One rule computes it for all
 * (`newestImageAt`, src/model/nodeImage.ts); this checks the issue's case on every path a run takes:
 * in process (and the plan, which is that simulation), `simulate --via arm-emulator`, and
 * `fleet-update run --backend azure` against the ARM emulator.
 *
 * The scenario (test/fixtures/latest-at-start/scenario.yaml): three one-pool members upgraded one after
 * another; the December image is published at 00:15. In process b starts at 00:10 and must get the
 * October image (the issue: through the emulator it used to get one published after its start).
 * Through ARM the starts are real requests' instants, so they move; the expectation is computed from
 * each member's own recorded start, by hand (not by the rule under test), and the run must straddle
 * 00:15 (a before, c after) for the check to mean something.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/simulation/scenario";
import type { UpdateRunStatus } from "../../src/model/status";
import { simulateScenario } from "../../src/simulation/simulateScenario";
import { EMULATOR_RESOURCE_GROUP, EMULATOR_SUBSCRIPTION, simulateScenarioViaArm } from "../../src/simulation/viaArmEmulator";
import { buildPlanAndPrediction } from "../../src/plan/buildPlan";
import { worldFromScenario } from "../../src/plan/fromScenario";
import { startArmEmulator } from "../../src/emulator";
import { runCli } from "../support/cli";

const FILE = path.resolve(__dirname, "../fixtures/latest-at-start/scenario.yaml");
const scenario = parseScenario(fs.readFileSync(FILE, "utf8"));

const OCTOBER = "AKSUbuntu-2204gen2containerd-202610.01.0";
const DECEMBER = "AKSUbuntu-2204gen2containerd-202612.10.0";
const PUBLISHED = Date.parse("2026-12-05T00:15:00Z");

/** What Latest must give a member that started at `start`: the December image once it is published. */
function expectedImage(start: string): string {
  return Date.parse(start) >= PUBLISHED ? DECEMBER : OCTOBER;
}

/** Each member's recorded start, from a run's status. */
function starts(status: UpdateRunStatus): Map<string, string> {
  const out = new Map<string, string>();
  for (const member of status.stages.flatMap((s) => s.groups.flatMap((g) => g.members))) {
    if (member.status.startTime !== undefined) out.set(member.name, member.status.startTime);
  }
  return out;
}

/** Member → [recorded start, image it got, image it must have got]; and that the run straddles 00:15. */
function checkLatestAtStart(recorded: Map<string, string>, imageOf: (member: string) => string | undefined): void {
  expect([...recorded.keys()].sort()).toEqual(["a", "b", "c"]);
  const got = [...recorded].map(([member, start]) => [member, start, imageOf(member)]);
  const wanted = [...recorded].map(([member, start]) => [member, start, expectedImage(start)]);
  expect(got).toEqual(wanted);
  expect(Date.parse(recorded.get("a") as string), "a starts before the December image").toBeLessThan(PUBLISHED);
  expect(Date.parse(recorded.get("c") as string), "c starts after it").toBeGreaterThanOrEqual(PUBLISHED);
}

describe("Latest: the image newest at the member's recorded start, on every path", () => {
  it("in process: a and b (which starts at 00:10, before the 00:15 image) get October, c December", async () => {
    const { result } = await simulateScenario(scenario);
    const recorded = starts(result.status);
    expect(Object.fromEntries(recorded)).toEqual({ a: "2026-12-05T00:00:00Z", b: "2026-12-05T00:10:00Z", c: "2026-12-05T00:20:00Z" });
    const images = new Map(result.clusters.map((c) => [c.name, c.nodePools[0]?.nodeImageVersion]));
    checkLatestAtStart(recorded, (m) => images.get(m));
    expect(images.get("b")).toBe(OCTOBER);
  });

  it("the plan predicts the same starts and the same images (it is that simulation)", async () => {
    const { plan, prediction } = await buildPlanAndPrediction(worldFromScenario(scenario));
    const recorded = new Map(plan.members.map((m) => [m.name, m.predictedStart as string]));
    const images = new Map(prediction.clustersAtEnd.map((c) => [c.name, c.nodePools[0]?.nodeImageVersion]));
    checkLatestAtStart(recorded, (m) => images.get(m));
    expect(images.get("b")).toBe(OCTOBER);
  });

  it("simulate --via arm-emulator: each member's image is the newest at the start its operation recorded", async () => {
    // 400 real ms a simulated minute (the command's default is 10): the first upgrade starts minutes,
    // not a quarter of an hour, after the first request even on a loaded machine.
    const report = await simulateScenarioViaArm(scenario, { msPerSimulatedMinute: 400 });
    expect(report.result.status.status.state).toBe("Completed");
    const recorded = starts(report.result.status);
    // The member's start is its operation's own (issue 30): the instant the emulator started it.
    for (const cluster of report.result.clusters) expect(cluster.operations[0]?.startTime).toBe(recorded.get(cluster.name));
    const images = new Map(report.result.clusters.map((c) => [c.name, c.nodePools[0]?.nodeImageVersion]));
    checkLatestAtStart(recorded, (m) => images.get(m));
  }, 120_000);

  it("fleet-update run --backend azure against the ARM emulator: the same, through the CLI's own clock", async () => {
    const emulator = await startArmEmulator({
      fleet: { regions: scenario.regions, members: scenario.members },
      startAt: scenario.start,
      msPerSimulatedMinute: 400,
      // Simulated time starts with the CLI's first request (its start-up is no simulated minutes).
      compressIdleTime: true,
      subscriptionId: EMULATOR_SUBSCRIPTION,
      resourceGroup: EMULATOR_RESOURCE_GROUP,
      throttling: false,
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "latest-at-start-"));
    try {
      fs.writeFileSync(path.join(dir, "ca.pem"), emulator.certificatePem);
      const id = (name: string) => `/subscriptions/${EMULATOR_SUBSCRIPTION}/resourceGroups/${EMULATOR_RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/${name}`;
      const spec = {
        members: scenario.members.map((m) => ({ name: m.name, group: m.group, clusterResourceId: id(m.name) })),
        strategy: scenario.strategy,
        managedClusterUpdate: scenario.managedClusterUpdate,
      };
      fs.writeFileSync(path.join(dir, "rollout.json"), JSON.stringify(spec));
      const { code, stdout, stderr } = await runCli(
        ["run", "rollout.json", "--backend", "azure", "--endpoint", emulator.url, "--ca-file", "ca.pem", "--credential", "emulator", "--poll-seconds", "1", "--json"],
        dir,
      );
      expect(code, stderr).toBe(0);
      const { status } = JSON.parse(stdout) as { status: UpdateRunStatus };
      const recorded = starts(status);
      const clusters = emulator.fleet.toState().clusters;
      // The member's start is its operation's own start at ARM.
      for (const [member, start] of recorded) expect(new Date(clusters[member]?.operations[0]?.startAt ?? 0).toISOString().replace(".000Z", "Z")).toBe(start);
      checkLatestAtStart(recorded, (m) => clusters[m]?.nodePools[0]?.nodeImageVersion);
    } finally {
      await emulator.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
