/** `fleet-update report INPUT -o FILE`: writes the page, or exits 2 naming the bad fields, never a stack trace. */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/main";
import { reportCommand } from "../../src/cli/report";
import { generateReport } from "../../src/report";
import { EXAMPLE_SCENARIOS, simulateJson } from "./fixtures";

const scratch = mkdtempSync(join(tmpdir(), "fleet-update-report-"));

function run(file: string, output?: string): { code: number; stdout: string; stderr: string } {
  let stdout = "";
  let stderr = "";
  const code = reportCommand(file, output === undefined ? {} : { output }, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe("fleet-update report", () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it("writes the page for a simulate --json result to -o, through the command line", async () => {
    const result = await simulateJson(`${EXAMPLE_SCENARIOS}/02-staged-parallel.yaml`);
    const input = join(scratch, "result.json");
    const output = join(scratch, "report.html");
    writeFileSync(input, JSON.stringify(result, null, 2));
    await buildProgram().parseAsync(["node", "fleet-update", "report", input, "-o", output]);
    expect(process.exitCode).toBe(0);
    expect(readFileSync(output, "utf8")).toBe(generateReport(result));
  });

  it("prints the page on stdout without -o", async () => {
    const input = join(scratch, "status.json");
    writeFileSync(input, JSON.stringify({ status: (await simulateJson(`${EXAMPLE_SCENARIOS}/01-default-sequential.yaml`)).status }));
    const { code, stdout, stderr } = run(input);
    expect([code, stderr]).toEqual([0, ""]);
    expect(stdout).toMatch(/^<!doctype html>/);
  });

  it("exits 2 with one line per problem, each naming the file and the field path", async () => {
    const { status } = await simulateJson(`${EXAMPLE_SCENARIOS}/01-default-sequential.yaml`);
    status.stages[0]!.groups[0]!.members[0]!.status.state = "Done";
    status.status.completedTime = "soon";
    const input = join(scratch, "bad.json");
    writeFileSync(input, JSON.stringify({ rollout: { status } }));
    const output = join(scratch, "never.html");
    const { code, stdout, stderr } = run(input, output);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toEqual([
      `${input}: rollout.status.status.completedTime: must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z`,
      expect.stringMatching(new RegExp(`^${input}: rollout\\.status\\.stages\\[0\\]\\.groups\\[0\\]\\.members\\[0\\]\\.status\\.state: `)),
    ]);
    expect(() => readFileSync(output)).toThrow();
  });

  it("exits 2 with one line for a file that is missing or not JSON", () => {
    const notJson = join(scratch, "not.json");
    writeFileSync(notJson, "status: Completed\n");
    const missing = run(join(scratch, "missing.json"));
    expect([missing.code, missing.stderr]).toEqual([2, `${join(scratch, "missing.json")}: no such file\n`]);
    const bad = run(notJson);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(new RegExp(`^${notJson}: not JSON \\(.*\\)\\n$`));
  });
});
