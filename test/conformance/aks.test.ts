/**
 * Issue 29: the ARM emulator against recorded AKS traffic (docs/emulator-conformance.md, "AKS"). Each
 * cassette of test/fixtures/recordings/aks is replayed (names as recorded, only the host rewritten;
 * bodies verbatim) against an emulator serving the recorded clusters; per interaction the status, the
 * LRO headers and the operation's final state, the property paths both ways and the enum values are
 * compared. Every difference is either gone (the emulator answers as AKS did) or listed below with its
 * reason; an expectation nothing matches any more fails too, so a fixed difference leaves the list.
 */
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { AKS_RECORDINGS, RECORDINGS, skipReason, unmodelled, type Answering } from "./aksRecordings";
import { describeDifference, explain, readCassette, replay, type InteractionReport, type KnownDifference } from "./support";

let emulator: ArmEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function replayRecording(name: keyof typeof RECORDINGS): Promise<InteractionReport[]> {
  const { file, fleet } = RECORDINGS[name] as (typeof RECORDINGS)[string];
  emulator = await startArmEmulator({ fleet, msPerSimulatedMinute: 20, throttling: false, startAt: "2026-12-05T00:00:00Z" });
  const interactions = readCassette(path.join(AKS_RECORDINGS, file));
  return replay({
    interactions,
    names: [["https://management.azure.com", emulator.url]],
    url: emulator.url,
    ca: emulator.certificatePem,
    skip: skipReason,
    followOperations: "asRecorded",
    pollTimeoutMs: 60_000,
  });
}

function expectExplained(reports: InteractionReport[], known: KnownDifference[]): void {
  const { unexplained, unused } = explain(reports, known);
  expect(unexplained.map((d) => `#${d.interaction} ${describeDifference(d)}`)).toEqual([]);
  expect(unused.map((k) => `${k.interactions.join(",")} ${k.kind} ${String(k.at)}`)).toEqual([]);
}

/** The compared interactions answering a cluster, and those answering a pool. */
function answering(reports: InteractionReport[]): Answering {
  const compared = reports.filter((r) => r.outcome === "compared" && r.emulatorStatus !== undefined && r.emulatorStatus < 300 && r.method !== "DELETE");
  return {
    clusters: compared.filter((r) => /\/managedClusters\/[^/]+\?/i.test(r.path)).map((r) => r.index),
    pools: compared.filter((r) => /\/agentPools(\/[^/]+(\/upgradeNodeImageVersion)?)?\?/i.test(r.path)).map((r) => r.index),
  };
}

describe("AKS recordings replayed against the ARM emulator", () => {
  test("node image upgrade of a cluster: 202 with both LRO headers, the cluster Succeeded while its pool is UpgradingNodeImageVersion", async () => {
    const reports = await replayRecording("nodeImageCluster");
    expect(reports.map((r) => r.outcome).filter((o) => o === "skipped")).toHaveLength(2);
    expectExplained(reports, [...unmodelled(answering(reports), { recordedBefore2023: true })]);
  }, 120_000);

  test("node image upgrade of a pool: 202 with both LRO headers, the pool read UpgradingNodeImageVersion", async () => {
    const reports = await replayRecording("nodeImagePool");
    expectExplained(reports, [...unmodelled(answering(reports), { recordedBefore2023: true })]);
  }, 120_000);

  test("a version upgrade: the PUT answers 200 Upgrading with the target already current and Azure-AsyncOperation only; polled to Succeeded", async () => {
    const reports = await replayRecording("versionUpgrade");
    const at = answering(reports);
    expectExplained(reports, [
      ...unmodelled(at, { recordedBefore2023: true }),
      {
        interactions: [...at.clusters, ...at.pools].sort((a, b) => a - b),
        kind: "emulatorOnly",
        at: /(^properties|agentPoolProfiles\[\d+\]|value\[\d+\]\.properties)\.currentOrchestratorVersion$/,
        reason: "AKS did not answer a pool's currentOrchestratorVersion at api-version 2022-02-01 (March 2022); the October 2022 recordings have it",
      },
      {
        interactions: [10, 27, 28, 39, 40, 69],
        kind: "emulatorOnly",
        at: /(agentPoolProfiles\[\d+\]|value\[\d+\]\.properties)\.upgradeSettings$/,
        reason: "pool c000004 was created (by an older CLI) without upgradeSettings, and AKS then showed none; the emulator shows {} as AKS does for c000005 and in the later recordings",
      },
      { interactions: [27], kind: "emulatorOnly", at: "properties.agentPoolProfiles[1]", reason: "the recording adds pool c000005 after this read (its creation is skipped); the emulator's cluster has it from the start" },
      { interactions: [28], kind: "emulatorOnly", at: "value[1]", reason: "the recording adds pool c000005 after this read (its creation is skipped); the emulator's cluster has it from the start" },
    ]);
    // The upgrade PUT (#40): 200, Upgrading, the target already current, Azure-AsyncOperation only — no difference in status, headers or enums.
    const put = reports[40];
    expect([put?.method, put?.recordedStatus, put?.emulatorStatus]).toEqual(["PUT", 200, 200]);
    expect(put?.differences.filter((d) => d.kind === "status" || d.kind === "header" || d.kind === "enum" || d.kind === "operation")).toEqual([]);
  }, 180_000);

  test("maintenance configurations: listed and read", async () => {
    const reports = await replayRecording("maintenance");
    const at = answering(reports);
    const writesSkipped = "the recording writes the configuration (PUT, then DELETE), which the emulator serves read-only from its fleet file; its reads then differ";
    expectExplained(reports, [
      ...unmodelled(at),
      {
        interactions: at.clusters,
        kind: "emulatorOnly",
        at: /(^|\.)eTag$/,
        reason: "AKS answers eTag (cluster and pool) from api-version 2023-08-01 on; this body was recorded in July 2023. The emulator keeps it: our ARM backend writes with If-Match",
      },
      { interactions: [17], kind: "recordedOnly", at: "value[0]", reason: writesSkipped },
      { interactions: [19], kind: "status", at: "", reason: writesSkipped },
      { interactions: [19], kind: "recordedOnly", at: /^(id|name|properties)$/, reason: writesSkipped },
      { interactions: [19], kind: "emulatorOnly", at: "error", reason: writesSkipped },
    ]);
  }, 120_000);
});
