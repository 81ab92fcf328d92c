/**
 * Issue 19: every duration and instant has a maximum the schema enforces, with a message naming the
 * field and the limit (docs/behaviour.md "Limits on input"). `afterStageWaitInSeconds:
 * 10000000000000` passed validation and then simulate, plan and run died with "Invalid time value".
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planCommand } from "../../src/cli/plan";
import { backendFromFlags } from "../../src/cli/runSpec";
import { simulateCommand } from "../../src/cli/simulate";
import { parseAnyScenario } from "../../src/simulation/chain";
import { MAX_CALL_MINUTES, MAX_HORIZON_DAYS, MAX_POLL_SECONDS, MAX_WAIT_SECONDS } from "../../src/model/limits";
import { MAX_INSTANT, MIN_INSTANT } from "../../src/model/instants";
import { ValidationError, type FieldIssue } from "../../src/model/issues";
import { checkRunInputs } from "../../src/drivers/runInputs";

const IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";

function scenario(): any {
  return {
    start: "2026-12-05T00:00:00Z",
    until: "2026-12-20T00:00:00Z",
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0", availableAt: "2026-12-05T01:00:00Z" }], nodeImages: [{ version: IMAGE, availableAt: "2026-12-05T00:00:00Z" }] } },
    members: [
      {
        name: "a",
        group: "g",
        region: "westeurope",
        kubernetesVersion: "1.31.2",
        nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE }],
        simulation: { upgradeMinutes: 10, busyUntil: "2026-12-05T00:30:00Z" },
        healthCheck: { url: "https://a.example/healthz", settleSeconds: 60, intervalSeconds: 30 },
        maintenanceConfigurations: {
          aksManagedAutoUpgradeSchedule: {
            maintenanceWindow: { schedule: { daily: { intervalDays: 1 } }, startTime: "00:00", durationHours: 24, startDate: "2026-01-01", notAllowedDates: [{ start: "2026-12-24", end: "2026-12-25" }] },
          },
        },
      },
    ],
    strategy: { stages: [{ name: "s", groups: [{ name: "g" }], afterStageWaitInSeconds: 60 }] },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    actions: [{ at: "2026-12-05T02:00:00Z", stop: true }],
  };
}

function issuesOf(doc: unknown): FieldIssue[] {
  try {
    parseAnyScenario(JSON.stringify(doc));
    return [];
  } catch (e) {
    if (e instanceof ValidationError) return e.issues;
    throw e;
  }
}

const member = "members[0]";
const window = `${member}.maintenanceConfigurations.aksManagedAutoUpgradeSchedule.maintenanceWindow`;
const INSTANT_RANGE = `must be from ${MIN_INSTANT} to ${MAX_INSTANT}`;
const DATE_RANGE = `must be from ${MIN_INSTANT.slice(0, 10)} to ${MAX_INSTANT.slice(0, 10)}`;

/** Field, how to set it, a value just past the limit, the message, and the largest value accepted. */
const CASES: Array<{ path: string; set: (doc: any, v: any) => void; over: unknown[]; message: string; atLimit?: unknown }> = [
  { path: "strategy.stages[0].afterStageWaitInSeconds", set: (d, v) => (d.strategy.stages[0].afterStageWaitInSeconds = v), over: [MAX_WAIT_SECONDS + 1, 10_000_000_000_000, 1e308], message: `must be at most ${MAX_WAIT_SECONDS} (365 days)`, atLimit: MAX_WAIT_SECONDS },
  { path: "start", set: (d, v) => (d.start = v), over: ["3000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1969-12-31T23:59:59Z", "0001-01-01T00:00:00Z"], message: INSTANT_RANGE },
  { path: "until", set: (d, v) => (d.until = v), over: ["3000-01-01T00:00:00Z", "9999-12-31T23:59:59+14:00"], message: INSTANT_RANGE },
  { path: "until", set: (d, v) => (d.until = v), over: ["2037-01-01T00:00:00Z"], message: `must be at most ${MAX_HORIZON_DAYS} days after start` },
  { path: "actions[0].at", set: (d, v) => (d.actions[0].at = v), over: ["9999-01-01T00:00:00Z"], message: INSTANT_RANGE },
  { path: "regions.westeurope.kubernetesVersions[1].availableAt", set: (d, v) => (d.regions.westeurope.kubernetesVersions[1].availableAt = v), over: ["9999-01-01T00:00:00Z"], message: INSTANT_RANGE },
  { path: "regions.westeurope.nodeImages[0].availableAt", set: (d, v) => (d.regions.westeurope.nodeImages[0].availableAt = v), over: ["0001-01-01T00:00:00Z"], message: INSTANT_RANGE },
  { path: `${member}.simulation.busyUntil`, set: (d, v) => (d.members[0].simulation.busyUntil = v), over: ["9999-01-01T00:00:00Z"], message: INSTANT_RANGE },
  { path: `${member}.simulation.upgradeMinutes`, set: (d, v) => (d.members[0].simulation.upgradeMinutes = v), over: [10_081, 1e308], message: "must be at most 10080 (a week)", atLimit: 10_080 },
  { path: `${member}.healthCheck.settleSeconds`, set: (d, v) => (d.members[0].healthCheck.settleSeconds = v), over: [86_401], message: "must be at most 86400", atLimit: 86_400 },
  { path: `${member}.healthCheck.intervalSeconds`, set: (d, v) => (d.members[0].healthCheck.intervalSeconds = v), over: [3_601], message: "must be at most 3600", atLimit: 3_600 },
  { path: `${window}.startDate`, set: (d, v) => (d.members[0].maintenanceConfigurations.aksManagedAutoUpgradeSchedule.maintenanceWindow.startDate = v), over: ["3000-01-01", "9999-12-31", "0001-01-01"], message: DATE_RANGE, atLimit: "2999-12-31" },
  { path: `${window}.notAllowedDates[0].end`, set: (d, v) => (d.members[0].maintenanceConfigurations.aksManagedAutoUpgradeSchedule.maintenanceWindow.notAllowedDates[0].end = v), over: ["9999-12-31"], message: DATE_RANGE },
];

