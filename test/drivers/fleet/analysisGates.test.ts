/**
 * Issue 31: where each analysis use goes in the strategy sent to Fleet Manager (pure: no emulator). Our
 * gates come after the user's at each place, so theirs keep their ids; ours are named apart.
 */
import { describe, expect, it } from "vitest";
import { AnalysisSchema } from "../../../src/model/analysis";
import { UpdateRunStrategySchema } from "../../../src/model/strategy";
import { analysisGates, withAnalysisGates } from "../../../src/drivers/fleet/analysisGates";
import { ANALYSIS_GATE_PREFIX, isAnalysisGate } from "../../../src/drivers/waiting";
import { gateResources, gatesToApprove } from "../../../src/drivers/fleet/gateResources";
import { pendingGates, waitingLine } from "../../../src/drivers/waiting";
import { fromFleetStatus } from "../../../src/drivers/fleet/fromFleet";

const strategy = UpdateRunStrategySchema.parse({
  stages: [
    { name: "canary", groups: [{ name: "canary" }], afterGates: [{ type: "Approval", displayName: "SRE" }], afterStageWaitInSeconds: 600 },
    { name: "prod", beforeGates: [{ type: "Approval" }], groups: [{ name: "eu", afterGates: [{ type: "Approval" }] }, { name: "us" }] },
  ],
});
const template = (name: string) => ({ name, provider: { prometheus: { address: "http://p:9090", query: "up" } }, successCondition: "result == 1" });
const analysis = AnalysisSchema.parse({
  templates: [template("error-rate"), template("latency")],
  afterMember: ["error-rate"],
  stages: [
    { name: "canary", soak: ["error-rate", "latency"] },
    { name: "prod", preCheck: ["latency"], afterMember: ["latency", "error-rate"] },
  ],
});

describe("analysis gates on Fleet Manager", () => {
  it("preCheck → the stage's before-gate, soak → its after-gate, afterMember → each group's after-gate; after the user's gates", () => {
    expect(analysisGates(strategy, analysis).map((g) => [g.gateId, g.kind, g.templates.join("+"), g.displayName])).toEqual([
      ["canary/canary/after/0", "afterMember", "error-rate", "fleet-update analysis: afterMember error-rate"],
      ["canary/after/1", "soak", "error-rate+latency", "fleet-update analysis: soak error-rate, latency"],
      ["prod/before/1", "preCheck", "latency", "fleet-update analysis: preCheck latency"],
      ["prod/eu/after/1", "afterMember", "error-rate+latency", "fleet-update analysis: afterMember error-rate, latency"],
      ["prod/us/after/0", "afterMember", "error-rate+latency", "fleet-update analysis: afterMember error-rate, latency"],
    ]);
    const sent = withAnalysisGates(strategy, analysisGates(strategy, analysis));
    expect(sent.stages[0]?.afterGates?.map((g) => g.displayName)).toEqual(["SRE", "fleet-update analysis: soak error-rate, latency"]);
    expect(sent.stages[1]?.beforeGates).toEqual([{ type: "Approval" }, { type: "Approval", displayName: "fleet-update analysis: preCheck latency" }]);
    expect(sent.stages[1]?.groups.map((g) => g.afterGates?.length)).toEqual([2, 1]);
    // What is sent parses as a strategy (Fleet's display names: at most 100 characters).
    expect(UpdateRunStrategySchema.safeParse(sent).success).toBe(true);
    expect(analysisGates(strategy, undefined)).toEqual([]);
    expect(withAnalysisGates(strategy, [])).toBe(strategy);
  });

  it("a long list of templates is cut to Fleet's 100 characters, still marked as ours", () => {
    const many = AnalysisSchema.parse({ templates: Array.from({ length: 8 }, (_, i) => template(`template-with-a-long-name-${i}`)), stages: [{ name: "canary", soak: Array.from({ length: 8 }, (_, i) => `template-with-a-long-name-${i}`) }] });
    const [gate] = analysisGates(strategy, many);
    expect(gate?.displayName.length).toBe(100);
    expect(gate?.displayName.endsWith("…")).toBe(true);
    expect(isAnalysisGate(gate?.displayName)).toBe(true);
    expect(gate?.templates).toHaveLength(8);
  });

  it("ours are never approved through approvals, never listed as waiting for a person", () => {
    const armId = (n: string) => `/subscriptions/s/resourceGroups/r/providers/Microsoft.ContainerService/fleets/f/gates/${n}`;
    const wire = {
      status: { state: "Running" },
      stages: [
        {
          name: "canary",
          status: { state: "Running" },
          afterGates: [
            { displayName: "SRE", gateId: armId("aaaa"), status: { state: "Completed" } },
            { displayName: `${ANALYSIS_GATE_PREFIX}: soak error-rate`, gateId: armId("bbbb"), status: { state: "Pending", startTime: "2026-12-05T00:20:00Z" } },
          ],
          groups: [{ name: "canary", status: { state: "Completed" }, members: [] }],
        },
      ],
    };
    expect(gateResources(wire).get("canary/after/1")).toEqual({ resourceName: "bbbb", state: "Pending", analysis: true });
    expect(gatesToApprove(["canary/after/1"], wire)).toEqual([]);
    const ours = fromFleetStatus(wire);
    expect(pendingGates(ours)).toEqual([]);
    expect(waitingLine(ours)).toBe("Waiting: gate 'canary/after/1' holds the run for its health analysis (fleet-update approves it when the analysis passes; run again to go on measuring).");
  });
});
