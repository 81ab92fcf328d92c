/**
 * Issue 31 on Fleet Manager: a five-cluster fleet rolled out in three stages (`canary`: aks-1; `early`:
 * aks-2, aks-3; `broad`: aks-4, aks-5), each stage soaking ten minutes under an error-rate analysis.
 * Every cluster exports `cluster_error_rate` (0.01); the `sick` ones' rises to 0.31 once upgraded. The
 * emulator serves it as Fleet Manager, on a clock that jumps over idle time; the simulated fleet's
 * metrics answer the queries (at an instant too, as Prometheus does from its samples).
 */
import { FleetSchema, type Fleet } from "../../../src/model/fleet";
import type { MeasurePorts } from "../../../src/engine/analysis";
import type { ArmEmulator } from "../../../src/emulator";
import { type UpdateRunInputs } from "../../../src/spec/runSpec";
import { parseRunInputs } from "../../../src/drivers/runInputs";
import { IMAGE_NOV, IMAGE_OCT } from "../../emulator/helpers";
import { startFleetEmulator } from "../../emulator/fleetHelpers";
import { fleetBackend } from "../../backends/azureFleet/support";

export const CLUSTERS = ["aks-1", "aks-2", "aks-3", "aks-4", "aks-5"] as const;
const GROUP_OF: Record<string, string> = { "aks-1": "canary", "aks-2": "early", "aks-3": "early", "aks-4": "broad", "aks-5": "broad" };

export const ERROR_RATE = 'cluster_error_rate{cluster="{{member.name}}"}';
export const SOAK_SECONDS = 600;

export function analysisFleet(sick: readonly string[] = [], upgradeMinutes = 5): Fleet {
  return FleetSchema.parse({
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: IMAGE_OCT }, { version: IMAGE_NOV }] } },
    members: CLUSTERS.map((name) => ({
      name,
      group: GROUP_OF[name],
      region: "westeurope",
      kubernetesVersion: "1.31.2",
      nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OCT }],
      simulation: { upgradeMinutes, metrics: [{ name: "cluster_error_rate", value: 0.01, ...(sick.includes(name) ? { afterUpgrade: 0.31 } : {}) }] },
    })),
  });
}

export const THREE_STAGES = {
  stages: [
    { name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: SOAK_SECONDS },
    { name: "early", groups: [{ name: "early" }], afterStageWaitInSeconds: SOAK_SECONDS },
    { name: "broad", groups: [{ name: "broad" }], afterStageWaitInSeconds: SOAK_SECONDS },
  ],
};

/** The error-rate template, soaked through every stage's wait (a measurement a minute). */
export function soakAnalysis(address = "http://prometheus.invalid:9090", interval = "1m"): Record<string, unknown> {
  return {
    templates: [{ name: "error-rate", provider: { prometheus: { address, query: ERROR_RATE } }, interval, successCondition: "result < 0.05" }],
    stages: THREE_STAGES.stages.map((s) => ({ name: s.name, soak: ["error-rate"] })),
  };
}

export async function startAnalysisEmulator(sick: readonly string[] = [], options: { msPerSimulatedMinute?: number; compressIdleTime?: boolean } = {}): Promise<ArmEmulator> {
  return startFleetEmulator({ fleet: analysisFleet(sick), msPerSimulatedMinute: options.msPerSimulatedMinute ?? 100, startAt: "2026-12-05T00:00:00Z", compressIdleTime: options.compressIdleTime ?? true });
}

export function analysisRunInputs(emulator: ArmEmulator, runName: string, extra: Record<string, unknown> = {}): UpdateRunInputs {
  return parseRunInputs({
    runName,
    backend: fleetBackend(emulator, 60),
    members: [],
    strategy: THREE_STAGES,
    analysis: soakAnalysis(),
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } },
    timeoutMinutes: 24 * 60,
    ...extra,
  });
}

/** The simulated fleet's metrics and probes, as the client's measuring ports (no server). */
export function simulatedPorts(emulator: ArmEmulator): MeasurePorts {
  return { probe: (member, url) => emulator.fleet.probe(member ?? { name: "" }, url), queryMetric: (query) => emulator.fleet.queryMetricNow(query) };
}

/** Successful PATCHes of each gate resource, by resource name. */
export function gateApprovals(emulator: ArmEmulator): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of emulator.requests) {
    const m = /\/gates\/([0-9a-f-]{36})$/.exec(r.path.split("?")[0] ?? "");
    if (r.method === "PATCH" && m !== null && r.status >= 200 && r.status < 300) out.set(m[1] as string, (out.get(m[1] as string) ?? 0) + 1);
  }
  return out;
}
