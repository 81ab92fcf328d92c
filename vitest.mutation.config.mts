import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * Stryker stops a mutant's run at its first failing test: the quick files first (the package schema's,
 * which in milliseconds fails on any changed description or field, then the model's, then the engine's
 * examples), the property tests (their names say so) last. A mutant of code run at import (a static
 * mutant: a schema's description, a limit, a message) runs every test that imports its file.
 */
class QuickFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = (file: TestSpecification) =>
      file.moduleId.endsWith("/test/pulumi/plugin/schema.test.ts") ? 0 : /propert/i.test(file.moduleId) ? 3 : file.moduleId.includes("/test/model/") ? 1 : 2;
    return [...files].sort((a, b) => weight(a) - weight(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

/**
 * The tests `npm run mutation` runs against each mutant of src/engine/, src/model/ and the scenario files
 * (src/simulation/scenario.ts, chain.ts; stryker.config.mjs):
 * the quick unit tests of those layers, property tests included, and nothing that starts a server, a
 * Pulumi CLI or a browser. Stryker runs only the tests that covered a mutant (per-test coverage).
 * The property tests run fewer cases than in `npm test` (PROPERTY_RUNS, docs/bench.md "Mutation
 * testing"): every surviving mutant runs all the tests that cover it.
 */
export default defineConfig({
  test: {
    // The package schema's test reads every field's description (`.meta`) as schema.json and the SDKs
    // give it to users: it judges the model's descriptions, a few milliseconds a run.
    include: ["test/engine/**/*.test.ts", "test/model/**/*.test.ts", "test/simulation/**/*.test.ts", "test/pulumi/plugin/schema.test.ts"],
    // The crash-point properties test the run journal (src/drivers) across crashes; they take longer than
    // every other test here together. The engine's part, adopting interrupted starts, has its own tests.
    // Two suites of test/simulation/ run the ARM emulator (the integration project of vitest.config.mts).
    exclude: ["test/engine/crashPoints.property.test.ts", "test/simulation/emptyGroups.test.ts", "test/simulation/latestAtStart.test.ts", "**/node_modules/**"],
    // One module graph for every test file of a mutant's run: a mutant is switched on by a global
    // (mutant schemata), so nothing needs importing again, and a run took half the time or less
    // (docs/bench.md "Mutation testing"); every test passes alike with it.
    isolate: false,
    testTimeout: 60_000,
    env: { PROPERTY_RUNS: process.env.PROPERTY_RUNS ?? "40" },
    sequence: { sequencer: QuickFirst },
  },
});
