/**
 * Property: `fleet-update simulate` on a scenario file broken in one place (wrong type, missing
 * field, duplicate member, pool, stage or group, bad version or node image, bad maintenance window,
 * bad instant, wrong enum value, 10,000-character string, unknown field) exits 2, prints nothing on
 * stdout, and prints one `FILE: path: message` line per problem on stderr — one of them naming the
 * broken field — and no stack trace. (The model-level property is test/model/validation.property.test.ts.)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { simulateCommand } from "../../src/cli/simulate";
import { STACK_TRACE, expectNamesBrokenField, invalidVariants, type Doc, type Variant } from "../support/invalidInput";
import { SCENARIO_RULES, richScenario } from "./support/invalidScenarios";

const dir = mkdtempSync(join(tmpdir(), "bad-scenario-"));
const file = join(dir, "scenario.yaml");

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function simulate(doc: Doc): Promise<{ code: number; stdout: string; stderr: string }> {
  writeFileSync(file, stringify(doc));
  let stdout = "";
  let stderr = "";
  const code = await simulateCommand(file, { json: true }, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe("property: simulate refuses a broken scenario file, naming the broken field", () => {
  it("the rich base scenario simulates (exit 0)", async () => {
    const { code, stdout } = await simulate(richScenario());
    expect(code).toBe(0);
    expect(JSON.parse(stdout).status.status.state).toBeDefined();
  });

  it("1,000 broken scenario files", async () => {
    await fc.assert(
      fc.asyncProperty(invalidVariants(richScenario(), SCENARIO_RULES), async (broken: Variant) => {
        const { code, stdout, stderr } = await simulate(broken.doc);
        expect(code, stderr.slice(0, 1000)).toBe(2);
        expect(stdout).toBe("");
        expect(stderr).not.toMatch(STACK_TRACE);
        const issues = stderr
          .trimEnd()
          .split("\n")
          .map((line) => {
            expect(line.startsWith(`${file}: `), line.slice(0, 300)).toBe(true);
            const match = /^(\S+): (.+)$/s.exec(line.slice(file.length + 2));
            expect(match, `not a "path: message" line: ${line.slice(0, 300)}`).not.toBeNull();
            return { path: (match as RegExpExecArray)[1] as string, message: (match as RegExpExecArray)[2] as string };
          });
        expectNamesBrokenField(issues, broken);
      }),
      { numRuns: 1_000 },
    );
  });

  // Found by the property above: both were accepted or crashed before being fixed.
  it("a gate list of the wrong type beside an approval of it is refused, not a crash", async () => {
    const doc = richScenario();
    doc.strategy.stages[0].afterGates = "QA";
    const { code, stderr } = await simulate(doc);
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}: strategy.stages[0].afterGates: must be a list of gates`);
    expect(stderr).not.toMatch(STACK_TRACE);
  });

  it("an instant on a day the month does not have is refused", async () => {
    const doc = richScenario();
    doc.until = "2027-02-29T00:00:00Z";
    doc.members[1].simulation.busyUntil = "2026-11-31T10:00:00+01:00";
    const { code, stderr } = await simulate(doc);
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}: until: must be an ISO 8601 date-time`);
    expect(stderr).toContain(`${file}: members[1].simulation.busyUntil: must be an ISO 8601 date-time`);
  });
});
