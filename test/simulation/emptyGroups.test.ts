/**
 * Issue 29 (docs/rules.md §2, §4): a strategy group no member belongs to is accepted, as Fleet Manager
 * accepts it, and ends Skipped — in process, through the ARM emulator (our engine over the Azure
 * backend) and through the Fleet emulator (Fleet's server-side run, followed by our client), the same
 * way; and `plan` names each such group (EMPTY_GROUP). `test/scenarios/empty-groups.yaml` also runs in
 * the parity suites (test/backends/azure/parity*.test.ts), which compare every state and upgrade.
 */
import path from "node:path";
import { describe, expect, test } from "vitest";
import { planCommand } from "../../src/cli/plan";
import { simulateCommand, type CommandIO } from "../../src/cli/simulate";
import type { UpdateRunStatus } from "../../src/model/status";
import type { Plan } from "../../src/plan/types";

const FILE = path.resolve(__dirname, "../scenarios/empty-groups.yaml");

function capture(): CommandIO & { out: string; err: string } {
  const io = { out: "", err: "", stdout: (t: string) => void (io.out += t), stderr: (t: string) => void (io.err += t) };
  return io;
}

/** Every group and wait as `stage/group state`, and the members' states, of a `simulate --json` result. */
function outcome(status: UpdateRunStatus): string[] {
  return [
    `run ${status.status.state}`,
    ...status.stages.flatMap((s) => [
      `${s.name} ${s.status.state}${s.afterStageWaitStatus === undefined ? "" : ` (wait ${s.afterStageWaitStatus.status.state})`}`,
      ...s.groups.map((g) => `${s.name}/${g.name} ${g.status.state}: ${(g.members ?? []).map((m) => `${m.name} ${m.status.state}`).join(", ") || "no members"}`),
    ]),
  ];
}

const EXPECTED = [
  "run Completed",
  "canary Completed (wait Completed)",
  "canary/canary Completed: c-1 Completed",
  "canary/canary-eu Skipped: no members",
  "qa Skipped (wait Skipped)",
  "qa/qa Skipped: no members",
  "qa/qa-labs Skipped: no members",
  "prod Completed",
  "prod/prod Completed: p-1 Completed, p-2 Completed",
];

describe("a strategy group no member belongs to runs to the end, that group Skipped", () => {
  test.each([
    ["in process", {}],
    ["through the ARM emulator", { via: "arm-emulator" }],
    ["through the Fleet emulator", { via: "fleet-emulator" }],
  ])("%s", async (_how, via) => {
    const io = capture();
    expect(await simulateCommand(FILE, { json: true, ...via }, io), io.err).toBe(0);
    const result = JSON.parse(io.out) as { status: UpdateRunStatus };
    expect(outcome(result.status)).toEqual(EXPECTED);
    // An empty group's gates are skipped (no approval needed): nobody approved, yet the run ended.
    expect(result.status.stages[0]?.groups[1]?.beforeGates?.[0]?.status.state).toBe("Skipped");
    expect(result.status.stages[1]?.beforeGates?.[0]?.status.state).toBe("Skipped");
  });

  test("plan names each empty group (EMPTY_GROUP, a warning) and predicts the run Completed", async () => {
    const io = capture();
    expect(await planCommand(FILE, { json: true }, io), io.err).toBe(0);
    const plan = JSON.parse(io.out) as Plan;
    expect(plan.run.predictedState).toBe("Completed");
    expect(plan.findings.filter((f) => f.code === "EMPTY_GROUP").map((f) => [f.severity, f.group])).toEqual([
      ["warning", "canary-eu"],
      ["warning", "qa"],
      ["warning", "qa-labs"],
    ]);
  });
});
