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
import { describeDifference, explain, filesNotAsSourced, readCassette, replay, type InteractionReport, type KnownDifference } from "./support";

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

/** AKS Long Term Support, which the emulator does not model: the support plans a minor offers and LTS patches' upgrades across several minors. */
const LTS_REASON =
  "AKS Long Term Support is not modelled: minors offer AKSLongTermSupport beside KubernetesOfficial, and LTS patches (1.27.10x, 1.28.10x, 1.29.x) upgrade across several minors; the emulator offers KubernetesOfficial only, each patch upgrading at most one minor ahead";

/** The replayed interactions' differences of one kind, by interaction. */
function differencesOf(reports: InteractionReport[], kinds: readonly string[]): string[] {
  return reports.flatMap((r) => r.differences.filter((d) => kinds.includes(d.kind)).map((d) => `#${d.interaction} ${describeDifference(d)}`));
}

describe("AKS recordings replayed against the ARM emulator", () => {
  test("the fixtures are the recordings SOURCES.md names (sha256)", () => {
    expect(filesNotAsSourced(AKS_RECORDINGS, Object.values(RECORDINGS).map((r) => r.file))).toEqual([]);
  });

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
      { interactions: [17], kind: "recordedOnly", at: "value[0]", reason: writesSkipped },
      { interactions: [19], kind: "status", at: "", reason: writesSkipped },
      { interactions: [19], kind: "recordedOnly", at: /^(id|name|properties)$/, reason: writesSkipped },
      { interactions: [19], kind: "emulatorOnly", at: "error", reason: writesSkipped },
    ]);
  }, 120_000);

  test("a node pool stopped and started through powerState.code: 200 Stopping (already Stopped) then Succeeded; 200 Starting then Succeeded; Azure-AsyncOperation only", async () => {
    const reports = await replayRecording("nodePoolStopStart");
    // #13 reads the list's (empty) second page: no pool body to differ in.
    const at = answering(reports);
    at.pools = at.pools.filter((i) => i !== 13);
    const addedLater = "the recording adds pool c000003 after this read (its creation is skipped); the emulator's cluster has it from the start";
    expectExplained(reports, [
      ...unmodelled(at),
      { interactions: [11], kind: "emulatorOnly", at: "properties.agentPoolProfiles[1]", reason: addedLater },
      { interactions: [12], kind: "emulatorOnly", at: "value[1]", reason: addedLater },
      {
        interactions: [12, 21, 28],
        kind: "recordedOnly",
        at: "nextLink",
        reason: "AKS pages the pool list (a nextLink with a skipToken, then an empty page); the emulator answers every pool on one page",
      },
      { interactions: [13], kind: "emulatorOnly", at: /^value\[\d\]$/, reason: "the recording's second page (its skipToken) is empty; the emulator ignores the skipToken and answers the whole list again" },
    ]);
    // The stop (#23) and the start (#30): status, header, enum and operation all as AKS answered.
    for (const [index, state, power] of [[23, "Stopping", "Stopped"], [30, "Starting", "Running"]] as const) {
      const put = reports[index];
      expect([put?.method, put?.recordedStatus, put?.emulatorStatus]).toEqual(["PUT", 200, 200]);
      expect(put?.emulatorBody).toMatchObject({ properties: { provisioningState: state, powerState: { code: power } } });
    }
    expect(differencesOf(reports, ["status", "header", "enum", "operation"])).toEqual([]);
    // Read after each operation ended: Succeeded, and the pool's power as asked.
    expect(reports[27]?.emulatorBody).toMatchObject({ properties: { provisioningState: "Succeeded", powerState: { code: "Stopped" }, count: 0 } });
    expect(reports[35]?.emulatorBody).toMatchObject({ properties: { provisioningState: "Succeeded", powerState: { code: "Running" } } });
  }, 180_000);

  test("a version upgrade through az aks upgrade (2025): the PUT answers 200 Upgrading with the target already current on cluster and pool, Azure-AsyncOperation only, polled to Succeeded", async () => {
    const reports = await replayRecording("versionUpgrade2025");
    const at = answering(reports);
    expectExplained(reports, [
      ...unmodelled(at),
      { interactions: [0, 1], kind: "recordedOnly", at: /capabilities\.supportPlan\[1\]$|patchVersions\["1\.(27|28|29)\.\d+"\]\.upgrades\[\d+\]$/, reason: LTS_REASON },
    ]);
    expect(differencesOf(reports, ["status", "header", "enum", "operation"])).toEqual([]);
    // The kubernetesVersions list as AKS ordered it: newest minor first, 1.33 a preview, 1.31 the default.
    const versions = (reports[0]?.emulatorBody as { values: Array<{ version: string; isPreview?: boolean; isDefault?: boolean }> }).values;
    expect(versions.map((v) => v.version)).toEqual(["1.33", "1.32", "1.31", "1.30", "1.29", "1.28", "1.27"]);
    expect(versions.filter((v) => v.isPreview === true).map((v) => v.version)).toEqual(["1.33"]);
    expect(versions.filter((v) => v.isDefault === true).map((v) => v.version)).toEqual(["1.31"]);
    // The upgrade PUT (#18): Upgrading, the target already current on the control plane and the pool.
    expect(reports[18]?.emulatorBody).toMatchObject({
      properties: {
        provisioningState: "Upgrading",
        kubernetesVersion: "1.33.0",
        currentKubernetesVersion: "1.33.0",
        agentPoolProfiles: [{ provisioningState: "Upgrading", orchestratorVersion: "1.33.0", currentOrchestratorVersion: "1.33.0" }],
      },
    });
    expect(reports[51]?.emulatorBody).toMatchObject({ properties: { provisioningState: "Succeeded", currentKubernetesVersion: "1.33.0" } });
  }, 180_000);
});
