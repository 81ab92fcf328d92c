/**
 * The Azure CLI fleet extension's recorded `test_fleet_hubless` (live Fleet Manager traffic at
 * api-version 2025-04-01-preview; `test/fixtures/recordings/fleet/`) replayed against the emulator's
 * Fleet Manager by the conformance harness (`support/`): every Fleet interaction compared — HTTP status,
 * long-running-operation headers and the operation's end, property paths both ways, enum values. The
 * interactions the emulator cannot serve are skipped with their reason (asserted here), and each
 * difference left is listed with its reason (docs/emulator-conformance.md).
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FleetSchema } from "../../src/model/fleet";
import { startArmEmulator, type ArmEmulator } from "../../src/emulator";
import { explain, filesNotAsSourced, formatReport, readCassette, replay, type InteractionReport, type KnownDifference, type RecordedInteraction } from "./support";

const DIR = path.join(__dirname, "../fixtures/recordings/fleet");
const CASSETTE = path.join(DIR, "test_fleet_hubless.yaml");

const SUBSCRIPTION = "00000000-0000-0000-0000-000000000001";
const RESOURCE_GROUP = "rg-conformance";
const CLUSTER = "member-1";

/** The recording's names → the emulator's. */
const NAMES = (url: string) =>
  [
    ["https://management.azure.com", url],
    ["00000000-0000-0000-0000-000000000000", SUBSCRIPTION],
    ["cli-000001", RESOURCE_GROUP],
    ["fl-000002", "fleet-1"],
    ["flmc-000003", CLUSTER],
    ["uprn-000004", "run-1"],
    ["upstr-000005", "strategy-1"],
    ["aup-000006", "profile-rapid"],
    ["aup-000007", "profile-target"],
  ] as const;

/** The recording's cluster (westus, 1.32.6), in a region offering what the recording's runs and channels pick. */
function world() {
  const image = "AKSUbuntu-2204gen2arm64containerd-202508.06.0";
  return FleetSchema.parse({
    regions: { westus: { kubernetesVersions: [{ version: "1.30.14" }, { version: "1.32.6" }, { version: "1.33.0" }, { version: "1.33.2" }], nodeImages: [{ version: image }] } },
    members: [{ name: CLUSTER, region: "westus", kubernetesVersion: "1.32.6", nodePools: [{ name: "nodepool1", orchestratorVersion: "1.32.6", nodeImageVersion: image }] }],
  });
}

const isAks = (x: RecordedInteraction) => /\/providers\/Microsoft\.ContainerService\/managedClusters\//i.test(x.uri);
const isAksOperation = (x: RecordedInteraction) => /[?&]api-version=2025-07-01/.test(x.uri) && /\/operations\//i.test(x.uri);

/** What the emulator does not serve here, and why. */
function skip(x: RecordedInteraction): string | undefined {
  if (/\/resourcegroups\/[^/]+\?/i.test(x.uri)) return "resource group (Microsoft.Resources): the emulator serves no resource groups; any group name is accepted";
  if (isAks(x) && x.method === "PUT") return "cluster creation (az aks create): the emulator's clusters are declared (its fleet file), not created";
  if (isAksOperation(x)) return "polls of the cluster creation's operation";
  if (isAks(x)) return "AKS managed cluster read, for the CLI's own checks: AKS bodies are compared against AKS's recordings (docs/emulator-conformance.md, AKS)";
  return undefined;
}

/** Differences left, each with why (docs/emulator-conformance.md, Fleet). Everything else the recording shows, the emulator answers. */
const KNOWN: KnownDifference[] = [
  {
    interactions: [12],
    kind: "recordedOnly",
    at: /^value\[[1-5]\]$/,
    reason: "the recording's subscription holds five other fleets (other resource groups, hub profiles, identities): the emulator has only the fleets made or declared in it",
  },
  {
    interactions: [12],
    kind: "emulatorOnly",
    at: "value[0].tags",
    reason: "the recorded list starts with another fleet (no tags); the emulator's first is the test's fleet, with its tags",
  },
];

/** Interactions not replayed, each with its reason (asserted: none is dropped silently). */
const SKIPPED: Record<number, string> = {
  0: "resource group",
  13: "AKS managed cluster read",
  14: "resource group",
  15: "cluster creation",
  28: "AKS managed cluster read",
  35: "AKS managed cluster read",
  36: "AKS managed cluster read",
  45: "AKS managed cluster read",
};

let emulator: ArmEmulator;
let reports: InteractionReport[];

beforeAll(async () => {
  emulator = await startArmEmulator({ fleet: world(), fleets: [], msPerSimulatedMinute: 60, throttling: false, startAt: "2025-09-01T05:52:00Z" });
  reports = await replay({ interactions: readCassette(CASSETTE), names: NAMES(emulator.url), url: emulator.url, ca: emulator.certificatePem, skip });
}, 120_000);
afterAll(async () => {
  await emulator?.close();
});

