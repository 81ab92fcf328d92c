/**
 * `npm run bench [-- --json] [-- --sizes 1000,10000] [-- --baseline OTHER/dist]`: every figure we track, as one
 * table (or JSON); with `--baseline`, the `simulate`, `plan` and `report` rows beside another build's.
 * The engine on generated fleets of 1,000 / 10,000 / 50,000 members (`bench/engine.ts`), `simulate
 * --json` as a whole process on scenario files of 10,000 and 100,000 members (`bench/simulate.ts`), the Pulumi
 * provider (`bench/provider.ts`), and a 200-member run through the Azure backend against the
 * throttling ARM emulator (`bench/arm.ts`), and the same fleet run by the emulator's Fleet Manager and
 * followed through the azureFleet client (`bench/fleet.ts`), and `npm run test:unit` (`bench/testUnit.ts`). Parts run one after another so they do not compete for
 * the CPU; a run that does not complete fails the bench rather than print figures of a broken run.
 */
import path from "node:path";
import { armFigures } from "./arm";
import { engineFigures } from "./engine";
import { fleetFigures } from "./fleet";
import { providerFigures } from "./provider";
import { simulateFigures, labelSelectionFigures } from "./simulate";
import { SHAPES } from "./scenarioShapes";
import { testUnitFigures } from "./testUnit";
import { TARGETS, formatJson, formatTable, type BenchFigures } from "./report";

const DEFAULT_SIZES = [1_000, 10_000, 50_000];
/** `simulate --json` as a whole process, for each shape of `bench/scenarioShapes.ts` (issue 13). */
const SIMULATE_SIZES = [10_000, 100_000];

function sizesFrom(args: readonly string[]): number[] {
  const at = args.indexOf("--sizes");
  if (at < 0) return DEFAULT_SIZES;
  const sizes = (args[at + 1] ?? "").split(",").map(Number);
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error("--sizes takes member counts, e.g. --sizes 1000,10000");
  return sizes;
}

/**
 * `--baseline DIST`: another build's `dist/` (e.g. a worktree of the commit to compare with, built);
 * the simulate, plan and report rows then run it too, interleaved, and show it beside this build.
 */
function baselineFrom(args: readonly string[]): string | undefined {
  const at = args.indexOf("--baseline");
  if (at < 0) return undefined;
  const dist = args[at + 1];
  if (dist === undefined) throw new Error("--baseline takes another build's dist/ folder");
  return path.resolve(dist, "cli", "main.js");
}

function expectCompleted(figures: BenchFigures): void {
  const runs = [
    ...figures.engine.flatMap((e) => [
      [`engine ${e.members} with windows`, e.withWindows.state],
      [`engine ${e.members} without windows`, e.withoutWindows.state],
    ]),
    ["provider run", figures.provider.runState],
    ["ARM run", figures.arm.state],
    ["Fleet Manager run", figures.fleet.state],
    ["the same fleet with its groups chosen by label (the same output as by name)", figures.labels.sameOutput ? "Completed" : "output differs"],
    ["Fleet Manager run, 500 members at maxConcurrency 20%", figures.fleet.paced.state],
    ["the long-horizon scenario through Fleet Manager (ends as in process)", figures.fleet.longHorizon.endsAsInProcess ? "Completed" : "ended otherwise than in process"],
    ["npm run test:unit", figures.testUnit.failed === 0 ? "Completed" : `${figures.testUnit.failed} tests failed`],
  ];
  const broken = runs.filter(([, state]) => state !== "Completed");
  if (broken.length > 0) throw new Error(`runs did not complete: ${broken.map(([run, state]) => `${run}: ${state}`).join(", ")}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const engine = await engineFigures(sizesFrom(args));
  // plan and report (issue 13) on the fixed shape, the one with windows.
  const simulate = await simulateFigures(
    SHAPES.flatMap((shape) => SIMULATE_SIZES.map((members) => ({ shape, members, withPlanAndReport: shape === "fixed" }))),
    baselineFrom(args),
  );
  const labels = await labelSelectionFigures(100_000);
  const provider = await providerFigures();
  const arm = await armFigures();
  const fleet = await fleetFigures();
  const testUnit = await testUnitFigures();
  const figures: BenchFigures = { engine, simulate, labels, provider, arm, fleet, testUnit, targets: TARGETS };
  expectCompleted(figures);
  process.stdout.write(`${args.includes("--json") ? formatJson(figures) : formatTable(figures)}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
