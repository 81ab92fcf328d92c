/**
 * Issue 19: the promises hold across every crash point. The engine runs over the simulated fleet with
 * the session's persistence (issue 23: the run journal itself, `RunJournal` — each pass's changes and
 * undelivered events in one record, each start's intent alone before it, compactions every few KB —
 * and events to two JSONL sinks) and is "killed" by an exception at a write boundary of a pass:
 *
 * - after a backend call took effect, before the engine saw the answer (start, poll, adoption);
 * - just before the journal write, and just after it;
 * - between the two event sinks (the first has the event, the second not yet).
 *
 * A new engine then resumes from what was journaled (or starts afresh when nothing was), as
 * `fleet-update run` and `pulumi up` do, after a random downtime. The fleet's own operation log is the
 * ground truth for the invariants (docs/behaviour.md, "Crashes: what the journal and the events promise"):
 *
 * - no cluster is upgraded twice, so no two operations ever run on one cluster;
 * - at no instant do more upgrades run in a group, or a stage, than its limit — the first pass after a
 *   resume included;
 * - stage k+1's first upgrade never starts before stage k's last one ended plus its wait;
 * - every Completed member carries the id of the fleet operation that upgraded it;
 * - each event sink holds, per item, one unbroken chain of transitions from NotStarted to the item's
 *   final state: no event the journal does not hold, none lost, none twice.
 *
 * And resumed at the crash instant (no downtime), the fleet sees exactly the operations an
 * uninterrupted run makes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../../src/model/scenario";
import { scenarioArb } from "./arbitraries";
import { expectInvariants, runWithCrashes } from "./crashHarness";

const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

/** A scenario as this test runs it: no user actions (see `runWithCrashes`). */
const crashScenarioArb = scenarioArb.map((s) => ({ ...s, actions: [] }) as Scenario);

describe("property: crashes at the write boundaries of a pass keep every promise (issue 19)", () => {
  const covered = { scenarios: 0, crashPoints: 0, runs: 0 };

  it("every boundary of a run, one crash each, resumed at once: the same operations as an uninterrupted run, and every invariant", async () => {
    await fc.assert(
      fc.asyncProperty(crashScenarioArb, async (scenario) => {
        const clean = await runWithCrashes(scenario, new Set(), () => 0);
        expectInvariants(clean);
        covered.scenarios += 1;
        for (let k = 0; k < clean.boundaries.length; k++) {
          const crashed = await runWithCrashes(scenario, new Set([k]), () => 0);
          expect(crashed.crashes).toBe(1);
          expectInvariants(crashed);
          expect(crashed.operations).toEqual(clean.operations);
          covered.crashPoints += 1;
          covered.runs += 1;
        }
      }),
      { numRuns: Math.ceil(NUM_RUNS / 5), seed: 19_001 },
    );
    // Printed for the "number of crash points and runs it covers".
    console.log(`every-boundary: ${covered.scenarios} scenarios, ${covered.crashPoints} crash points, one run each`);
    // Minutes on a loaded machine (the whole suite, two files at once): the property, not a timing.
  }, 600_000);

  it("up to four crashes anywhere in a run, each followed by a random downtime: every invariant", async () => {
    let runs = 0;
    let crashes = 0;
    await fc.assert(
      fc.asyncProperty(
        crashScenarioArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(0, 0, 1_000, 60_000, 15 * 60_000, 3 * 3_600_000), { minLength: 4, maxLength: 4 }),
        async (scenario, where, downtimes) => {
          const clean = await runWithCrashes(scenario, new Set(), () => 0);
          const total = Math.max(1, clean.boundaries.length);
          const crashAt = new Set(where.map((w) => Math.floor(w * total)));
          const crashed = await runWithCrashes(scenario, crashAt, (i) => downtimes[i % downtimes.length] as number);
          expectInvariants(crashed);
          runs += 1;
          crashes += crashed.crashes;
        },
      ),
      { numRuns: NUM_RUNS, seed: 19_002 },
    );
    console.log(`random crashes: ${runs} runs, ${crashes} crashes`);
  }, 600_000);
});