describe("test_fleet_hubless (Fleet Manager, 2025-04-01-preview) replayed against the emulator", () => {
  test("the fixture is the recording SOURCES.md names (sha256)", () => {
    expect(filesNotAsSourced(DIR, ["test_fleet_hubless.yaml", "test_fleet_hubless_scenario.py", "stages.json"])).toEqual([]);
  });

  test("every interaction is compared, polled as part of the one that started its operation, or skipped with its reason", () => {
    expect(reports).toHaveLength(76);
    const skipped = Object.fromEntries(reports.filter((r) => r.outcome === "skipped").map((r) => [r.index, r.reason as string]));
    expect(Object.keys(skipped).map(Number)).toEqual(Object.keys(SKIPPED).map(Number));
    for (const [index, reason] of Object.entries(SKIPPED)) expect(skipped[Number(index)], `#${index}`).toContain(reason);
    // Every Fleet interaction (fleets, members, strategies, runs, gates, profiles) is compared or polled.
    const fleet = reports.filter((r) => /\/fleets(\/|\?)/.test(r.path) || r.polledBy !== undefined && !SKIPPED[r.polledBy]);
    expect(fleet.every((r) => r.outcome !== "skipped")).toBe(true);
    expect(reports.filter((r) => r.outcome === "compared")).toHaveLength(45);
    // The polls of the cluster creation belong to it (skipped); those of Fleet's own operations are compared through it.
    expect(reports.filter((r) => r.outcome === "polled").map((r) => r.polledBy)).toEqual([1, 7, ...Array(12).fill(15), 29, 29, 38, 38, 69, 69, 69, 73, 73]);
  });

  test("every difference is one docs/emulator-conformance.md lists, with its reason, and each listed one still occurs", () => {
    const { unexplained, unused } = explain(reports, KNOWN);
    const unexplainedReport = formatReport(
      reports.filter((r) => unexplained.some((d) => d.interaction === r.index)),
      (d) => unexplained.includes(d),
    );
    expect(unexplained, `differences no expectation explains:\n${unexplainedReport}`).toEqual([]);
    expect(unused.map((k) => `${k.interactions.join(",")} ${k.kind} ${String(k.at)}`), "expected differences that no longer occur (the emulator was fixed: drop them)").toEqual([]);
  });

  // Points of issue 29 the recording shows, each as its own assertion (they are also in the report above).
  test("what Fleet answered, point by point", () => {
    const at = (i: number) => reports[i] as InteractionReport;
    // 1. A strategy group no member belongs to: the run is created (201), and Skipped only later.
    expect([at(46).emulatorStatus, at(52).emulatorStatus]).toEqual([201, 201]);
    // 2. Member labels at 2025-04-01-preview: 201, then read back (#32) with Fleet's five system labels.
    expect(at(29).emulatorStatus).toBe(201);
    // 3. Auto-upgrade profiles with longTermSupport / TargetKubernetesVersion, and generateUpdateRun: 201, 201, 200.
    expect([at(61).emulatorStatus, at(62).emulatorStatus, at(66).emulatorStatus]).toEqual([201, 201, 200]);
    // 5. DELETE of a run that has started (its stage's before-gate approved, #59): 200.
    expect(at(60).emulatorStatus).toBe(200);
    // 6. Member PUT and DELETE are long-running: 201 / 202, with their operations followed to Succeeded.
    expect([at(29).emulatorStatus, at(69).emulatorStatus]).toEqual([201, 202]);
    // 8. Profile DELETE: 204.
    expect(at(67).emulatorStatus).toBe(204);
    for (const i of [29, 32, 38, 46, 47, 52, 53, 54, 56, 58, 59, 60, 61, 62, 66, 67, 69, 73]) expect(at(i).differences, `#${i}`).toEqual([]);
  });

  test("the values behind the paths: system labels, Joining then Succeeded, a gate's target, the generated run's name", () => {
    const body = (i: number) => (reports[i] as InteractionReport).emulatorBody as any;
    expect(body(29).properties.provisioningState).toBe("Joining");
    expect(body(32).properties.provisioningState).toBe("Succeeded");
    expect(body(32).properties.labels).toEqual({
      team: "fleet",
      "fleet.azure.com/cluster-name": CLUSTER,
      "fleet.azure.com/location": "westus",
      "fleet.azure.com/member-name": CLUSTER,
      "fleet.azure.com/resource-group": RESOURCE_GROUP,
      "fleet.azure.com/subscription-id": SUBSCRIPTION,
    });
    expect(body(69).properties.provisioningState).toBe("Leaving");
    // The run skipped group2 (#47): the empty group1 waits NotStarted, as on Fleet.
    expect(body(47).properties.status.stages[0].groups.map((g: any) => [g.name, g.status.state, "members" in g])).toEqual([
      ["group1", "NotStarted", false],
      ["group2", "Skipped", true],
    ]);
    expect(body(58).properties.target).toEqual({ id: expect.stringMatching(/\/updateRuns\/run-1$/), updateRunProperties: { name: "run-1", stage: "stage1", timing: "Before" } });
    expect(body(59).properties.state).toBe("Completed");
    expect(body(66).id).toMatch(/\/updateRuns\/auto-profile-rapid-rapid-1-33-2-[0-9a-z]{7}$/);
  });
});
