/** The report's HTML, read as text: rows, bars and their positions, escaping, gates, summary, determinism, speed. */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { generateReport } from "../../src/report";
import { parseScenario } from "../../src/simulation/scenario";
import { simulateScenario } from "../../src/simulation/simulateScenario";
import { STATE_COLOURS } from "../../src/report/palette";
import { DEMO_SCENARIO, GATED_SCENARIO, MIXED_STATES_SCENARIO, EXAMPLE_SCENARIOS, allMembers, largeRunInput, simulateJson, type StatusJson } from "./fixtures";

/** Each row is one line of the page; this finds a member's, stage's or group's. */
function rowOf(html: string, kind: "member" | "stage" | "group", name: string): string {
  const rows = html.split("\n").filter((line) => line.includes(`data-${kind}="${name}"`));
  expect(rows, `${kind} ${name}`).toHaveLength(1);
  return rows[0]!;
}

/** The `left` and `width` percentages of the elements of class `cls` in a row. */
function placements(row: string, cls: string): Array<{ left: number; width: number }> {
  return [...row.matchAll(new RegExp(`<i class="${cls}[^"]*" style="left:([\\d.]+)%;width:([\\d.]+)%"`, "g"))].map((m) => ({ left: Number(m[1]), width: Number(m[2]) }));
}

