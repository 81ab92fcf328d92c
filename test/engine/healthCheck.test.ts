/**
 * Issue 5 health checks (docs/behaviour.md "Health checks"): after an upgrade reports success, the
 * cluster must report the target versions, images and a Succeeded provisioning state, and the member's
 * probe (if any) must answer 2xx after its settle time, with retries, before the member is Completed.
 */
import { describe, expect, it } from "vitest";
import { SimulatedFleet } from "../../src/backends/simulator";
import type { MemberRef, ProbeResult } from "../../src/engine/backend";
import { VirtualClock } from "../../src/engine/clock";
import { drive } from "../../src/engine/drive";
import { UpdateRunEngine } from "../../src/engine/engine";
import { clusterMismatch } from "../../src/engine/healthCheck";
import { parseScenario, resolveScenarioStrategy } from "../../src/simulation/scenario";
import { IMAGE, START, member, scenario, simulate } from "./helpers";
import { updateChoiceOf } from "../../src/model/autoUpgrade";

const T = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString().replace(/\.000Z$/, "Z");
const PROBE = "{url: 'https://a.example.test/healthz', settleSeconds: 120, retries: 2, intervalSeconds: 30}";

/** One member `a` with `check`, probed by an injected probe answering `answers` in turn ("throw": no answer); what `a` said before each probe. */
async function probedRun(check: string, answers: Array<boolean | "throw">) {
  const parsed = parseScenario(scenario({ members: [member("a", { healthCheck: check })] }));
  const clock = new VirtualClock(Date.parse(parsed.start));
  const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
  const said: Array<string | undefined> = [];
  const first = () => engine.status().stages[0]!.groups[0]!.members[0]!;
  const probe = async (_m: MemberRef, url: string): Promise<ProbeResult> => {
    said.push(first().message);
    const answer = answers[said.length - 1] ?? false;
    if (answer === "throw") throw new Error("connection reset");
    return { ok: answer, detail: `GET ${url} answered ${answer ? 200 : 503}` };
  };
  const engine = UpdateRunEngine.create({ name: "r", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed) }, fleet, { probe });
  engine.start(clock.now());
  await drive(engine, clock);
  return { member: first(), said };
}

