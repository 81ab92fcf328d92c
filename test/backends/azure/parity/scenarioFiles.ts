/**
 * Every scenario file the parity tests run: the example ones (examples/scenarios), the test suite's own
 * (test/scenarios) and the demo's (examples/demo). New files in those folders are picked up as they are.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseScenario, type Scenario } from "../../../../src/simulation/scenario";

const ROOT = resolve(__dirname, "../../../..");

export const SCENARIO_FOLDERS = {
  examples: resolve(ROOT, "examples/scenarios"),
  suite: resolve(ROOT, "test/scenarios"),
  demo: resolve(ROOT, "examples/demo"),
} as const;

export interface ScenarioFile {
  /** `examples/01-default-sequential.yaml`, `suite/busy-cluster.yaml`, ... */
  label: string;
  path: string;
  scenario: Scenario;
}

export function scenarioFiles(): ScenarioFile[] {
  return Object.entries(SCENARIO_FOLDERS).flatMap(([folder, dir]) =>
    readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f) => {
        const path = join(dir, f);
        return { label: `${folder}/${basename(f)}`, path, scenario: parseScenario(readFileSync(path, "utf8")) };
      }),
  );
}
