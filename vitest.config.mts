import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // Vitest's default is one worker on a 2-core machine; many suites here wait on real time (the ARM
    // emulator, the real Pulumi CLI), so two files at once use the machine better.
    maxWorkers: 2,
  },
});
