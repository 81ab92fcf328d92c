/**
 * Quickstart placeholder. The Pulumi resources (`UpdateStrategy`, `UpdateRun`) arrive with their own
 * issue; until then this program runs the demo scenario through the same engine `pulumi up` will use
 * and exports its final status, so `pulumi up` on this project already shows the rollout's outcome.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseScenario } from "../../src/model/scenario";
import { simulateScenario } from "../../src/simulation/simulateScenario";

const scenario = parseScenario(readFileSync(join(__dirname, "..", "demo", "scenario.yaml"), "utf8"));

export const status = simulateScenario(scenario).then((report) => report.result.status);
