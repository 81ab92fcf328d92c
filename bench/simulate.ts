/**
 * Whole-process figures of `fleet-update simulate FILE --json` on generated scenario files
 * (`bench/scenarioShapes.ts`): for each shape and size, the file is written, then the CLI runs in its
 * own Node process with its output thrown away — start-up, reading and validating the file, the run,
 * and writing the JSON all count. Wall time is measured here; the peak RSS is the process's own
 * (`process.resourceUsage().maxRSS`, read as it exits). Runs asked `withPlanAndReport` also time
 * `plan FILE --json` and `report` of the simulation's JSON (issue 13: "in the same time class").
 * Each command runs `RUNS` times and its figures are the median run's (issue 13 measures "median of
 * 3"): wall times on this 2-core machine vary by a quarter from one run to the next.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { round } from "./round";
import { generateScenario, type Shape } from "./scenarioShapes";

export interface SimulateFigures {
  /** `simulate FILE --json`, `plan FILE --json`, or `report` of what simulate printed. */
  command: "simulate" | "plan" | "report";
  shape: Shape;
  members: number;
  /** The median run's wall time, and the fastest and slowest of the `RUNS` runs. */
  wallSeconds: number;
  wallSecondsRange: [number, number];
  /** The median run's peak RSS. */
  peakRssMb: number;
  /** Wall time divided by the members: flat as the fleet grows when the cost is linear. */
  microsecondsPerMember: number;
  /** The same command with the baseline build (`npm run bench -- --baseline DIST`), its runs interleaved with these. */
  baseline?: { wallSeconds: number; wallSecondsRange: [number, number]; peakRssMb: number };
}

/** What each shape's rows are called in the table. */
export const SHAPE_LABELS: Record<Shape, string> = {
  fixed: "groups of 100, 50 to a stage, windows on half",
  grow: "5 stages × 40 groups (groups grow)",
  wide: "one group at maxConcurrency 5%",
};

/** Runs of each command; the median one is reported. */
export const RUNS = 3;

/** The CLI as the bench build compiled it (`.build/src/cli/main.js`). */
const CLI = path.join(__dirname, "..", "src", "cli", "main.js");

/**
 * Runs the CLI at `cli` as its `main` does (the same modules load), and prints the peak RSS (KiB) on
 * stderr's last line as the process exits.
 */
const wrapper = (cli: string) => `
process.on("exit", () => process.stderr.write("\\nmaxRSS " + process.resourceUsage().maxRSS + "\\n"));
require(${JSON.stringify(cli)}).buildProgram().parseAsync([process.argv[0], ${JSON.stringify(cli)}, ...process.argv.slice(1)]).catch((e) => {
  process.stderr.write(String(e && e.stack));
  process.exitCode = 1;
});
`;

interface CliRun {
  wallMs: number;
  maxRssKb: number;
}

/** The median run by wall time (`runs` has an odd count), and the fastest and slowest. */
function spread(runs: readonly CliRun[]): { median: CliRun; fastest: CliRun; slowest: CliRun } {
  const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  const at = (i: number) => sorted[i] as CliRun;
  return { median: at(Math.floor(sorted.length / 2)), fastest: at(0), slowest: at(sorted.length - 1) };
}