describe("built-in checks: what the cluster reports", () => {
  it("simulation.healthy false: the upgrade succeeds, the check fails, the member is Failed saying which check", async () => {
    const o = await simulate(scenario({ members: [member("a", { healthy: false }), member("b")] }));
    expect(o.ops("a").map((op) => op.result)).toEqual(["Succeeded"]);
    expect(o.member("a").status).toMatchObject({ state: "Failed", completedTime: T(10), error: { code: "HealthCheckFailed" } });
    expect(o.member("a").message).toBe("Health check failed (cluster): the cluster's provisioning state is Failed, expected Succeeded.");
    // Fail-fast as for any failure: the run halts.
    expect(o.member("b").status.state).toBe("NotStarted");
    expect(o.run.state).toBe("Failed");
  });

  it("a health-check failure counts against maxAllowedFailures like any other", async () => {
    const o = await simulate(
      scenario({
        members: [member("a", { group: "g", healthy: false }), member("b", { group: "g" })],
        strategy: '{stages: [{name: s, groups: [{name: g, maxAllowedFailures: "1"}]}]}',
      }),
    );
    expect(o.member("b").status.state).toBe("Completed");
    expect(o.result.summary).toMatchObject({ state: "Completed", outcome: "CompletedWithFailures", failureCount: 1 });
  });

  it("compares the control plane, every pool's version and the requested images (at or past), and the provisioning state", () => {
    const pools = [
      { name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.NOV },
      { name: "user", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE.OCT },
    ];
    const cluster = { region: "westeurope", kubernetesVersion: "1.32.0", nodePools: pools, provisioningState: "Succeeded" };
    expect(clusterMismatch(cluster, { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0", nodeImageVersions: {} })).toBeUndefined();
    expect(clusterMismatch(cluster, { type: "Full", kubernetesVersion: "1.32.0", nodeImageVersions: {} })).toBe("node pool 'user' reports Kubernetes 1.31.2, expected 1.32.0");
    expect(clusterMismatch(cluster, { type: "ControlPlaneOnly", kubernetesVersion: "1.33.0", nodeImageVersions: {} })).toBe("the control plane reports Kubernetes 1.32.0, expected 1.33.0");
    expect(clusterMismatch(cluster, { type: "NodeImageOnly", nodeImageVersions: { system: IMAGE.OCT } })).toBeUndefined(); // past the image asked for
    expect(clusterMismatch(cluster, { type: "NodeImageOnly", nodeImageVersions: { user: IMAGE.NOV } })).toBe(`node pool 'user' reports image ${IMAGE.OCT}, expected ${IMAGE.NOV}`);
    expect(clusterMismatch({ ...cluster, provisioningState: "Failed" }, { type: "NodeImageOnly", nodeImageVersions: {} })).toBe("the cluster's provisioning state is Failed, expected Succeeded");
  });

  it("a pool the upgrade named that the cluster no longer has, or one on an image of another family (however new), does not pass", () => {
    const cluster = { region: "westeurope", kubernetesVersion: "1.32.0", nodePools: [{ name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.AZL_NOV }], provisioningState: "Succeeded" };
    expect(clusterMismatch(cluster, { type: "NodeImageOnly", nodeImageVersions: { gpu: IMAGE.NOV } })).toBe("node pool 'gpu' is missing");
    // AzureLinux 202611.20.0 is newer than Ubuntu's 202610.01.0, but it is not the image asked for.
    expect(clusterMismatch(cluster, { type: "NodeImageOnly", nodeImageVersions: { system: IMAGE.OCT } })).toBe(`node pool 'system' reports image ${IMAGE.AZL_NOV}, expected ${IMAGE.OCT}`);
    expect(clusterMismatch(cluster, { type: "NodeImageOnly", nodeImageVersions: { system: IMAGE.AZL_OCT } })).toBeUndefined();
  });
});

describe("the member's probe", () => {
  it("probes after the settle time; a healthy answer completes the member then, holding its slot until", async () => {
    const o = await simulate(scenario({ members: [member("a", { healthCheck: PROBE }), member("b")] }));
    expect(o.member("a").status).toMatchObject({ state: "Completed", completedTime: T(12) });
    // One at a time: b waited for a's verification, not only its upgrade.
    expect(o.opStarts("b")).toEqual([T(12)]);
  });

  it("with an injected probe: fails twice then answers 2xx → Completed at the third probe; always failing → Failed after retries + 1 probes", async () => {
    const run = async (answers: boolean[]) => {
      const parsed = parseScenario(scenario({ members: [member("a", { healthCheck: PROBE })] }));
      const clock = new VirtualClock(Date.parse(parsed.start));
      const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
      const probes: Array<{ at: string; member: string; url: string }> = [];
      const probe = async (m: MemberRef, url: string): Promise<ProbeResult> => {
        probes.push({ at: new Date(clock.now()).toISOString().replace(/\.000Z$/, "Z"), member: m.name, url });
        const ok = answers[probes.length - 1] ?? false;
        return { ok, detail: `GET ${url} answered ${ok ? 200 : 503}` };
      };
      const engine = UpdateRunEngine.create(
        { name: "r", members: parsed.members, strategy: resolveScenarioStrategy(parsed), ...updateChoiceOf(parsed) },
        fleet,
        { probe },
      );
      engine.start(clock.now());
      await drive(engine, clock);
      return { status: engine.status(), probes };
    };
    const recovering = await run([false, false, true]);
    expect(recovering.probes.map((p) => p.at)).toEqual([T(12), "2026-12-05T00:12:30Z", T(13)]);
    expect(recovering.probes[0]).toMatchObject({ member: "a", url: "https://a.example.test/healthz" });
    expect(recovering.status.stages[0]!.groups[0]!.members[0]!.status).toMatchObject({ state: "Completed", completedTime: T(13) });

    const failing = await run([]);
    expect(failing.probes).toHaveLength(3);
    const a = failing.status.stages[0]!.groups[0]!.members[0]!;
    expect(a.status).toMatchObject({ state: "Failed", completedTime: T(13), error: { code: "HealthCheckFailed" } });
    expect(a.message).toBe("Health check failed (probe): GET https://a.example.test/healthz answered 503, 3 attempts.");
  });

  it("a probe that could not be taken is an attempt too: the member says so before the next, and the failure counts it", async () => {
    const check = "{url: 'https://a.example.test/healthz', settleSeconds: 120, retries: 1, intervalSeconds: 30}";
    const { member: a, said } = await probedRun(check, ["throw", false, false]);
    // Before the second probe the member names the first one's error; it is retried, not counted as a failure.
    expect(said[1]).toBe("Probe 1 of 2 failed (https://a.example.test/healthz could not be measured: connection reset); trying again in 30 s.");
    expect(a.status).toMatchObject({ state: "Failed", completedTime: T(13), error: { code: "HealthCheckFailed" } });
    expect(a.message).toBe("Health check failed (probe): GET https://a.example.test/healthz answered 503, 3 attempts.");
  });

  it("with no retries, one failed probe fails the member: 1 attempt", async () => {
    const { member: a } = await probedRun("{url: 'https://a.example.test/healthz', settleSeconds: 0, retries: 0}", [false]);
    expect(a.status).toMatchObject({ state: "Failed", completedTime: T(10) });
    expect(a.message).toBe("Health check failed (probe): GET https://a.example.test/healthz answered 503, 1 attempt.");
  });

  it("simulation.healthy false makes the probe fail too (when the cluster checks pass, e.g. before any upgrade result)", async () => {
    const fleetText = scenario({ members: [member("a", { healthy: false })] });
    const parsed = parseScenario(fleetText);
    const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, new VirtualClock(Date.parse(parsed.start)));
    expect(await fleet.probe({ name: "a" }, "https://x.test/")).toEqual({ ok: false, detail: "GET https://x.test/ answered 503 (simulated: healthy is false)", status: 503 });
  });

  it("rejects a probe that is not an http(s) URL, with its path", () => {
    const yaml = scenario({ members: [member("a", { healthCheck: "{url: 'ftp://x.test/'}" })] });
    expect(() => parseScenario(yaml)).toThrow(/members\[0\]\.healthCheck\.url: must be an http or https URL/);
  });
});

describe("a start after a health-check failure (regression found by the property tests)", () => {
  it("checks the cluster again instead of calling it 'already at target': still Failed, not upgraded again", async () => {
    const o = await simulate(scenario({ members: [member("a", { healthy: false })], actions: ["{at: 2026-12-05T00:20:00Z, start: true}"] }));
    expect(o.ops("a")).toHaveLength(1);
    expect(o.member("a").status).toMatchObject({ state: "Failed", completedTime: T(20), error: { code: "HealthCheckFailed" } });
    // Running again and Failed again within one instant: the events coalesce to nothing new.
    expect(o.transitions("member", "a")).toEqual([`${START} NotStarted->Running`, `${T(10)} Running->Failed`]);
    expect(o.result.summary.outcome).toBe("Failed");
  });
});
