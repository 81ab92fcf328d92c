/**
 * Issue 32: the wall time of `npm run test:unit` (the `unit` vitest project: every suite but the
 * integration, property, e2e and reliability ones; vitest.config.mts), the quick run while you work.
 * Runs vitest in its own process from the repository's root, exactly as the script does, and reads
 * its JSON report for the counts. `npm run bench:test-unit` prints this row alone, as JSON.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TestUnitFigures {
  wallSeconds: number;
  files: number;
  tests: number;
  failed: number;
}

/** The repository's root, from the compiled script in `.build/bench/`. */
const ROOT = path.resolve(__dirname, "..", "..");

export async function testUnitFigures(): Promise<TestUnitFigures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-test-unit-"));
  const report = path.join(dir, "report.json");
  const vitest = path.join(ROOT, "node_modules", "vitest", "vitest.mjs");
  const began = performance.now();
  try {
    await new Promise<void>((resolve, reject) => {
      // A failing test makes vitest exit 1: its figures are still read, and the bench fails on `failed`.
      execFile(process.execPath, [vitest, "run", "--project", "unit", "--reporter=json", `--outputFile=${report}`], { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 }, (error) => {
        if (error !== null && !fs.existsSync(report)) reject(new Error(`vitest --project unit printed no report: ${error.message}`));
        else resolve();
      });
    });
    const wallSeconds = (performance.now() - began) / 1000;
    const json = JSON.parse(fs.readFileSync(report, "utf8")) as { numTotalTests: number; numFailedTests: number; testResults: unknown[] };
    return { wallSeconds, files: json.testResults.length, tests: json.numTotalTests, failed: json.numFailedTests };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  testUnitFigures()
    .then((figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`))
    .catch((e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    });
}