/** The CLI with `args`, its output to `stdoutFile` (default thrown away). */
function runCli(args: readonly string[], stdoutFile: string = os.devNull, cli: string = CLI): Promise<CliRun> {
  const file = args.join(" ");
  return new Promise((resolve, reject) => {
    const out = openSync(stdoutFile, "w");
    const began = performance.now();
    const child = spawn(process.execPath, ["-e", wrapper(cli), ...args], { stdio: ["ignore", out, "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - began;
      const rss = /maxRSS (\d+)\s*$/.exec(stderr);
      closeSync(out);
      if (code !== 0 || rss === null) reject(new Error(`${file} exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ wallMs, maxRssKb: Number(rss[1]) });
    });
  });
}

/**
 * `baselineCli`: another build's `dist/cli/main.js`; each command then also runs with it, its runs
 * interleaved with this build's (baseline, this, baseline, this, ...), so both meet the same phases
 * of the machine's speed.
 */
export async function simulateFigures(runs: ReadonlyArray<{ shape: Shape; members: number; withPlanAndReport?: boolean }>, baselineCli?: string): Promise<SimulateFigures[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "fleet-bench-"));
  const figures: SimulateFigures[] = [];
  try {
    for (const { shape, members, withPlanAndReport = false } of runs) {
      const file = path.join(dir, `${shape}-${members}.json`);
      const output = path.join(dir, `${shape}-${members}.out.json`);
      writeFileSync(file, JSON.stringify(generateScenario(shape, members)));
      const timed = async (command: SimulateFigures["command"], args: readonly string[]) => {
        const walls: CliRun[] = [];
        const baseWalls: CliRun[] = [];
        for (let i = 0; i < RUNS; i++) {
          if (baselineCli !== undefined) baseWalls.push(await runCli(args, os.devNull, baselineCli));
          walls.push(await runCli(args));
        }
        const { median, fastest, slowest } = spread(walls);
        const base = baseWalls.length === 0 ? undefined : spread(baseWalls);
        figures.push({
          command,
          shape,
          members,
          wallSeconds: round(median.wallMs / 1000, 2),
          wallSecondsRange: [round(fastest.wallMs / 1000, 2), round(slowest.wallMs / 1000, 2)],
          peakRssMb: round(median.maxRssKb / 1024, 0),
          microsecondsPerMember: round((median.wallMs * 1000) / members, 0),
          ...(base === undefined
            ? {}
            : { baseline: { wallSeconds: round(base.median.wallMs / 1000, 2), wallSecondsRange: [round(base.fastest.wallMs / 1000, 2), round(base.slowest.wallMs / 1000, 2)], peakRssMb: round(base.median.maxRssKb / 1024, 0) } }),
        });
      };
      await timed("simulate", ["simulate", file, "--json"]);
      if (withPlanAndReport) {
        // The report's input, written by one more run (untimed: every timed run writes to /dev/null).
        await runCli(["simulate", file, "--json"], output);
        await timed("plan", ["plan", file, "--json"]);
        await timed("report", ["report", output, "-o", os.devNull]);
        rmSync(output);
      }
      rmSync(file);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

/** Issue 22: the same fleet and groups, chosen by label instead of by name. */
export interface LabelSelectionFigures {
  members: number;
  byNameSeconds: number;
  byLabelSeconds: number;
  /** byLabel ÷ byName, medians of interleaved runs (target ≤ 1.2). */
  ratio: number;
  /** Whether the two runs printed the same status (they must: the groups hold the same members). */
  sameOutput: boolean;
}

/**
 * `simulate --json` of the `fixed` shape (groups of 100, 50 to a stage, windows on half) with its
 * groups chosen by name, then by label (`team=<group>`): the runs interleave, medians of `RUNS`.
 */
export async function labelSelectionFigures(members: number): Promise<LabelSelectionFigures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "fleet-bench-labels-"));
  try {
    const files = { name: path.join(dir, "by-name.json"), label: path.join(dir, "by-label.json") };
    writeFileSync(files.name, JSON.stringify(generateScenario("fixed", members)));
    writeFileSync(files.label, JSON.stringify(generateScenario("fixed", members, true, true)));
    const byName: CliRun[] = [];
    const byLabel: CliRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      byName.push(await runCli(["simulate", files.name, "--json"], i === 0 ? path.join(dir, "by-name.out") : os.devNull));
      byLabel.push(await runCli(["simulate", files.label, "--json"], i === 0 ? path.join(dir, "by-label.out") : os.devNull));
    }
    const name = spread(byName).median.wallMs;
    const label = spread(byLabel).median.wallMs;
    const sameOutput = readFileSync(path.join(dir, "by-name.out"), "utf8") === readFileSync(path.join(dir, "by-label.out"), "utf8");
    return { members, byNameSeconds: round(name / 1000, 2), byLabelSeconds: round(label / 1000, 2), ratio: round(label / name, 2), sameOutput };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
