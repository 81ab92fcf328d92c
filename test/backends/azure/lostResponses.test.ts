/**
 * Writes whose answer is lost (applied by ARM, then the connection reset): the backend reads the
 * cluster before sending anything again, follows the step it finds under way, and so upgrades every
 * cluster exactly once — members end Completed, not Skipped as "already at target" or Pending behind
 * their own upgrade.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, it } from "vitest";
import { parseScenario } from "../../../src/simulation/scenario";
import { simulateScenarioViaArm } from "../../../src/simulation/viaArmEmulator";
import { expectedViaArm } from "./parity/armDifferences";
import { outcomeOf, upgradedTwice } from "./parity/outcome";
import { inProcess } from "./parity/runAll";

const scenario = (file: string) => parseScenario(readFileSync(resolve(__dirname, "../../scenarios", file), "utf8"));

it.each(["stages-and-waits.yaml", "node-image-only.yaml", "failing-member-retried.yaml"])("%s with every write's answer lost: each cluster upgraded once, every member as in process", async (file) => {
  const report = await simulateScenarioViaArm(scenario(file), { msPerSimulatedMinute: 4, faults: { lostResponseRate: 1 } });
  const outcome = outcomeOf(scenario(file), report, report.fleetState);
  expect(upgradedTwice(outcome)).toEqual([]);
  expect(outcome).toEqual(expectedViaArm(`suite/${file}`, await inProcess(scenario(file))));
  const members = report.result.status.stages.flatMap((s) => s.groups.flatMap((g) => g.members));
  // Every upgrade the run asked for was applied, and its answer lost.
  expect(report.requests.injected.lostResponse).toBe(Object.values(report.fleetState.clusters).reduce((n, c) => n + c.operations.length, 0));
  expect(members.filter((m) => m.operationId !== undefined).map((m) => m.status.state)).not.toContain("Skipped");
  expect(members.map((m) => m.message ?? "")).not.toContainEqual(expect.stringContaining("Another operation is in progress"));
});
