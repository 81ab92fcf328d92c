/**
 * Issue 31: `analysis` as an `UpdateRun` input (and a `fleet-update run` spec, which shares it): bad
 * input named by field path, on Fleet Manager only with a strategy (for the client's gates), a run's identity
 * that ignores header values (a rotated token steers the same run), never in the journal's inputs.
 */
import { describe, expect, it } from "vitest";
import { checkRunInputs, parseRunInputs } from "../../../src/drivers/runInputs";
import { runIdentity } from "../../../src/spec/identity";
import { journaledInputs } from "../../../src/drivers/engine/journal";
import { startArmEmulator } from "../../../src/emulator";
import { parseScenario } from "../../../src/simulation/scenario";
import https from "node:https";

const analysis = (value = "tok-1") => ({
  templates: [
    {
      name: "error-rate",
      provider: { prometheus: { address: "http://prometheus:9090", query: 'err{cluster="{{member.name}}"}', headers: [{ key: "Authorization", value: `Bearer ${value}` }] } },
      successCondition: "result < 0.05",
    },
  ],
  afterMember: ["error-rate"],
  stages: [{ name: "canary", soak: ["error-rate"] }],
});

const inputs = (extra: Record<string, unknown> = {}) => ({
  runName: "r",
  backend: { simulator: { fleetFile: "fleet.yaml" } },
  members: [{ name: "a", group: "canary" }],
  strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 600 }] },
  managedClusterUpdate: { upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.32.0" } },
  analysis: analysis(),
  ...extra,
});

describe("UpdateRun's analysis input", () => {
  it("is accepted whole, and its problems are named by field path", () => {
    expect(checkRunInputs(inputs())).toEqual([]);
    const bad = analysis();
    bad.templates[0]!.successCondition = "result << 1";
    bad.stages[0]!.name = "canry";
    bad.afterMember = ["nope"];
    expect(checkRunInputs(inputs({ analysis: bad })).map((i) => `${i.path}: ${i.message}`)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^analysis\.templates\[0\]\.successCondition: 'result << 1' is not a comparison/),
        "analysis.afterMember[0]: no template named 'nope' (templates: error-rate)",
      ]),
    );
    expect(checkRunInputs(inputs({ analysis: { ...analysis(), stages: [{ name: "canry", soak: ["error-rate"] }] } }))).toEqual([
      { path: "analysis.stages[0].name", message: "no stage named 'canry' in the run's strategy (its stages: canary)" },
    ]);
  });

  it("is taken on Fleet Manager, measured at the gates the client adds to the run's strategy: without one it is refused, naming the field", () => {
    const fleetId = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/f";
    expect(checkRunInputs(inputs({ backend: { azureFleet: { fleetId } }, members: [] }))).toEqual([]);
    const issues = checkRunInputs(inputs({ backend: { azureFleet: { fleetId } }, members: [], strategy: undefined, analysis: { ...analysis(), stages: undefined } }));
    expect(issues.find((i) => i.path === "analysis")?.message).toMatch(/approval gates the client adds to the run's strategy/);
  });

  it("is part of the run's identity, its headers' values aside; the journal keeps none of it", () => {
    const one = runIdentity(parseRunInputs(inputs()) as unknown as Record<string, unknown>);
    const rotated = runIdentity(parseRunInputs(inputs({ analysis: analysis("tok-2") })) as unknown as Record<string, unknown>);
    const otherThreshold = analysis();
    otherThreshold.templates[0]!.successCondition = "result < 0.1";
    const changed = runIdentity(parseRunInputs(inputs({ analysis: otherThreshold })) as unknown as Record<string, unknown>);
    expect(rotated).toBe(one);
    expect(changed).not.toBe(one);
    const kept = JSON.stringify(journaledInputs(parseRunInputs(inputs())));
    expect(kept).not.toContain("tok-1");
    expect(kept).not.toContain("analysis");
  });
});

describe("the emulator's /metrics", () => {
  it("serves the simulated clusters' metrics in Prometheus' text format (a cluster without metrics has none)", async () => {
    const scenario = parseScenario(`start: 2026-12-05T00:00:00Z
regions: {westeurope: {kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}], nodeImages: [{version: AKSUbuntu-2204gen2containerd-202610.01.0}]}}
members:
  - {name: c1, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}], simulation: {metrics: [{name: cluster_error_rate, labels: {tier: web}, value: 0.01, afterUpgrade: 0.31}]}}
  - {name: c2, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: AKSUbuntu-2204gen2containerd-202610.01.0}]}
managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}
`);
    const emulator = await startArmEmulator({ fleet: { regions: scenario.regions, members: scenario.members }, msPerSimulatedMinute: 60_000, throttling: false });
    try {
      // The emulator's certificate is self-signed: trusted here as a client would.
      const text = await new Promise<string>((resolve, reject) => {
        https
          .get(`${emulator.url}/metrics`, { ca: emulator.certificatePem }, (res) => {
            let body = "";
            res.on("data", (c: Buffer) => (body += c.toString("utf8")));
            res.on("end", () => resolve(`${res.statusCode} ${res.headers["content-type"]}\n${body}`));
          })
          .on("error", reject);
      });
      expect(text).toBe(
        "200 text/plain; version=0.0.4; charset=utf-8\n# HELP cluster_error_rate Simulated by fleet-update (the fleet file's simulation.metrics).\n# TYPE cluster_error_rate gauge\ncluster_error_rate{cluster=\"c1\",tier=\"web\"} 0.01\n",
      );
    } finally {
      await emulator.close();
    }
  });
});
