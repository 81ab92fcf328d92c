/**
 * `Transitions`, the one place states change (docs/rules.md §7): what an item keeps of its error and
 * times, and which events leave it, when. Issue 34: these could be broken without a test failing.
 */
import { describe, expect, it } from "vitest";
import type { AnalysisRunState, MeasurementState } from "../../src/engine/analysis";
import type { Timed } from "../../src/engine/runState";
import { Transitions } from "../../src/engine/transitions";
import type { RunEvent } from "../../src/model/status";

const T0 = Date.parse("2026-01-01T00:00:00Z");
const item = (state: Timed["state"], extra: Partial<Timed> = {}): Timed => ({ state, ...extra }) as Timed;
const analysis = (): AnalysisRunState => ({ template: "errors", kind: "afterMember", phase: "Running", provider: "web", query: "https://probe", startedAt: T0, nextMeasurementAt: T0, count: 1, measurements: [] }) as unknown as AnalysisRunState;

describe("an item's error", () => {
  it("a Failed item told again that it failed, without a new error, keeps the error it has", () => {
    const t = new Transitions(undefined);
    const error = { code: "UpgradeFailed", message: "drain timed out" };
    const node = item("Failed", { error });
    t.transition(node, "Failed", T0, "group", "g");
    expect(node.error).toEqual(error);
    const running = item("Running");
    t.transition(running, "Failed", T0, "member", "m", undefined, error);
    t.transition(running, "Failed", T0 + 1, "member", "m");
    expect(running.error).toEqual(error);
  });

  it("an item leaving Failed loses its error", () => {
    const node = item("Failed", { error: { code: "UpgradeFailed", message: "x" } });
    new Transitions(undefined).transition(node, "Running", T0, "member", "m");
    expect(node.error).toBeUndefined();
  });
});

describe("without an event sink", () => {
  it("states and times still change, and no event waits to be delivered", () => {
    const t = new Transitions(undefined);
    const node = item("Running");
    t.transition(node, "Completed", T0, "member", "m", "done");
    expect(node).toMatchObject({ state: "Completed", completedTime: T0 });
    t.analysisStarted(analysis(), "a", T0, "Measuring.");
    expect(t.pending()).toEqual([]);
  });

  it("with a sink and no one told of changes, a change is still an event", () => {
    const events: RunEvent[] = [];
    const t = new Transitions((e) => events.push(e));
    t.transition(item("NotStarted"), "Running", T0, "member", "m");
    t.flush();
    expect(events.map((e) => `${e.from}->${e.to}`)).toEqual(["NotStarted->Running"]);
  });
});

describe("analysis events", () => {
  it("an analysis started at one instant and ended at the next, with no flush between: both events, in order", () => {
    const events: RunEvent[] = [];
    const t = new Transitions((e) => events.push(e));
    const a = analysis();
    t.analysisStarted(a, "a", T0, "Measuring.");
    t.analysisEnded(a, "a", "Error", T0 + 60_000, "Its template is no longer declared.");
    t.flush();
    expect(events.map((e) => `${e.time} ${e.from}->${e.to} ${e.message}`)).toEqual([
      "2026-01-01T00:00:00Z NotStarted->Running Measuring.",
      "2026-01-01T00:01:00Z Running->Failed Its template is no longer declared.",
    ]);
  });

  it("a measurement without a message is an event without one", () => {
    const events: RunEvent[] = [];
    const t = new Transitions((e) => events.push(e));
    const m: MeasurementState = { at: T0, phase: "Successful", value: 1 };
    t.measured(analysis(), "a", m, T0, "Successful");
    t.flush();
    expect(events).toHaveLength(1);
    expect(events[0]).toStrictEqual({ time: "2026-01-01T00:00:00Z", scope: "analysis", name: "a", from: "Running", to: "Completed", measurement: { measuredAt: "2026-01-01T00:00:00Z", phase: "Successful", value: 1 } });
    expect("message" in (events[0] as RunEvent)).toBe(false);
  });
});
