// @ts-check
/**
 * Mutation testing of the engine and the model (issue 34): `npm run mutation`. Not part of CI (it takes
 * long); its scores are in docs/bench.md, "Mutation testing". Incremental: the results of the last run
 * are kept in reports/stryker-incremental.json (not committed), so a re-run after a small change tests
 * only the mutants whose code or covering tests changed. `npm run mutation -- --force` re-runs them all.
 */

/**
 * Mutants that cannot change what a user sees (an equivalent mutant, or a cache shortcut that only
 * costs time), one line each: the file, the exact source of the smallest expression or statement
 * holding them (every mutant inside it is ignored), and why.
 * @type {{ file: string; code: string; reason: string }[]}
 */
export const equivalentMutants = [
];

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.mts" },
  mutate: ["src/engine/**/*.ts", "src/model/**/*.ts"],
  coverageAnalysis: "perTest",
  incremental: true,
  incrementalFile: "reports/stryker-incremental.json",
  // The machine has 2 cores, usually shared: one mutant at a time. `--concurrency 2` on a quiet machine.
  concurrency: 1,
  timeoutMS: 30_000,
  ignorers: ["equivalent"],
  plugins: ["@stryker-mutator/vitest-runner", "./mutation/equivalentIgnorer.mjs"],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
