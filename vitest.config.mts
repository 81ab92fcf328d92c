import { defineConfig } from "vitest/config";

/**
 * The suites (vitest projects). `npm test` runs them all; `npm run test:unit` runs `unit` alone, the
 * quick run while you work (docs/testing.md). A new test file is a unit test unless it is
 * named here: put it in `integration` when it starts the emulator, a server or a process, or waits on
 * real time; in `property` when it is a long generative run.
 */

/** Through the ARM or Fleet Manager emulator (https on 127.0.0.1), a real Prometheus, a child process, a browser, or the wall clock. */
const INTEGRATION = [
  "test/backends/azure/**/*.test.ts",
  "test/backends/azureFleet/**/*.test.ts",
  "test/conformance/**/*.test.ts",
  "test/drivers/fleet/analysis.test.ts",
  "test/drivers/fleet/followOnClock.test.ts",
  "test/emulator/**/*.test.ts",
  "test/prometheus/**/*.test.ts",
  "test/cli/analysis.test.ts",
  "test/cli/fleet.test.ts",
  "test/cli/fleetAnalysis.test.ts",
  "test/cli/closedPipe.test.ts",
  "test/cli/gate.test.ts",
  "test/cli/progressSummary.test.ts",
  "test/cli/run.test.ts",
  "test/cli/runTimeScale.test.ts",
  "test/cli/terminalEscapes.test.ts",
  "test/plan/cli.test.ts",
  "test/pulumi/provider/driverLease.test.ts",
  "test/pulumi/provider/fleet*.test.ts",
  "test/pulumi/harness.test.ts",
  "test/pulumi/program/updateRun.contract.test.ts",
  "test/report/report.browser.test.ts",
  "test/simulation/emptyGroups.test.ts",
  "test/simulation/latestAtStart.test.ts",
];

/** Long generative runs: fast-check properties and fuzzing over thousands of inputs. */
const PROPERTY = ["test/**/*.property.test.ts", "test/**/*.fuzz.test.ts", "test/cli/hostileText.test.ts"];

/** The real Pulumi CLI (test/e2e/README.md), and processes killed at random points (test/reliability/). */
const E2E = ["test/e2e/**/*.test.ts"];
const RELIABILITY = ["test/reliability/**/*.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // Vitest's default is one worker on a 2-core machine; many suites here wait on real time (the ARM
    // emulator, the real Pulumi CLI), so two files at once use the machine better.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [...INTEGRATION, ...PROPERTY, ...E2E, ...RELIABILITY] } },
      { extends: true, test: { name: "property", include: PROPERTY, exclude: [...INTEGRATION, ...E2E, ...RELIABILITY] } },
      { extends: true, test: { name: "integration", include: INTEGRATION } },
      { extends: true, test: { name: "e2e", include: E2E } },
      { extends: true, test: { name: "reliability", include: RELIABILITY } },
    ],
  },
});
