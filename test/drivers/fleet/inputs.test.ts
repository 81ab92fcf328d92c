/**
 * Issue 12: `backend.azureFleet` inputs — the fleet id, the run name Fleet can take, and our features
 * Fleet Manager lacks refused at Check with the field named; and the fleet's members checked against
 * the program (not in the fleet, another group, unlisted members the run would update).
 */
import { describe, expect, it } from "vitest";
import { checkRunInputs } from "../../../src/drivers/runInputs";
import { checkMembersAgainstFleet } from "../../../src/drivers/fleet/members";
import { parseFleetId } from "../../../src/backends/azureFleet/fleetId";

const FLEET_ID = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.ContainerService/fleets/prod-fleet";
const CLUSTER = (n: string) => `/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/${n}`;
const FULL = { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } };

function inputs(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { runName: "k8s-1-32", backend: { azureFleet: { fleetId: FLEET_ID } }, members: [], managedClusterUpdate: FULL, ...extra };
}

const paths = (raw: Record<string, unknown>) => checkRunInputs(raw).map((i) => i.path);

describe("backend.azureFleet: shape", () => {
  it("accepts a fleet id and no members (the fleet's are used)", () => {
    expect(checkRunInputs(inputs({ strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }] }] } }))).toEqual([]);
  });

  it("names a malformed fleet id", () => {
    const issues = checkRunInputs(inputs({ backend: { azureFleet: { fleetId: "/subscriptions/x/fleets/y" } } }));
    expect(issues.map((i) => i.path)).toEqual(["backend.azureFleet.fleetId"]);
    expect(issues[0]?.message).toMatch(/ARM fleet id/);
  });

  it("refuses two backends at once and emulator credentials off loopback", () => {
    expect(paths(inputs({ backend: { azureFleet: { fleetId: FLEET_ID }, azure: {} } }))).toEqual(["backend"]);
    expect(paths(inputs({ backend: { azureFleet: { fleetId: FLEET_ID, credential: "emulator", endpoint: "https://management.azure.com" } } }))).toEqual(["backend.azureFleet.credential"]);
  });

  it("the run name must be a Fleet child resource name", () => {
    const issues = checkRunInputs(inputs({ runName: "K8s_Upgrade" }));
    expect(issues.map((i) => i.path)).toEqual(["runName"]);
    expect(checkRunInputs(inputs({ runName: "a".repeat(51) })).map((i) => i.path)).toEqual(["runName"]);
  });

  it("parses the fleet id", () => {
    expect(parseFleetId(FLEET_ID)).toEqual({ subscriptionId: "00000000-0000-0000-0000-000000000001", resourceGroup: "rg", fleetName: "prod-fleet" });
  });
});