describe("durations and instants have maxima (issue 19)", () => {
  for (const c of CASES) {
    it(`${c.path}: ${c.message}`, () => {
      for (const value of c.over) {
        const doc = scenario();
        c.set(doc, value);
        expect(issuesOf(doc), `${c.path} = ${String(value)}`).toContainEqual({ path: c.path, message: c.message });
      }
      if (c.atLimit !== undefined) {
        const doc = scenario();
        c.set(doc, c.atLimit);
        expect(issuesOf(doc).filter((i) => i.path === c.path)).toEqual([]);
      }
    });
  }

  it("a chained scenario's until, run start and actions are bounded too", () => {
    const { strategy, managedClusterUpdate, actions: _a, ...world } = scenario();
    const chain = { ...world, until: "9999-01-01T00:00:00Z", runs: [{ name: "r", start: "0001-01-01T00:00:00Z", strategy, managedClusterUpdate, actions: [{ at: "9999-01-01T00:00:00Z", stop: true }] }] };
    const issues = issuesOf(chain);
    for (const path of ["until", "runs[0].start", "runs[0].actions[0].at"]) expect(issues).toContainEqual({ path, message: INSTANT_RANGE });
    const far = { ...chain, until: "2037-01-01T00:00:00Z", runs: [{ ...chain.runs[0], start: undefined, actions: [] }] };
    expect(issuesOf(far)).toContainEqual({ path: "until", message: `must be at most ${MAX_HORIZON_DAYS} days after start` });
  });

  it("run inputs: timeoutMinutes, returnAfterMinutes, poll intervals, time scale", () => {
    const inputs = (extra: Record<string, unknown>, backend: Record<string, unknown> = { simulator: { fleetFile: "fleet.yaml" } }) =>
      checkRunInputs({ runName: "r", backend, members: [{ name: "a" }], managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } }, ...extra });
    const week = `must be at most ${MAX_CALL_MINUTES} (a week)`;
    const hour = `must be at most ${MAX_POLL_SECONDS} (an hour)`;
    expect(inputs({ timeoutMinutes: MAX_CALL_MINUTES + 1 })).toContainEqual({ path: "timeoutMinutes", message: week });
    expect(inputs({ returnAfterMinutes: 1e308 })).toContainEqual({ path: "returnAfterMinutes", message: week });
    expect(inputs({ timeoutMinutes: MAX_CALL_MINUTES, returnAfterMinutes: MAX_CALL_MINUTES })).toEqual([]);
    expect(inputs({}, { simulator: { fleetFile: "f", timeScale: 1e-300 } })).toContainEqual({ path: "backend.simulator.timeScale", message: "must be at least 0.001" });
    expect(inputs({}, { azure: { pollIntervalSeconds: { initial: 15, steady: 1e9 } } })).toContainEqual({ path: "backend.azure.pollIntervalSeconds.steady", message: hour });
    const fleetId = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/f";
    expect(inputs({}, { azureFleet: { fleetId, pollIntervalSeconds: 3_601 } })).toContainEqual({ path: "backend.azureFleet.pollIntervalSeconds", message: hour });
  });

  it("flags: --time-scale and --poll-seconds are named as typed", () => {
    const refused = (flags: Record<string, string>) => {
      try {
        backendFromFlags(flags, "/tmp");
        return [];
      } catch (e) {
        return (e as ValidationError).issues;
      }
    };
    expect(refused({ backend: "simulator:fleet.yaml", timeScale: "0.0000001" })).toEqual([{ path: "--time-scale", message: "must be at least 0.001" }]);
    const fleet = "azure-fleet:/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/f";
    expect(refused({ backend: fleet, pollSeconds: "86400" })).toEqual([{ path: "--poll-seconds", message: `must be at most ${MAX_POLL_SECONDS} (an hour)` }]);
  });
});