describe("the report page", () => {
  it("has one row per member, under a header row for its stage and its group, in the status's order", async () => {
    const { status, events } = await simulateJson(DEMO_SCENARIO);
    const html = generateReport({ status, events });
    const order = [...html.matchAll(/data-(stage|group|member)="([^"]*)"/g)].map((m) => `${m[1]} ${m[2]}`);
    const expected = status.stages.flatMap((s) => [`stage ${s.name}`, ...s.groups.flatMap((g) => [`group ${g.name}`, ...g.members.map((m) => `member ${m.name}`)])]);
    expect(order).toEqual(expected);
    expect(rowOf(html, "stage", "canary")).toContain(">Stage canary<");
    expect(rowOf(html, "group", "prod-eu")).toContain(">Group prod-eu<");
  });

  it("draws each member's bar from its start to its end, on a scale from the run's first to last instant", async () => {
    // 02: canary-1 00:00-00:10, a wait until 01:10, eu-1 and us-1 from 01:10, the run ends at 01:30.
    const html = generateReport(await simulateJson(`${EXAMPLE_SCENARIOS}/02-staged-parallel.yaml`));
    expect(placements(rowOf(html, "member", "canary-1"), "bar c-Completed")).toEqual([{ left: 0, width: 11.111 }]);
    expect(placements(rowOf(html, "member", "eu-2"), "bar c-Completed")).toEqual([{ left: 88.889, width: 11.111 }]);
    expect(placements(rowOf(html, "stage", "canary"), "wait")).toEqual([{ left: 11.111, width: 66.667 }]);
    expect(rowOf(html, "stage", "canary")).toContain('title="After stage canary: wait 1h&#10;State: Completed&#10;Start: 2026-12-05T00:10:00Z&#10;End: 2026-12-05T01:10:00Z&#10;Duration: 1h"');
  });

  it("shows the Pending periods the events record, with the reason, before the member's bar", async () => {
    // 03: closed-1 is Pending from 00:20 until its window opens at 12:00, then upgrades until 12:10.
    const html = generateReport(await simulateJson(`${EXAMPLE_SCENARIOS}/03-maintenance-window.yaml`));
    const row = rowOf(html, "member", "closed-1");
    const [pending] = placements(row, "pd");
    const [bar] = placements(row, "bar c-Completed");
    expect(pending!.left + pending!.width).toBeCloseTo(bar!.left, 2);
    expect(row).toMatch(/class="pd" [^>]*title="closed-1&#10;State: Pending&#10;Start: [^&]+&#10;End: 2026-12-05T12:00:00Z&#10;Duration: [^&]+&#10;Message: Maintenance window closed; next opening at 2026-12-05T12:00:00Z\."/);
    expect(placements(rowOf(html, "member", "open-1"), "pd")).toEqual([]);
  });

  it("without events, draws no Pending periods and says so", async () => {
    const { status } = await simulateJson(`${EXAMPLE_SCENARIOS}/03-maintenance-window.yaml`);
    const html = generateReport({ status });
    expect(html).not.toContain('class="pd');
    expect(html).toContain("Pending periods not shown: the input has no events");
  });

  it("colours bars, state chips and the legend by each member's final state, and marks a member skipped before it began", async () => {
    const { status, events } = await simulateJson(MIXED_STATES_SCENARIO);
    const html = generateReport({ status, events });
    for (const member of allMembers(status)) {
      const row = rowOf(html, "member", member.name);
      expect(row).toContain(`<b class="chip c-${member.status.state}"></b>${member.status.state}<`);
      if (member.status.startTime !== undefined) expect(row).toContain(`<i class="bar c-${member.status.state}`);
    }
    expect(rowOf(html, "member", "skipped-1")).toMatch(/<i class="bar c-Skipped mark" style="left:0\.000%"/);
    expect(rowOf(html, "member", "later-1")).not.toContain('class="bar');
    for (const [state, colour] of Object.entries(STATE_COLOURS)) expect(html).toContain(`.c-${state}{background:${colour}}`);
    expect(rowOf(html, "member", "broken-1")).toContain("Error: UpgradeFailed: drain timed out: &lt;pod&gt; &quot;web&quot; &amp; co");
  });

  it("escapes every text from the input: names, messages, operation ids, gate names", async () => {
    const hostile = `<img src=x onerror="alert('x')">&amp;`;
    const { status, events } = await simulateJson(`${EXAMPLE_SCENARIOS}/02-staged-parallel.yaml`);
    const tampered: StatusJson = JSON.parse(JSON.stringify(status).replaceAll('"eu-1"', JSON.stringify(hostile)));
    const member = tampered.stages[1]!.groups[0]!.members[0]!;
    member.message = `</script><script>alert(1)</script>`;
    member.operationId = `op" onmouseover="alert(2)`;
    tampered.stages[0]!.beforeGates = [{ displayName: "<b>gate</b>", gateId: "g'1", status: { state: "<Approved>" } }];
    const html = generateReport({ status: tampered, events: events.map((e) => (e.name === "eu-1" ? { ...e, name: hostile } : e)) });
    expect(html).not.toContain("<img");
    expect(html).not.toContain("alert(1)</script>");
    expect(html).not.toContain('" onmouseover=');
    expect(html).not.toContain("<b>gate</b>");
    expect(html.match(/<script>/g)).toHaveLength(1);
    const row = rowOf(html, "member", "&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;amp;");
    expect(row).toContain('<div class="n" role="rowheader">&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;amp;</div>');
    expect(row).toContain("Message: &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(rowOf(html, "stage", "canary")).toContain('class="gate c-other"');
  });

  it("marks approval gates on their stage's and group's rows, at their approval time, with their details", async () => {
    const { status } = await simulateJson(`${EXAMPLE_SCENARIOS}/02-staged-parallel.yaml`);
    const gated = structuredClone(status);
    gated.stages[1]!.beforeGates = [{ displayName: "Change board", gateId: "cab", status: { state: "Completed", startTime: "2026-12-05T00:10:00Z", completedTime: "2026-12-05T01:10:00Z" } }];
    gated.stages[1]!.groups[1]!.afterGates = [{ displayName: "Smoke tests", gateId: "smoke", status: { state: "Pending", startTime: "2026-12-05T01:30:00Z" } }];
    const html = generateReport({ status: gated });
    const stage = rowOf(html, "stage", "production");
    expect(stage).toMatch(/<i class="gspan" style="left:11\.111%;width:66\.667%"><\/i><i class="gate c-Completed" style="left:77\.778%" title="Gate Change board before stage production&#10;State: Completed&#10;Start: 2026-12-05T00:10:00Z&#10;End: 2026-12-05T01:10:00Z&#10;Duration: 1h&#10;Gate id: cab"/);
    expect(rowOf(html, "group", "prod-us")).toMatch(/<i class="gate c-Pending" style="left:100\.000%" title="Gate Smoke tests after group prod-us&#10;State: Pending/);
    expect(generateReport({ status }).match(/<i class="gate/g)).toBeNull();
  });

  it("marks the gates of a real gated run: the approved one at its approval, the one still waiting at its start", async () => {
    // gatedRun.yaml: the stage's before-gate waits from 00:00 and is approved at 02:00; the members run
    // 02:00-02:20; the group's after-gate waits from 02:20 on. The axis spans 00:00-02:20.
    const { status, events } = await simulateJson(GATED_SCENARIO);
    const html = generateReport({ status, events });
    expect(rowOf(html, "stage", "production")).toMatch(
      /<i class="gspan" style="left:0\.000%;width:85\.714%"><\/i><i class="gate c-Completed" style="left:85\.714%" title="Gate Change board &lt;CAB&gt; before stage production&#10;State: Completed&#10;Start: 2026-12-05T00:00:00Z&#10;End: 2026-12-05T02:00:00Z/,
    );
    expect(rowOf(html, "group", "prod")).toMatch(/<i class="gspan open" style="left:100\.000%;width:0\.000%"><\/i><i class="gate c-Pending" style="left:100\.000%" title="Gate Smoke tests after group prod&#10;State: Pending&#10;Start: 2026-12-05T02:20:00Z/);
  });

  it("shows the update a run given an autoUpgradeProfile generated (simulate --json's generatedUpdate)", async () => {
    const report = await simulateScenario(parseScenario(readFileSync(resolve(__dirname, "../scenarios/auto-upgrade-stable.yaml"), "utf8")));
    const html = generateReport(JSON.parse(JSON.stringify({ ...report.result, generatedUpdate: report.generatedUpdate })));
    expect(html).toMatch(/<tr data-fact="generatedUpdate"><th scope="row">Update \(generated at the start\)<\/th><td>Full to 1\.32\.3, Latest images<\/td><\/tr>/);
    expect(generateReport(JSON.parse(JSON.stringify(report.result)))).not.toContain('data-fact="generatedUpdate"');
  });

  it("summarizes the run: outcome, times, duration, counts per state, node images", async () => {
    const { status, events } = await simulateJson(MIXED_STATES_SCENARIO);
    const html = generateReport({ status, events });
    const cell = (attr: string) => html.match(new RegExp(`<tr ${attr}[^>]*>.*?<td>([^<]*)</td>`))?.[1];
    expect(cell('data-fact="outcome"')).toBe("Failed");
    expect(cell('data-fact="start"')).toBe("2026-12-05T00:00:00Z");
    expect(cell('data-fact="end"')).toBe("2026-12-05T00:30:00Z");
    expect(cell('data-fact="duration"')).toBe("30m (1800 s)");
    expect(cell('data-fact="error"')).toMatch(/^UpgradeFailed: Stage &#39;one&#39; failed/);
    const members = allMembers(status);
    for (const state of ["Completed", "Failed", "Skipped", "NotStarted", "Running"]) {
      expect(cell(`data-state="${state}"`), state).toBe(String(members.filter((m) => m.status.state === state).length));
    }
    expect(cell('data-state="total"')).toBe("5");
    expect(html).toContain("<li><code>AKSUbuntu-2204gen2containerd-202611.24.0</code></li>");
  });

  it("is self-contained: no script, style, font or image from anywhere else", async () => {
    const html = generateReport(await simulateJson(DEMO_SCENARIO));
    expect(html).not.toMatch(/\bsrc=|@import|url\(|https?:\/\//);
    expect([...html.matchAll(/<link [^>]*>/g)].map((m) => m[0])).toEqual(['<link rel="icon" href="data:,">']);
  });

  it("gives byte-identical pages for the same input", async () => {
    const first = generateReport(await simulateJson(DEMO_SCENARIO));
    const second = generateReport(await simulateJson(DEMO_SCENARIO));
    expect(second).toBe(first);
  });

  it("renders 10,000 members in seconds, each row a few hundred bytes", () => {
    const input = JSON.parse(JSON.stringify(largeRunInput(5, 40, 50)));
    const began = performance.now();
    const html = generateReport(input);
    const seconds = (performance.now() - began) / 1000;
    expect(html.match(/class="r m"/g)).toHaveLength(10_000);
    expect(seconds).toBeLessThan(8);
    expect(html.length / 10_000).toBeLessThan(1_000);
  });
});