describe("features Fleet Manager lacks at the api-version in use are refused, naming the field and the version that has it", () => {
  const strategy = {
    stages: [
      { name: "canary", maxConcurrency: "2", maxAllowedFailures: "1", beforeGates: [{ type: "Approval" }], afterGates: [{ type: "Approval" }], groups: [{ name: "canary", maxConcurrency: "50%", maxAllowedFailures: "10%", beforeGates: [{ type: "Approval" }], afterGates: [{ type: "Approval" }] }] },
    ],
  };
  const at = (apiVersion?: string) => inputs({ strategy, backend: { azureFleet: { fleetId: FLEET_ID, ...(apiVersion === undefined ? {} : { apiVersion }) } } });

  it("at 2026-06-01 (the default): maxConcurrency and gates are Fleet's; maxAllowedFailures is refused, naming 2026-06-02-preview", () => {
    for (const raw of [at(), at("2026-06-01")]) {
      const got = checkRunInputs(raw);
      expect(got.map((i) => i.path)).toEqual(["strategy.stages[0].maxAllowedFailures", "strategy.stages[0].groups[0].maxAllowedFailures"]);
      expect(got[0]?.message).toBe("Fleet Manager takes maxAllowedFailures from api-version 2026-06-02-preview (backend.azureFleet.apiVersion is 2026-06-01)");
    }
  });

  it("at 2026-06-02-preview: both limits are Fleet's", () => {
    expect(checkRunInputs(at("2026-06-02-preview"))).toEqual([]);
  });

  it("at 2025-04-01-preview (legacy): both limits are refused, each naming the first version with it", () => {
    const got = checkRunInputs(at("2025-04-01-preview"));
    expect(got.map((i) => `${i.path}: ${i.message}`)).toEqual([
      "strategy.stages[0].maxConcurrency: Fleet Manager takes maxConcurrency from api-version 2026-06-01 (backend.azureFleet.apiVersion is 2025-04-01-preview)",
      "strategy.stages[0].maxAllowedFailures: Fleet Manager takes maxAllowedFailures from api-version 2026-06-02-preview (backend.azureFleet.apiVersion is 2025-04-01-preview)",
      "strategy.stages[0].groups[0].maxConcurrency: Fleet Manager takes maxConcurrency from api-version 2026-06-01 (backend.azureFleet.apiVersion is 2025-04-01-preview)",
      "strategy.stages[0].groups[0].maxAllowedFailures: Fleet Manager takes maxAllowedFailures from api-version 2026-06-02-preview (backend.azureFleet.apiVersion is 2025-04-01-preview)",
    ]);
  });

  it("an api-version the client does not speak is named with the ones it does", () => {
    for (const apiVersion of ["2025-03-01", "2021-01-01", "2026-06-01-preview", 20260601]) {
      const got = checkRunInputs(inputs({ backend: { azureFleet: { fleetId: FLEET_ID, apiVersion } } }));
      expect(got.map((i) => i.path)).toEqual(["backend.azureFleet.apiVersion"]);
      expect(got[0]?.message).toBe("must be 2026-06-01 (GA, the default), 2026-06-02-preview or 2025-04-01-preview (legacy)");
    }
  });

  it("memberSelector and ScheduledStart gates: taken at 2026-06-02-preview, refused before it naming each field and that version", () => {
    const scheduled = { type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Monday", startTime: "10:00", utcOffset: "+00:00" } };
    const strategy = { stages: [{ name: "s", memberSelector: { byLabel: "env=prod" }, groups: [{ name: "g", beforeGates: [scheduled] }] }] };
    expect(checkRunInputs(inputs({ strategy, backend: { azureFleet: { fleetId: FLEET_ID, apiVersion: "2026-06-02-preview" } } }))).toEqual([]);
    for (const apiVersion of ["2026-06-01", "2025-04-01-preview"]) {
      const got = checkRunInputs(inputs({ strategy, backend: { azureFleet: { fleetId: FLEET_ID, apiVersion } } }));
      expect(got.map((i) => `${i.path}: ${i.message}`)).toEqual([
        `strategy.stages[0].memberSelector: Fleet Manager takes memberSelector from api-version 2026-06-02-preview (backend.azureFleet.apiVersion is ${apiVersion})`,
        `strategy.stages[0].groups[0].beforeGates[0].type: Fleet Manager takes ScheduledStart gates from api-version 2026-06-02-preview (backend.azureFleet.apiVersion is ${apiVersion})`,
      ]);
    }
    // The default version is GA: refused there too.
    expect(checkRunInputs(inputs({ strategy })).map((i) => i.path)).toHaveLength(2);
  });

  it("a stage chosen by label with no groups is refused once, at the stage's selector (not at the implicit group written out for it)", () => {
    const strategy = { stages: [{ name: "web", memberSelector: { byLabel: "tier=web" }, maxConcurrency: "2" }] };
    expect(checkRunInputs(inputs({ strategy, backend: { azureFleet: { fleetId: FLEET_ID, apiVersion: "2026-06-01" } } })).map((i) => i.path)).toEqual(["strategy.stages[0].memberSelector"]);
  });

  it("a run's members[].labels stays refused at every version: on Fleet the labels are the fleet member's own", () => {
    const members = [{ name: "a", labels: { env: "prod" } }];
    for (const apiVersion of ["2026-06-01", "2026-06-02-preview"]) {
      const got = checkRunInputs(inputs({ members, backend: { azureFleet: { fleetId: FLEET_ID, apiVersion } } }));
      expect(got.map((i) => i.path)).toEqual(["members[0].labels"]);
      expect(got[0]?.message).toMatch(/fleet member's own/);
    }
  });

  it("a member's health probe, at every version", () => {
    const members = [{ name: "a", healthCheck: { url: "https://a.example/healthz" } }];
    for (const apiVersion of ["2026-06-01", "2026-06-02-preview"]) {
      const got = checkRunInputs(inputs({ members, backend: { azureFleet: { fleetId: FLEET_ID, apiVersion } } }));
      expect(got.map((i) => i.path)).toEqual(["members[0].healthCheck"]);
      expect(got[0]?.message).toMatch(/server-side/);
    }
  });

  it("the same inputs are valid on the azure backend (the refusal is Fleet's)", () => {
    const tolerant = { stages: [{ name: "canary", groups: [{ name: "canary", maxAllowedFailures: "1" }] }] };
    const members = [{ name: "a", group: "canary", clusterResourceId: CLUSTER("a") }];
    expect(checkRunInputs(inputs({ backend: { azure: {} }, members, strategy: tolerant }))).toEqual([]);
    expect(paths(inputs({ members, strategy: tolerant }))).toEqual(["strategy.stages[0].groups[0].maxAllowedFailures"]);
  });
});

describe("members are the fleet's", () => {
  const fleet = [
    { name: "canary-1", group: "canary", clusterResourceId: CLUSTER("canary-1") },
    { name: "eu-1", group: "prod", clusterResourceId: CLUSTER("eu-1") },
    { name: "lab-1", group: "lab", clusterResourceId: CLUSTER("lab-1") },
  ];
  const strategy = { stages: [{ name: "canary", groups: [{ name: "canary" }] }, { name: "prod", groups: [{ name: "prod" }] }] };

  it("no members listed: the fleet's, the ones in no stage excluded", () => {
    const got = checkMembersAgainstFleet([], fleet, "prod-fleet", strategy);
    expect(got.issues).toEqual([]);
    expect(got.members.map((m) => m.name)).toEqual(["canary-1", "eu-1", "lab-1"]);
    expect(got.excluded.map((m) => m.name)).toEqual(["lab-1"]);
  });

  it("a member not in the fleet, or in another group, is named", () => {
    const got = checkMembersAgainstFleet([{ name: "canary-1", group: "prod" }, { name: "eu-1", group: "prod" }, { name: "us-9", group: "prod" }], fleet, "prod-fleet", strategy);
    expect(got.issues.map((i) => i.path)).toEqual(["members[0].group", "members[2].name"]);
    expect(got.issues[0]?.message).toContain("'canary-1' is in group 'canary' in fleet 'prod-fleet'");
    expect(got.issues[1]?.message).toContain("'us-9' is not a member of fleet 'prod-fleet'");
  });

  it("a listed subset of the members the run updates is refused (Fleet updates them all)", () => {
    const got = checkMembersAgainstFleet([{ name: "eu-1", group: "prod" }], fleet, "prod-fleet", strategy);
    expect(got.issues.map((i) => i.path)).toEqual(["members"]);
    expect(got.issues[0]?.message).toContain("'canary-1'");
    expect(got.issues[0]?.message).not.toContain("lab-1");
  });

  it("a strategy group no fleet member belongs to is accepted, as Fleet accepts it (docs/rules.md §2: a plan finding, not an error)", () => {
    const got = checkMembersAgainstFleet([], fleet, "prod-fleet", { stages: [{ name: "s", groups: [{ name: "typo" }] }] });
    expect(got.issues).toEqual([]);
  });

  it("a listed clusterResourceId must be the fleet member's", () => {
    const got = checkMembersAgainstFleet([{ name: "canary-1", group: "canary", clusterResourceId: CLUSTER("other") }, { name: "eu-1", group: "prod" }], fleet, "prod-fleet", strategy);
    expect(got.issues.map((i) => i.path)).toEqual(["members[0].clusterResourceId"]);
  });
});