describe("the wait of issue 19 through the commands", () => {
  const dir = mkdtempSync(join(tmpdir(), "limits-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("simulate and plan refuse afterStageWaitInSeconds 10000000000000 with exit 2, not 'Invalid time value'", async () => {
    const doc = scenario();
    doc.strategy.stages[0].afterStageWaitInSeconds = 10_000_000_000_000;
    const file = join(dir, "wait.json");
    writeFileSync(file, JSON.stringify(doc));
    for (const command of [(io: any) => simulateCommand(file, { json: true }, io), (io: any) => planCommand(file, { json: true }, io, Date.parse("2026-12-05T00:00:00Z"))]) {
      let stderr = "";
      const code = await command({ stdout: () => {}, stderr: (t: string) => (stderr += t) });
      expect(code).toBe(2);
      expect(stderr).toBe(`${file}: strategy.stages[0].afterStageWaitInSeconds: must be at most ${MAX_WAIT_SECONDS} (365 days)\n`);
    }
  });
});

describe("plan's flags are bounded like the scenario", () => {
  it("--horizon-days and --upgrade-minutes", async () => {
    const run = async (options: Record<string, string>) => {
      let stderr = "";
      const code = await planCommand("/nowhere.yaml", options, { stdout: () => {}, stderr: (t) => (stderr += t) });
      return { code, stderr };
    };
    expect(await run({ horizonDays: "1e9" })).toEqual({ code: 2, stderr: `--horizon-days: must be at most ${MAX_HORIZON_DAYS} days, got '1e9'\n` });
    expect(await run({ upgradeMinutes: "10081" })).toEqual({ code: 2, stderr: "--upgrade-minutes: must be at most 10080 minutes, got '10081'\n" });
  });
});
