/**
 * Issue 31, Must show: a rollout of 3 stages where the 3rd cluster's upgrade makes its error rate
 * rise halts before the next stage — measured by a real Prometheus server (Debian's package, cached by
 * `scripts/pulumi-cli.sh`'s sibling `scripts/prometheus.sh`), never a mock of its API:
 *  - in process: the engine over the simulated fleet, a small exporter serving the fleet's metrics;
 *  - through the ARM emulator: the engine over the Azure backend, Prometheus scraping the emulator's
 *    own `/metrics`.
 * Time runs scaled (a simulated minute takes a few real seconds) so that Prometheus has scraped the
 * new values before the analysis measures them; every wait polls, none assumes speed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import { exposition } from "../../src/backends/simulator/metrics";
import { AzureBackend } from "../../src/backends/azure/azureBackend";
import { emulatorCredential } from "../../src/backends/azure/credentials";
import { startArmEmulator } from "../../src/emulator";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { HeldScaledClock } from "../../src/runtime/scaledClock";
import { prometheusQuery } from "../../src/runtime/prometheusQuery";
import { resolveScenarioStrategy } from "../../src/simulation/scenario";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import type { RunEvent } from "../../src/model/status";
import { EMULATOR_RESOURCE_GROUP, EMULATOR_SUBSCRIPTION } from "../../src/simulation/viaArmEmulator";
import { prometheusBinary, realTimeScenario, startExporter, startPrometheus } from "../support/prometheus";

const binary = prometheusBinary();
if (binary.path === undefined) console.warn(`skipped: real-Prometheus tests (${binary.why})`);

/** A simulated minute takes this many real milliseconds: Prometheus scrapes every second. */
const MS_PER_MINUTE = 3_000;

