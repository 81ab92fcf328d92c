/**
 * Whole-process figures of `fleet-update simulate FILE --json` on generated scenario files
 * (`bench/scenarioShapes.ts`): for each shape and size, the file is written, then the CLI runs in its
 * own Node process with its output thrown away — start-up, reading and validating the file, the run,
 * and writing the JSON all count. Wall time is measured here; the peak RSS is the process's own
 * (`process.resourceUsage().maxRSS`, read as it exits).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { round } from "./round";
import { generateScenario, type Shape } from "./scenarioShapes";

export interface SimulateFigures {
  shape: Shape;
  members: number;
  wallSeconds: number;
  peakRssMb: number;
  /** Wall time divided by the members: flat as the fleet grows when the cost is linear. */
  microsecondsPerMember: number;
}

/** What each shape's rows are called in the table. */
export const SHAPE_LABELS: Record<Shape, string> = {
  fixed: "groups of 100, 50 to a stage, windows on half",
  grow: "5 stages × 40 groups (groups grow)",
  wide: "one group at maxConcurrency 5%",
};

/** The CLI as the bench build compiled it (`.build/src/cli/main.js`). */
const CLI = path.join(__dirname, "..", "src", "cli", "main.js");

/**
 * Runs the CLI as its `main` does (the same modules load), and prints the peak RSS (KiB) on stderr's
 * last line as the process exits.
 */
const WRAPPER = `
process.on("exit", () => process.stderr.write("\\nmaxRSS " + process.resourceUsage().maxRSS + "\\n"));
require(${JSON.stringify(CLI)}).buildProgram().parseAsync([process.argv[0], ${JSON.stringify(CLI)}, ...process.argv.slice(1)]).catch((e) => {
  process.stderr.write(String(e && e.stack));
  process.exitCode = 1;
});
`;

function runCli(file: string): Promise<{ wallMs: number; maxRssKb: number }> {
  return new Promise((resolve, reject) => {
    const devNull = openSync(os.devNull, "w");
    const began = performance.now();
    const child = spawn(process.execPath, ["-e", WRAPPER, "simulate", file, "--json"], { stdio: ["ignore", devNull, "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - began;
      const rss = /maxRSS (\d+)\s*$/.exec(stderr);
      if (code !== 0 || rss === null) reject(new Error(`simulate ${file} exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ wallMs, maxRssKb: Number(rss[1]) });
    });
  });
}

export async function simulateFigures(runs: ReadonlyArray<{ shape: Shape; members: number }>): Promise<SimulateFigures[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "fleet-bench-"));
  const figures: SimulateFigures[] = [];
  try {
    for (const { shape, members } of runs) {
      const file = path.join(dir, `${shape}-${members}.json`);
      writeFileSync(file, JSON.stringify(generateScenario(shape, members)));
      const { wallMs, maxRssKb } = await runCli(file);
      rmSync(file);
      figures.push({
        shape,
        members,
        wallSeconds: round(wallMs / 1000, 2),
        peakRssMb: round(maxRssKb / 1024, 0),
        microsecondsPerMember: round((wallMs * 1000) / members, 0),
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
