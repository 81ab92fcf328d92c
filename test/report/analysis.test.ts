/**
 * Issue 31, Must show: the HTML report's timeline shows measurements — each one a dot on its stage's
 * (pre-check, soak) or member's (after its upgrade) row, at its instant, in the colour of its verdict,
 * its tooltip naming the value, the member, the query and the condition.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { generateReport } from "../../src/report";
import { parseScenario } from "../../src/simulation/scenario";
import { simulateScenario } from "../../src/simulation/simulateScenario";

const SICK = readFileSync(resolve(__dirname, "../../examples/health-analysis/sick-cluster.yaml"), "utf8");

/** The row of `attribute="name"` in the page, as HTML. */
function rowOf(html: string, attribute: string, name: string): string {
  const start = html.indexOf(`${attribute}="${name}"`);
  expect(start, `${attribute}=${name}`).toBeGreaterThan(0);
  return html.slice(start, html.indexOf('<div class="r ', start + 1));
}

describe("the report's timeline shows analysis measurements", () => {
  it("the sick rollout: stage early's row has its pre-check (passed) and its soak (failed at 0.31 on c3)", async () => {
    const { result } = await simulateScenario(parseScenario(SICK));
    const html = generateReport({ status: result.status, events: result.events });
    const early = rowOf(html, "data-stage", "early");
    const dots = [...early.matchAll(/<i class="ms ([^"]+)" data-phase="([^"]+)" style="left:([^"]+)" title="([^"]*)"/g)];
    expect(dots.map((d) => [d[1], d[2]])).toEqual([
      ["c-Completed", "Successful"],
      ["c-Failed", "Failed"],
    ]);
    const failed = dots[1]![4]!.replace(/&#10;/g, "\n").replace(/&quot;/g, '"').replace(/&lt;/g, "<");
    expect(failed).toContain("soak error-rate of stage early: Failed");
    expect(failed).toContain("Value: 0.31 (member c3)");
    expect(failed).toContain('Query: cluster_error_rate{cluster="c3"}');
    expect(failed).toContain("Success: result < 0.05");
    // The canary's soak: three measurements, all passed, on its own row.
    expect([...rowOf(html, "data-stage", "canary").matchAll(/class="ms c-Completed"/g)]).toHaveLength(4);
    expect(html).toContain('data-legend="measurement"');
  });

  it("a member's analysis after its upgrade is drawn on the member's row", async () => {
    const text = SICK.replace("  stages:\n    - {name: canary, preCheck", "  afterMember: [error-rate]\n  stages:\n    - {name: canary, preCheck");
    const { result } = await simulateScenario(parseScenario(text));
    const html = generateReport({ status: result.status, events: result.events });
    expect(rowOf(html, "data-member", "c3")).toMatch(/<i class="ms c-Failed" data-phase="Failed"/);
    expect(rowOf(html, "data-member", "c1")).toMatch(/<i class="ms c-Completed" data-phase="Successful"/);
  });
});