describe.skipIf(binary.path === undefined)("a real Prometheus measures the rollout (Must show)", () => {
  describe("in process: the engine over the simulated fleet, an exporter serving the fleet's metrics", () => {
    let fleet: SimulatedFleet | undefined;
    let exporter: Awaited<ReturnType<typeof startExporter>>;
    let prometheus: Awaited<ReturnType<typeof startPrometheus>>;

    beforeAll(async () => {
      exporter = await startExporter(() => (fleet === undefined ? "" : exposition(fleet.series())));
      prometheus = await startPrometheus(binary.path as string, [exporter.target]);
    }, 180_000);
    afterAll(async () => {
      await prometheus?.stop();
      await exporter?.close();
    });

    async function run(healthy: boolean) {
      const scenario = realTimeScenario(prometheus.address, healthy);
      const clock = HeldScaledClock.startingNow(60_000 / MS_PER_MINUTE);
      fleet = new SimulatedFleet({ regions: scenario.regions, members: scenario.members }, clock);
      // Prometheus has every cluster's series before the run starts (the pre-checks need them).
      await prometheus.waitFor("count(cluster_error_rate)", (v) => v[0] === 4);
      const events: RunEvent[] = [];
      const strategy = resolveScenarioStrategy(scenario);
      const engine = UpdateRunEngine.create(
        { name: "r", members: scenario.members, ...(strategy === undefined ? {} : { strategy }), analysis: scenario.analysis!, ...updateChoiceOf(scenario) },
        fleet,
        { queryMetric: prometheusQuery, onEvent: (e) => events.push(e) },
      );
      engine.start(clock.now());
      await drive(engine, clock);
      return { status: engine.status(), events, fleet };
    }

    it("the 3rd cluster's error rate rises: the soak of stage early fails on Prometheus' answer, stage rest never starts", async () => {
      const { status, events, fleet: sim } = await run(false);
      expect(status.status.state).toBe("Failed");
      const early = status.stages[1]!;
      expect(early.status).toMatchObject({ state: "Failed", error: { code: "AnalysisFailed" } });
      expect(early.status.error?.message).toContain(`cluster_error_rate{cluster="c3"} = 0.31 for member c3, not result < 0.05`);
      const soak = early.analysisRuns?.find((a) => a.kind === "soak");
      expect(soak).toMatchObject({ phase: "Failed", query: 'cluster_error_rate{cluster="{{member.name}}"}', successCondition: "result < 0.05" });
      expect(soak?.measurements.at(-1)).toMatchObject({ phase: "Failed", value: 0.31, member: "c3", query: 'cluster_error_rate{cluster="c3"}' });
      expect(status.stages[2]!.status.state).toBe("NotStarted");
      expect(sim.snapshot().clusters.find((c) => c.name === "c4")?.operations).toEqual([]);
      expect(events.some((e) => e.scope === "analysis" && e.measurement?.value === 0.31)).toBe(true);
    }, 300_000);

    it("the same rollout healthy completes, every stage after its soak", async () => {
      const { status } = await run(true);
      expect(status.status.state).toBe("Completed");
      for (const stage of status.stages) {
        const soak = stage.analysisRuns?.find((a) => a.kind === "soak");
        expect(soak?.phase).toBe("Successful");
        // Measured at 60, 90 and 120 s into the two-minute wait; the next stage started after it.
        expect(soak?.measurements.length).toBe(3);
        expect(Date.parse(stage.status.completedTime as string)).toBeGreaterThanOrEqual(Date.parse(stage.afterStageWaitStatus?.status.completedTime as string));
      }
    }, 300_000);
  });

  describe("through the ARM emulator: the Azure backend, Prometheus scraping the emulator's /metrics", () => {
    it("the run halts before the next stage, the status naming the query, the values and the threshold", async () => {
      const scenario = realTimeScenario("http://unused", false);
      const emulator = await startArmEmulator({
        fleet: { regions: scenario.regions, members: scenario.members },
        msPerSimulatedMinute: MS_PER_MINUTE,
        subscriptionId: EMULATOR_SUBSCRIPTION,
        resourceGroup: EMULATOR_RESOURCE_GROUP,
        throttling: false,
      });
      const prometheus = await startPrometheus(binary.path as string, [{ hostPort: emulator.url.replace("https://", ""), scheme: "https" }]);
      try {
        await prometheus.waitFor("count(cluster_error_rate)", (v) => v[0] === 4);
        const analysis = structuredClone(scenario.analysis!);
        analysis.templates[0]!.provider.prometheus!.address = prometheus.address;
        const members = scenario.members.map((m) => ({
          name: m.name,
          ...(m.group === undefined ? {} : { group: m.group }),
          clusterResourceId: `/subscriptions/${EMULATOR_SUBSCRIPTION}/resourceGroups/${EMULATOR_RESOURCE_GROUP}/providers/Microsoft.ContainerService/managedClusters/${m.name}`,
        }));
        const backend = new AzureBackend({ credential: emulatorCredential, clock: emulator.clock, endpoint: emulator.url, trustedCaPem: emulator.certificatePem, retryDelayInMs: 5, maxRetryDelayInMs: 50 });
        const strategy = resolveScenarioStrategy(scenario);
        const engine = UpdateRunEngine.create({ name: "arm", members, ...(strategy === undefined ? {} : { strategy }), analysis, ...updateChoiceOf(scenario) }, backend, {
          queryMetric: prometheusQuery,
          pollIntervalMs: 15_000,
        });
        engine.start(emulator.clock.now());
        await drive(engine, emulator.clock);
        const status = engine.status();
        expect(status.status.state).toBe("Failed");
        expect(status.stages[1]!.status.error).toMatchObject({ code: "AnalysisFailed" });
        const soak = status.stages[1]!.analysisRuns?.find((a) => a.kind === "soak");
        expect(soak).toMatchObject({ phase: "Failed", query: 'cluster_error_rate{cluster="{{member.name}}"}', successCondition: "result < 0.05" });
        expect(soak?.measurements.at(-1)).toMatchObject({ value: 0.31, member: "c3" });
        expect(status.stages[2]!.status.state).toBe("NotStarted");
        expect(emulator.fleet.toState().clusters.c4?.operations).toEqual([]);
      } finally {
        await prometheus.stop();
        await emulator.close();
      }
    }, 300_000);
  });
});
