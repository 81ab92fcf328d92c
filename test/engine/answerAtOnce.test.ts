/**
 * Issue 13: a backend may answer a call with the value itself instead of a promise (`Answer<T>`,
 * engine/backend.ts), and `simulate` gives the engine the simulated fleet's `atOnce` view, which does.
 * The engine must do exactly the same with either: every scenario file of the suite ends with the
 * same status, events, clusters and refusals through the fleet's promise API and through `atOnce`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { isPending } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import { parseScenario } from "../../src/simulation/scenario";
import { runScenario } from "../../src/simulation/simulateScenario";

const DIR = resolve(__dirname, "../scenarios");
const SHARED = resolve(__dirname, "../../examples/scenarios");
const files = [...readdirSync(DIR).map((f) => resolve(DIR, f)), ...readdirSync(SHARED).map((f) => resolve(SHARED, f))].filter((f) => /\.ya?ml$/.test(f));

async function simulateWith(text: string, view: "promises" | "atOnce") {
  const scenario = parseScenario(text);
  const clock = new VirtualClock(Date.parse(scenario.start));
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
  const backend = view === "atOnce" ? fleet.atOnce : fleet;
  const report = await runScenario(scenario, { backend, clock, clusters: () => fleet.snapshot().clusters });
  return { report, calls: fleet.startUpgradeCalls() };
}

it("the atOnce view answers with values, the fleet itself with promises", async () => {
  const scenario = parseScenario(readFileSync(resolve(DIR, "stages-and-waits.yaml"), "utf8"));
  const fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, new VirtualClock(Date.parse(scenario.start)));
  const name = (scenario.members[0] as { name: string }).name;
  expect(isPending(fleet.atOnce.getCluster({ name }))).toBe(false);
  expect(isPending(fleet.getCluster({ name }))).toBe(true);
  // A refusal is thrown at once by the view, and rejects the fleet's promise.
  expect(() => fleet.atOnce.getCluster({ name: "no-such-member" })).toThrow(/was not found/);
  await expect(fleet.getCluster({ name: "no-such-member" })).rejects.toThrow(/was not found/);
});

it.each(files.map((f) => [f.slice(f.lastIndexOf("/") + 1), f]))("%s ends the same through promises and through atOnce", async (_name, file) => {
  const text = readFileSync(file, "utf8");
  const [withPromises, atOnce] = [await simulateWith(text, "promises"), await simulateWith(text, "atOnce")];
  expect(atOnce.report).toEqual(withPromises.report);
  expect(atOnce.calls).toEqual(withPromises.calls);
});
