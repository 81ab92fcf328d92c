/**
 * One describe per SPEC rule (§3 execution, §4 aggregation, §6 maxConcurrency), each with inline
 * YAML scenarios: the path the rule allows and the thing it forbids. Times are exact ISO instants;
 * every run starts at 2026-12-05T00:00:00Z (a Saturday) and an upgrade takes 10 minutes unless said.
 */
import { describe, expect, it } from "vitest";
import { SkipRefusedError, UpdateRunEngine, drive } from "../../src/engine";
import type { RunState } from "../../src/engine";
import { imageFamily, imageDate } from "../../src/model/nodeImage";
import {
  CONTROL_PLANE_TO_1_32,
  DEFAULT_REGION,
  FULL_TO_1_32,
  IMAGE,
  approveAt,
  daily,
  driveScenario,
  expectNoOverlappingOperations,
  maxRunningAtOnce,
  member,
  scenario,
  simulate,
  skipAt,
  startAt,
  stopAt,
} from "./helpers";
import { updateChoiceOf } from "../../src/model/autoUpgrade";

const NOT_STARTED_STOPPED = "Not started: the run was stopped before this member was reached.";

// -------------------------------------------------------------------------------------------------
describe("§3.1 stages run one after another; the wait starts when the stage's last group ends", () => {
  it("runs stages in array order and starts the next stage when the previous one's wait has elapsed", async () => {
    const out = await simulate(
      scenario({
        members: [member("a-1", { group: "a" }), member("b-1", { group: "b", minutes: 30 }), member("c-1", { group: "c" })],
        // "zeta" before "alpha": array order, not name order.
        strategy: "{stages: [{name: zeta, groups: [{name: a}, {name: b}], afterStageWaitInSeconds: 600}, {name: alpha, groups: [{name: c}]}]}",
      }),
    );
    expect(out.member("a-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.member("b-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:30:00Z" });
    // The wait starts when b (the last group) ends, not when a ends.
    expect(out.stage("zeta").afterStageWaitStatus).toEqual({
      status: { state: "Completed", startTime: "2026-12-05T00:30:00Z", completedTime: "2026-12-05T00:40:00Z" },
      waitDurationInSeconds: 600,
    });
    expect(out.stage("zeta").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:40:00Z" });
    expect(out.stage("alpha").status.startTime).toBe("2026-12-05T00:40:00Z");
    expect(out.opStarts("c-1")).toEqual(["2026-12-05T00:40:00Z"]);
    expect(out.run).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:50:00Z" });
  });

  it("keeps the stage Running (not Completed) during its wait", async () => {
    const out = await simulate(
      scenario({
        members: [member("a-1", { group: "a" }), member("c-1", { group: "c" })],
        strategy: "{stages: [{name: one, groups: [{name: a}], afterStageWaitInSeconds: 3600}, {name: two, groups: [{name: c}]}]}",
      }),
    );
    expect(out.transitions("stage", "one")).toEqual(["2026-12-05T00:00:00Z NotStarted->Running", "2026-12-05T01:10:00Z Running->Completed"]);
    expect(out.transitions("group", "a")).toEqual(["2026-12-05T00:00:00Z NotStarted->Running", "2026-12-05T00:10:00Z Running->Completed"]);
    expect(out.opStarts("c-1")).toEqual(["2026-12-05T01:10:00Z"]);
  });

  it("does not start the next stage while the previous one still has a Pending member", async () => {
    const out = await simulate(
      scenario({
        members: [member("late-1", { group: "a", window: daily("12:00") }), member("c-1", { group: "c" })],
        strategy: "{stages: [{name: one, groups: [{name: a}]}, {name: two, groups: [{name: c}]}]}",
      }),
    );
    expect(out.member("late-1").status.startTime).toBe("2026-12-05T12:00:00Z");
    expect(out.stage("two").status.startTime).toBe("2026-12-05T12:10:00Z");
    expect(out.opStarts("c-1")).toEqual(["2026-12-05T12:10:00Z"]);
  });

  it("has no wait after a stage that ends Skipped because all its members are already at target", async () => {
    const out = await simulate(
      scenario({
        members: [member("done-1", { group: "a", version: "1.32.0" }), member("c-1", { group: "c" })],
        strategy: "{stages: [{name: one, groups: [{name: a}], afterStageWaitInSeconds: 3600}, {name: two, groups: [{name: c}]}]}",
      }),
    );
    expect(out.member("done-1").status.state).toBe("Skipped");
    expect(out.group("a").status.state).toBe("Skipped");
    expect(out.stage("one").status.state).toBe("Skipped");
    expect(out.stage("one").afterStageWaitStatus?.status.state).toBe("Skipped");
    expect(out.stage("one").afterStageWaitStatus?.status.startTime).toBeUndefined();
    expect(out.opStarts("c-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.run.completedTime).toBe("2026-12-05T00:10:00Z");
  });
});

// -------------------------------------------------------------------------------------------------
describe("§3.2 groups of a stage run in parallel", () => {
  it("starts the first member of every group of the stage at once", async () => {
    const out = await simulate(
      scenario({
        members: [member("a-1", { group: "a" }), member("a-2", { group: "a" }), member("b-1", { group: "b" })],
        strategy: "{stages: [{name: one, groups: [{name: a}, {name: b}]}]}",
      }),
    );
    expect(out.opStarts("a-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.opStarts("b-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.opStarts("a-2")).toEqual(["2026-12-05T00:10:00Z"]);
    expect(out.group("b").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.group("a").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:20:00Z" });
    expect(out.stage("one").status.completedTime).toBe("2026-12-05T00:20:00Z");
  });

  it("does not let a slow group hold back another group of the same stage", async () => {
    const out = await simulate(
      scenario({
        members: [member("slow-1", { group: "a", minutes: 120 }), member("b-1", { group: "b" }), member("b-2", { group: "b" }), member("b-3", { group: "b" })],
        strategy: "{stages: [{name: one, groups: [{name: a}, {name: b}]}]}",
      }),
    );
    expect(["b-1", "b-2", "b-3"].map((m) => out.opStarts(m)[0])).toEqual(["2026-12-05T00:00:00Z", "2026-12-05T00:10:00Z", "2026-12-05T00:20:00Z"]);
    expect(out.group("b").status.completedTime).toBe("2026-12-05T00:30:00Z");
    expect(out.stage("one").status.completedTime).toBe("2026-12-05T02:00:00Z");
  });
});

// -------------------------------------------------------------------------------------------------
describe("§3.3 candidate order inside a group: open now, opens within 4 h, no window, closed", () => {
  // Declared in the reverse of the order they must be tried in.
  const fourClasses = [
    member("closed-1", { group: "g", window: daily("12:00") }), // opens in 12 h: class 4
    member("none-1", { group: "g" }), // no window: class 3
    member("soon-1", { group: "g", window: daily("02:00") }), // opens in 2 h: class 2
    member("open-1", { group: "g", window: daily("00:00", 8) }), // open now: class 1
  ];

  it("tries the four classes in order at one instant (open, soon, none, closed)", async () => {
    const out = await simulate(scenario({ members: fourClasses, strategy: '{stages: [{name: s, groups: [{name: g, maxConcurrency: "4"}]}]}' }));
    expect(out.memberDecisionsAt("2026-12-05T00:00:00Z")).toEqual([
      "open-1 NotStarted->Running",
      "soon-1 NotStarted->Pending",
      "none-1 NotStarted->Running",
      "closed-1 NotStarted->Pending",
    ]);
  });

  it("re-evaluates the order each time the group picks its next member", async () => {
    const out = await simulate(scenario({ members: fourClasses, strategy: "{stages: [{name: s, groups: [{name: g}]}]}" }));
    expect(out.memberDecisionsAt("2026-12-05T00:00:00Z")).toEqual(["open-1 NotStarted->Running"]);
    // At 00:10 soon-1 (class 2) is tried before none-1 (class 3), goes Pending, and none-1 starts.
    expect(out.memberDecisionsAt("2026-12-05T00:10:00Z")).toEqual(["open-1 Running->Completed", "soon-1 NotStarted->Pending", "none-1 NotStarted->Running"]);
    expect(out.eventsOf("member", "soon-1")[0]?.message).toBe("Maintenance window closed; next opening at 2026-12-05T02:00:00Z.");
    expect(out.opStarts("open-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.opStarts("none-1")).toEqual(["2026-12-05T00:10:00Z"]);
    expect(out.opStarts("soon-1")).toEqual(["2026-12-05T02:00:00Z"]);
    expect(out.opStarts("closed-1")).toEqual(["2026-12-05T12:00:00Z"]);
  });

  it("keeps declaration order between members of the same class", async () => {
    const out = await simulate(
      scenario({
        members: [
          member("zz-none", { group: "g" }),
          member("aa-none", { group: "g" }),
          member("zz-open", { group: "g", window: daily("00:00", 8) }),
          member("aa-open", { group: "g", window: daily("00:00", 8) }),
        ],
      }),
    );
    const order = ["zz-open", "aa-open", "zz-none", "aa-none"];
    expect(order.map((m) => out.opStarts(m)[0])).toEqual(["2026-12-05T00:00:00Z", "2026-12-05T00:10:00Z", "2026-12-05T00:20:00Z", "2026-12-05T00:30:00Z"]);
  });

  it("counts a window opening in exactly 4 hours as 'opens within 4 h' (before members without a window)", async () => {
    const out = await simulate(
      scenario({
        members: [member("none-1", { group: "g" }), member("four-h", { group: "g", window: daily("04:00") })],
        strategy: '{stages: [{name: s, groups: [{name: g, maxConcurrency: "2"}]}]}',
      }),
    );
    expect(out.memberDecisionsAt("2026-12-05T00:00:00Z")).toEqual(["four-h NotStarted->Pending", "none-1 NotStarted->Running"]);
  });

  it("uses aksManagedNodeOSUpgradeSchedule for NodeImageOnly, not the auto-upgrade schedule", async () => {
    const out = await simulate(
      scenario({
        members: [
          // Auto-upgrade window open now, node OS window closed until 12:00.
          member("os-closed", { group: "g", window: daily("00:00", 8), nodeOsWindow: daily("12:00") }),
          // Auto-upgrade window closed, node OS window open now.
          member("os-open", { group: "g", window: daily("12:00"), nodeOsWindow: daily("00:00", 8) }),
        ],
        update: "{upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Latest}}",
      }),
    );
    expect(out.memberDecisionsAt("2026-12-05T00:00:00Z")).toEqual(["os-open NotStarted->Running"]);
    expect(out.eventsOf("member", "os-closed")[0]).toMatchObject({
      time: "2026-12-05T00:10:00Z",
      to: "Pending",
      message: "Maintenance window closed; next opening at 2026-12-05T12:00:00Z.",
    });
    expect(out.opStarts("os-open")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.opStarts("os-closed")).toEqual(["2026-12-05T12:00:00Z"]);
    expect(out.cluster("os-closed").nodePools[0]?.nodeImageVersion).toBe(IMAGE.NOV);
  });

  it("NodeImageOnly treats a member with only an auto-upgrade window as having no window", async () => {
    const out = await simulate(
      scenario({
        members: [member("auto-only", { window: daily("12:00") })],
        update: "{upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Latest}}",
      }),
    );
    expect(out.opStarts("auto-only")).toEqual(["2026-12-05T00:00:00Z"]);
  });

  it("uses aksManagedAutoUpgradeSchedule for Full and ControlPlaneOnly, not the node OS schedule", async () => {
    const members = [
      member("auto-closed", { group: "g", window: daily("12:00"), nodeOsWindow: daily("00:00", 8) }),
      member("auto-open", { group: "g", window: daily("00:00", 8), nodeOsWindow: daily("12:00") }),
    ];
    for (const update of [CONTROL_PLANE_TO_1_32, FULL_TO_1_32()]) {
      const out = await simulate(scenario({ members, update }));
      expect(out.opStarts("auto-open"), update).toEqual(["2026-12-05T00:00:00Z"]);
      expect(out.opStarts("auto-closed"), update).toEqual(["2026-12-05T12:00:00Z"]);
    }
  });
});

// -------------------------------------------------------------------------------------------------
describe("§3.4 checks before a member starts, in order", () => {
  it("checks 'already at target' before availability and the window: Skipped, not Pending", async () => {
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0@2026-12-06T00:00:00Z"], nodeImages: [IMAGE.OCT] } },
        members: [member("there-1", { version: "1.32.0", window: daily("12:00") }), member("behind-1", { window: daily("12:00") })],
        until: "2026-12-05T06:00:00Z",
      }),
    );
    expect(out.member("there-1").status).toEqual({ state: "Skipped", completedTime: "2026-12-05T00:00:00Z" });
    expect(out.member("there-1").message).toBe("Already at target: control plane runs Kubernetes 1.32.0.");
    // Not at target: the version check comes before the window check.
    expect(out.member("behind-1").status).toEqual({ state: "Pending" });
    expect(out.member("behind-1").message).toBe("Kubernetes version 1.32.0 is not yet available in region westeurope; expected at 2026-12-06T00:00:00Z.");
  });

  it("a version a region lists twice counts by its first listing, as AKS accepts it: the member waits for that instant and does not fail", async () => {
    const out = await simulate(
      scenario({
        regions: {
          westeurope: { kubernetesVersions: ["1.31.2", "1.32.0@2026-12-06T00:00:00Z", "1.32.0@2026-12-07T00:00:00Z"], nodeImages: [IMAGE.OCT] },
          eastus: { kubernetesVersions: ["1.31.2", "1.32.0@2026-12-07T00:00:00Z", "1.32.0@2026-12-06T00:00:00Z"], nodeImages: [IMAGE.OCT] },
          northeurope: { kubernetesVersions: ["1.31.2", "1.32.0@2026-12-07T00:00:00Z", "1.32.0"], nodeImages: [IMAGE.OCT] },
          francecentral: { kubernetesVersions: ["1.31.2", "1.32.0", "1.32.0@2026-12-07T00:00:00Z"], nodeImages: [IMAGE.OCT] },
        },
        members: [
          member("eu-1", { group: "g" }),
          member("us-1", { group: "g", region: "eastus" }),
          member("ne-1", { group: "g", region: "northeurope" }),
          member("fr-1", { group: "g", region: "francecentral" }),
        ],
        strategy: "{stages: [{name: s, groups: [{name: g, maxConcurrency: 4}]}]}",
      }),
    );
    for (const [name, region, at] of [
      ["eu-1", "westeurope", "2026-12-06T00:00:00Z"],
      ["us-1", "eastus", "2026-12-07T00:00:00Z"],
      ["ne-1", "northeurope", "2026-12-07T00:00:00Z"],
    ] as const) {
      expect(out.eventsOf("member", name).map((e) => [e.time, e.to, e.message]), name).toEqual([
        ["2026-12-05T00:00:00Z", "Pending", `Kubernetes version 1.32.0 is not yet available in region ${region}; expected at ${at}.`],
        [at, "Running", "Upgrading the control plane to Kubernetes 1.32.0."],
        [new Date(Date.parse(at) + 10 * 60_000).toISOString().replace(".000Z", "Z"), "Completed", undefined],
      ]);
    }
    expect(out.opStarts("fr-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.run.state).toBe("Completed");
  });

  it("waits for the window once the version has appeared", async () => {
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0@2026-12-06T00:00:00Z"], nodeImages: [IMAGE.OCT] } },
        members: [member("behind-1", { window: daily("12:00") })],
      }),
    );
    // Pending → Pending (only the reason changes) is not a state change, so it emits no event.
    expect(out.eventsOf("member", "behind-1").map((e) => [e.time, e.to, e.message])).toEqual([
      ["2026-12-05T00:00:00Z", "Pending", "Kubernetes version 1.32.0 is not yet available in region westeurope; expected at 2026-12-06T00:00:00Z."],
      ["2026-12-06T12:00:00Z", "Running", "Upgrading the control plane to Kubernetes 1.32.0."],
      ["2026-12-06T12:10:00Z", "Completed", undefined],
    ]);
    expect(out.member("behind-1").status).toEqual({ state: "Completed", startTime: "2026-12-06T12:00:00Z", completedTime: "2026-12-06T12:10:00Z" });
  });

  it("Full: at target means control plane, every pool's version and every pool's image", async () => {
    const out = await simulate(
      scenario({
        members: [
          member("all-there", { version: "1.32.0", image: IMAGE.NOV }),
          member("old-image", { version: "1.32.0", image: IMAGE.OCT }),
          member("old-pool", { version: "1.32.0", pools: [{ name: "system", version: "1.31.2", image: IMAGE.NOV }] }),
        ],
        update: FULL_TO_1_32(),
      }),
    );
    expect(out.member("all-there").status.state).toBe("Skipped");
    expect(out.member("all-there").message).toMatch(/already at target/i);
    expect(out.member("old-image").status.state).toBe("Completed");
    expect(out.member("old-pool").status.state).toBe("Completed");
    expect(out.cluster("old-image").nodePools[0]?.nodeImageVersion).toBe(IMAGE.NOV);
    expect(out.cluster("old-pool").nodePools[0]?.orchestratorVersion).toBe("1.32.0");
  });

  it("NodeImageOnly: at target means every pool at the target image", async () => {
    const out = await simulate(
      scenario({
        members: [member("fresh", { image: IMAGE.NOV }), member("stale", { image: IMAGE.OCT })],
        update: "{upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Latest}}",
      }),
    );
    expect(out.member("fresh").status.state).toBe("Skipped");
    expect(out.member("fresh").message).toBe("Already at target: every node pool runs the target node image.");
    expect(out.member("stale").status.startTime).toBe("2026-12-05T00:00:00Z");
    expect(out.cluster("stale")).toMatchObject({ kubernetesVersion: "1.31.2", nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE.NOV }] });
  });

  it("Consistent: a pool whose family has no version common to its regions makes the member Skipped (even with a closed window)", async () => {
    const out = await simulate(
      scenario({
        regions: {
          westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.NOV, IMAGE.AZL_NOV] },
          eastus: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.NOV] },
        },
        members: [
          member("eu-ubuntu", { image: IMAGE.OCT }),
          member("eu-azl", { image: IMAGE.AZL_OCT }),
          member("us-azl", { region: "eastus", image: IMAGE.AZL_OCT, window: daily("12:00") }),
        ],
        update: FULL_TO_1_32("Consistent"),
        until: "2026-12-05T06:00:00Z",
      }),
    );
    // Ubuntu is used only in westeurope; AzureLinux in westeurope and eastus, and eastus has none.
    expect(out.selectedImages).toEqual([IMAGE.NOV]);
    for (const name of ["eu-azl", "us-azl"]) {
      expect(out.member(name).status.state, name).toBe("Skipped");
      expect(out.member(name).message, name).toContain("AzureLinux-V2gen2");
      expect(out.ops(name), name).toEqual([]);
    }
    expect(out.member("eu-ubuntu").status.state).toBe("Completed");
    expect(out.cluster("eu-ubuntu").nodePools[0]?.nodeImageVersion).toBe(IMAGE.NOV);
    expect(out.run.state).toBe("Completed");
  });

  it("target Kubernetes version not yet in the member's region: Pending naming version and region, starts exactly when it appears", async () => {
    const out = await simulate(
      scenario({
        regions: {
          westeurope: { kubernetesVersions: ["1.31.2", "1.32.0@2026-12-06T03:00:00Z"], nodeImages: [IMAGE.OCT] },
          eastus: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT] },
        },
        members: [member("eu-1"), member("us-1", { region: "eastus" })],
      }),
    );
    const pending = out.eventsOf("member", "eu-1")[0];
    expect(pending).toMatchObject({ time: "2026-12-05T00:00:00Z", from: "NotStarted", to: "Pending" });
    expect(pending?.message).toContain("1.32.0");
    expect(pending?.message).toContain("westeurope");
    // The Pending member does not block the group: us-1 starts at once.
    expect(out.opStarts("us-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.opStarts("eu-1")).toEqual(["2026-12-06T03:00:00Z"]);
    expect(out.member("eu-1").status.startTime).toBe("2026-12-06T03:00:00Z");
  });

  it("Custom node image not yet in the region: Pending naming image and region, starts when it appears", async () => {
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2"], nodeImages: [IMAGE.OCT, `${IMAGE.DEC}@2026-12-05T06:30:00Z`] } },
        members: [member("m-1")],
        update: `{upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Custom, customNodeImageVersions: [{version: ${IMAGE.DEC}}]}}`,
      }),
    );
    const pending = out.eventsOf("member", "m-1")[0];
    expect(pending).toMatchObject({ time: "2026-12-05T00:00:00Z", to: "Pending" });
    expect(pending?.message).toContain(IMAGE.DEC);
    expect(pending?.message).toContain("westeurope");
    expect(out.opStarts("m-1")).toEqual(["2026-12-05T06:30:00Z"]);
    expect(out.cluster("m-1").nodePools[0]?.nodeImageVersion).toBe(IMAGE.DEC);
  });

  it("Custom node image never offered in the region: stays Pending", async () => {
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2"], nodeImages: [IMAGE.OCT] } },
        members: [member("m-1")],
        update: `{upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Custom, customNodeImageVersions: [{version: ${IMAGE.DEC}}]}}`,
        until: "2026-12-06T00:00:00Z",
      }),
    );
    expect(out.member("m-1").status).toEqual({ state: "Pending" });
    expect(out.member("m-1").message).toContain(IMAGE.DEC);
    expect(out.ops("m-1")).toEqual([]);
    expect(out.run.state).toBe("Pending");
  });

  it("window closed: Pending with the next opening in UTC (window in +02:00)", async () => {
    const out = await simulate(scenario({ members: [member("m-1", { window: daily("14:00", 4, "+02:00") })] }));
    expect(out.eventsOf("member", "m-1")[0]).toEqual({
      time: "2026-12-05T00:00:00Z",
      scope: "member",
      name: "m-1",
      from: "NotStarted",
      to: "Pending",
      message: "Maintenance window closed; next opening at 2026-12-05T12:00:00Z.",
    });
    expect(out.member("m-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T12:00:00Z", completedTime: "2026-12-05T12:10:00Z" });
  });

  it("a Pending member does not block its group: the next candidate starts at once", async () => {
    const out = await simulate(
      scenario({
        members: [member("waits", { window: daily("02:00") }), member("next-1"), member("next-2")],
      }),
    );
    expect(out.memberDecisionsAt("2026-12-05T00:00:00Z")).toEqual(["waits NotStarted->Pending", "next-1 NotStarted->Running"]);
    expect(out.opStarts("next-2")).toEqual(["2026-12-05T00:10:00Z"]);
    expect(out.opStarts("waits")).toEqual(["2026-12-05T02:00:00Z"]);
    expect(maxRunningAtOnce(out, ["waits", "next-1", "next-2"])).toBe(1);
  });

  // Regression: a group that set a member Pending and started another in the same pass used to lose
  // its next look (it only looked again when the running member ended: 05:00 here, not 02:00).
  it("comes back to a Pending member the moment its window opens, even while another member runs", async () => {
    const out = await simulate(
      scenario({
        members: [member("soon-1", { group: "g", window: daily("02:00") }), member("long-1", { group: "g", minutes: 300 })],
        strategy: '{stages: [{name: s, groups: [{name: g, maxConcurrency: "2"}]}]}',
      }),
    );
    expect(out.opStarts("long-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.opStarts("soon-1")).toEqual(["2026-12-05T02:00:00Z"]);
  });

  // Regression, same cause: the window had closed again when the running member ended (07:00), so
  // the Pending member waited a whole day (2026-12-06T02:00:00Z).
  it("does not miss a whole window because another member of the group was running", async () => {
    const out = await simulate(
      scenario({
        members: [member("soon-1", { group: "g", window: daily("02:00") }), member("long-1", { group: "g", minutes: 420 })],
        strategy: '{stages: [{name: s, groups: [{name: g, maxConcurrency: "2"}]}]}',
      }),
    );
    expect(out.opStarts("soon-1")).toEqual(["2026-12-05T02:00:00Z"]);
  });
});

// -------------------------------------------------------------------------------------------------
describe("§3.5 a started upgrade is never aborted; windows are checked before start only", () => {
  it("lets an upgrade run past its window's close, and holds the next member to its next window", async () => {
    const out = await simulate(
      scenario({
        members: [member("long-1", { window: daily("00:00"), minutes: 300 }), member("next-1", { window: daily("00:00") })],
      }),
    );
    // Window 00:00-04:00; the upgrade runs until 05:00.
    expect(out.member("long-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T05:00:00Z" });
    expect(out.ops("long-1")).toEqual([
      { operationId: "op-long-1-1", kind: "ControlPlaneOnly", startTime: "2026-12-05T00:00:00Z", endTime: "2026-12-05T05:00:00Z", result: "Succeeded" },
    ]);
    expect(out.eventsOf("member", "next-1")[0]).toMatchObject({
      time: "2026-12-05T05:00:00Z",
      to: "Pending",
      message: "Maintenance window closed; next opening at 2026-12-06T00:00:00Z.",
    });
    expect(out.opStarts("next-1")).toEqual(["2026-12-06T00:00:00Z"]);
  });
});

// -------------------------------------------------------------------------------------------------
describe("§3.6 node image selection", () => {
  it("Latest: the newest image of the family in the member's region at its start; one appearing mid-run is used by later members", async () => {
    const out = await simulate(
      scenario({
        regions: {
          westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV, `${IMAGE.DEC}@2026-12-05T00:05:00Z`] },
          eastus: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV] },
        },
        members: [member("eu-first"), member("eu-second"), member("us-third", { region: "eastus" })],
        update: FULL_TO_1_32("Latest"),
      }),
    );
    expect(out.opStarts("eu-first")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.cluster("eu-first").nodePools).toEqual([{ name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.NOV }]);
    expect(out.opStarts("eu-second")).toEqual(["2026-12-05T00:10:00Z"]);
    expect(out.cluster("eu-second").nodePools).toEqual([{ name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.DEC }]);
    expect(out.cluster("us-third").nodePools).toEqual([{ name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.NOV }]);
    expect(out.selectedImages).toEqual([]);
  });

  it("Latest, an image released during a member's upgrade: each pool takes the newest when its own re-imaging begins (docs/behaviour.md)", async () => {
    // A 30-minute NodeImageOnly upgrade of three pools: parts of 10 minutes, pools in declaration order.
    // December's image appears at 00:05: after the first pool's part began, before the others'.
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV, `${IMAGE.DEC}@2026-12-05T00:05:00Z`] } },
        members: [member("three", { minutes: 30, pools: [{ name: "first", image: IMAGE.OCT }, { name: "second", image: IMAGE.OCT }, { name: "third", image: IMAGE.OCT }] })],
        update: "{upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Latest}}",
      }),
    );
    expect(out.cluster("three").nodePools.map((p) => [p.name, p.nodeImageVersion])).toEqual([
      ["first", IMAGE.NOV],
      ["second", IMAGE.DEC],
      ["third", IMAGE.DEC],
    ]);
    // The member asked for the images newest at its start; the operation records what it applied.
    expect(out.member("three").message ?? "").not.toContain(IMAGE.DEC);
    expect(out.ops("three")).toHaveLength(1);
  });

  it("Latest, Full: pools the Kubernetes upgrade moves take their image at its start; a pool whose image alone moves takes it at its own part", async () => {
    // Full to 1.32.0 (the control plane is there; two pools lag), 40 minutes in parts of 10: control plane
    // 00:00, 'old' (version moves) 00:10, 'img' (already on 1.32.0: image only) 00:20...
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV, `${IMAGE.DEC}@2026-12-05T00:15:00Z`] } },
        members: [
          member("full", {
            version: "1.32.0",
            pools: [{ name: "old", image: IMAGE.OCT, version: "1.31.2" }, { name: "img", image: IMAGE.OCT }, { name: "late", image: IMAGE.OCT, version: "1.31.2" }],
            minutes: 40,
          }),
        ],
        update: FULL_TO_1_32("Latest"),
      }),
    );
    // ...'late' (version moves) 00:30: the Kubernetes upgrade gave it the image newest at the start.
    expect(out.cluster("full").nodePools.map((p) => [p.name, p.orchestratorVersion, p.nodeImageVersion])).toEqual([
      ["old", "1.32.0", IMAGE.NOV],
      ["img", "1.32.0", IMAGE.DEC],
      ["late", "1.32.0", IMAGE.NOV],
    ]);
  });

  it("Consistent and Custom are not touched by the Latest rule: an image released during the upgrade is not taken", async () => {
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV, `${IMAGE.DEC}@2026-12-05T00:05:00Z`] } },
        members: [member("two", { minutes: 30, pools: [{ name: "first", image: IMAGE.OCT }, { name: "second", image: IMAGE.OCT }] })],
        update: "{upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Consistent}}",
      }),
    );
    expect(out.cluster("two").nodePools.map((p) => p.nodeImageVersion)).toEqual([IMAGE.NOV, IMAGE.NOV]);
  });

  it("Latest: a pool whose family the region does not offer keeps its image", async () => {
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV] } },
        members: [member("mixed", { pools: [{ name: "ubuntu", image: IMAGE.OCT }, { name: "azl", image: IMAGE.AZL_OCT }] })],
        update: FULL_TO_1_32("Latest"),
      }),
    );
    expect(out.cluster("mixed").nodePools).toEqual([
      { name: "ubuntu", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.NOV },
      { name: "azl", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.AZL_OCT },
    ]);
  });

  it("Consistent: newest version common to every region using the family, picked at run start and recorded", async () => {
    const out = await simulate(
      scenario({
        regions: {
          westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV, IMAGE.DEC, IMAGE.AZL_OCT, IMAGE.AZL_NOV] },
          // DEC reaches eastus mid-run: the run keeps its pick.
          eastus: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV, `${IMAGE.DEC}@2026-12-05T00:05:00Z`] },
        },
        members: [
          member("eu-1", { pools: [{ name: "ubuntu", image: IMAGE.OCT }, { name: "azl", image: IMAGE.AZL_OCT }] }),
          member("us-1", { region: "eastus" }),
          member("eu-2"),
        ],
        update: FULL_TO_1_32("Consistent"),
      }),
    );
    // Ubuntu: westeurope and eastus → NOV (DEC not in eastus at start). AzureLinux: only westeurope → its newest.
    expect(out.selectedImages).toEqual([IMAGE.NOV, IMAGE.AZL_NOV]);
    expect(out.cluster("eu-1").nodePools.map((p) => p.nodeImageVersion)).toEqual([IMAGE.NOV, IMAGE.AZL_NOV]);
    expect(out.cluster("us-1").nodePools[0]?.nodeImageVersion).toBe(IMAGE.NOV);
    expect(out.opStarts("eu-2")).toEqual(["2026-12-05T00:20:00Z"]);
    expect(out.cluster("eu-2").nodePools[0]?.nodeImageVersion).toBe(IMAGE.NOV);
  });

  it("Consistent: the newest version offered in all three regions, whatever order a region lists them in; picks recorded in name order", async () => {
    const out = await simulate(
      scenario({
        regions: {
          // Newest first: the pick is by version, not by place in the list.
          westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.DEC, IMAGE.NOV, IMAGE.OCT, IMAGE.AZL_NOV, IMAGE.AZL_OCT] },
          eastus: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.DEC, IMAGE.NOV, IMAGE.OCT] },
          // DEC is in two of the three regions only.
          northeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.NOV, IMAGE.OCT] },
        },
        members: [
          // The AzureLinux family is met first; the record lists the picks by name all the same.
          member("eu-1", { pools: [{ name: "azl", image: IMAGE.AZL_OCT }, { name: "ubuntu", image: IMAGE.OCT }] }),
          member("us-1", { region: "eastus" }),
          member("ne-1", { region: "northeurope" }),
        ],
        update: FULL_TO_1_32("Consistent"),
      }),
    );
    expect(out.selectedImages).toEqual([IMAGE.NOV, IMAGE.AZL_NOV]);
    expect(out.cluster("eu-1").nodePools.map((p) => p.nodeImageVersion)).toEqual([IMAGE.AZL_NOV, IMAGE.NOV]);
    expect(out.cluster("us-1").nodePools[0]?.nodeImageVersion).toBe(IMAGE.NOV);
    expect(out.cluster("ne-1").nodePools[0]?.nodeImageVersion).toBe(IMAGE.NOV);
  });

  it("Custom: uses the given version (not the newest) and leaves pools of unlisted families alone", async () => {
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV, IMAGE.DEC, IMAGE.AZL_OCT, IMAGE.AZL_NOV] } },
        members: [member("mixed", { pools: [{ name: "ubuntu", image: IMAGE.OCT }, { name: "azl", image: IMAGE.AZL_OCT }] })],
        update: `{upgrade: {type: Full, kubernetesVersion: 1.32.0}, nodeImageSelection: {type: Custom, customNodeImageVersions: [{version: ${IMAGE.NOV}}]}}`,
      }),
    );
    expect(out.cluster("mixed").nodePools).toEqual([
      { name: "ubuntu", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.NOV },
      { name: "azl", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.AZL_OCT },
    ]);
  });

  it("never moves an image backwards: a pool newer than the Custom pick keeps its image", async () => {
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, IMAGE.NOV, IMAGE.DEC] } },
        members: [member("ahead", { image: IMAGE.DEC })],
        update: `{upgrade: {type: Full, kubernetesVersion: 1.32.0}, nodeImageSelection: {type: Custom, customNodeImageVersions: [{version: ${IMAGE.NOV}}]}}`,
      }),
    );
    expect(out.member("ahead").status.state).toBe("Completed");
    expect(out.cluster("ahead")).toMatchObject({ kubernetesVersion: "1.32.0", nodePools: [{ name: "system", orchestratorVersion: "1.32.0", nodeImageVersion: IMAGE.DEC }] });
  });

  it("parses the family as the version without its last '-' part", () => {
    expect(imageFamily("AKSUbuntu-2204gen2containerd-202611.24.0")).toBe("AKSUbuntu-2204gen2containerd");
    expect(imageDate("AKSUbuntu-2204gen2containerd-202611.24.0")).toBe("202611.24.0");
    expect(imageFamily("AzureLinux-V2gen2-202611.20.0")).toBe("AzureLinux-V2gen2");
  });

  it("Latest keeps families with a shared prefix apart and compares version dates numerically", async () => {
    const ARM_OLD = "AKSUbuntu-2204gen2arm64containerd-202610.01.0";
    const ARM_NEW = "AKSUbuntu-2204gen2arm64containerd-202611.3.0";
    const X64_NEWER = "AKSUbuntu-2204gen2containerd-202611.24.0";
    const X64_OLDER = "AKSUbuntu-2204gen2containerd-202611.3.0";
    const out = await simulate(
      scenario({
        regions: { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0"], nodeImages: [IMAGE.OCT, X64_OLDER, X64_NEWER, ARM_OLD, ARM_NEW] } },
        members: [member("m-1", { pools: [{ name: "x64", image: IMAGE.OCT }, { name: "arm", image: ARM_OLD }] })],
        update: "{upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Latest}}",
      }),
    );
    // 202611.24.0 is newer than 202611.3.0 (24 > 3), though "3" sorts after "24" as text.
    expect(out.cluster("m-1").nodePools.map((p) => p.nodeImageVersion)).toEqual([X64_NEWER, ARM_NEW]);
  });
});

// -------------------------------------------------------------------------------------------------
describe("§3.7 failure", () => {
  const failing = scenario({
    members: [
      member("a-1", { group: "a", fail: "drain timed out" }),
      member("a-2", { group: "a" }),
      member("b-1", { group: "b", minutes: 60 }),
      member("b-2", { group: "b" }),
      member("p-1", { group: "p", window: daily("12:00") }),
      member("c-1", { group: "c" }),
    ],
    strategy: "{stages: [{name: one, groups: [{name: a}, {name: b}, {name: p}]}, {name: two, groups: [{name: c}]}]}",
  });

  it("marks the member Failed and its group, stage and run Failed with errors naming the member", async () => {
    const out = await simulate(failing);
    expect(out.member("a-1").status).toEqual({
      state: "Failed",
      startTime: "2026-12-05T00:00:00Z",
      completedTime: "2026-12-05T00:10:00Z",
      error: { code: "UpgradeFailed", message: "drain timed out" },
    });
    expect(out.member("a-1").message).toContain("drain timed out");
    expect(out.ops("a-1")).toEqual([
      { operationId: "op-a-1-1", kind: "ControlPlaneOnly", startTime: "2026-12-05T00:00:00Z", endTime: "2026-12-05T00:10:00Z", result: "Failed" },
    ]);
    for (const status of [out.group("a").status, out.stage("one").status, out.run]) {
      expect(status.state).toBe("Failed");
      expect(status.error?.code).toBe("UpgradeFailed");
      expect(status.error?.message).toContain("a-1");
    }
    expect(out.group("a").status.completedTime).toBe("2026-12-05T00:10:00Z");
    expect(out.run.completedTime).toBe("2026-12-05T01:00:00Z");
  });

  it("starts no new member anywhere, follows the in-flight upgrade to its end, and shows the run Stopping meanwhile", async () => {
    const out = await simulate(failing);
    expect(out.transitions("run", "scenario")).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Running",
      "2026-12-05T00:10:00Z Running->Stopping",
      "2026-12-05T01:00:00Z Stopping->Failed",
    ]);
    expect(out.member("b-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T01:00:00Z" });
    expect(out.ops("b-1")[0]).toMatchObject({ endTime: "2026-12-05T01:00:00Z", result: "Succeeded" });
    for (const name of ["a-2", "b-2", "p-1", "c-1"]) {
      expect(out.ops(name), name).toEqual([]);
      expect(out.member(name).status, name).toEqual({ state: "NotStarted" });
      expect(out.member(name).message, name).toBe("Not started: the run failed before this member was reached.");
    }
  });

  it("follows an in-flight upgrade in the failed member's own group to its end", async () => {
    const out = await simulate(
      scenario({
        members: [member("bad-1", { group: "g", fail: "boom" }), member("slow-1", { group: "g", minutes: 40 }), member("next-1", { group: "g" })],
        strategy: '{stages: [{name: s, groups: [{name: g, maxConcurrency: "2"}]}]}',
      }),
    );
    expect(out.member("slow-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:40:00Z" });
    expect(out.ops("next-1")).toEqual([]);
    expect(out.group("g").status).toMatchObject({ state: "Failed", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.transitions("run", "scenario")).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Running",
      "2026-12-05T00:10:00Z Running->Stopping",
      "2026-12-05T00:40:00Z Stopping->Failed",
    ]);
  });

  it("sends Pending members back to NotStarted, stops started groups, leaves later stages NotStarted", async () => {
    const out = await simulate(failing);
    expect(out.transitions("member", "p-1")).toEqual(["2026-12-05T00:00:00Z NotStarted->Pending", "2026-12-05T00:10:00Z Pending->NotStarted"]);
    expect(out.transitions("group", "b")).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Running",
      "2026-12-05T00:10:00Z Running->Stopping",
      "2026-12-05T01:00:00Z Stopping->Stopped",
    ]);
    expect(out.group("b").status).toEqual({ state: "Stopped", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T01:00:00Z" });
    expect(out.group("p").status.state).toBe("Stopped");
    expect(out.stage("two").status).toEqual({ state: "NotStarted" });
    expect(out.group("c").status).toEqual({ state: "NotStarted" });
  });

  it("an AKS rule refusal (skipping a minor version) fails the member with the backend's code", async () => {
    const out = await simulate(
      scenario({
        members: [member("old-1", { version: "1.30.5" }), member("ok-1")],
        update: FULL_TO_1_32(),
      }),
    );
    const old = out.member("old-1");
    expect(old.status.state).toBe("Failed");
    expect(old.status.completedTime).toBe("2026-12-05T00:00:00Z");
    expect(old.status.error?.code).toBe("UpgradeMinorVersionSkipNotAllowed");
    expect(old.message).toContain("UpgradeMinorVersionSkipNotAllowed");
    expect(out.ops("old-1")).toEqual([]);
    expect(out.cluster("old-1").kubernetesVersion).toBe("1.30.5");
    expect(out.run).toMatchObject({ state: "Failed", completedTime: "2026-12-05T00:00:00Z", error: { code: "UpgradeMinorVersionSkipNotAllowed" } });
    expect(out.run.error?.message).toContain("old-1");
    expect(out.ops("ok-1")).toEqual([]);
  });
});

// -------------------------------------------------------------------------------------------------
describe("§3.8 stop and start", () => {
  const three = [member("m-1"), member("m-2"), member("m-3")];

  it("stop: Stopping while the in-flight upgrade finishes, then Stopped; never-started members NotStarted with a message", async () => {
    const out = await simulate(scenario({ members: three, actions: [stopAt("2026-12-05T00:05:00Z")] }));
    expect(out.transitions("run", "scenario")).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Running",
      "2026-12-05T00:05:00Z Running->Stopping",
      "2026-12-05T00:10:00Z Stopping->Stopped",
    ]);
    expect(out.member("m-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    for (const name of ["m-2", "m-3"]) {
      expect(out.member(name).status).toEqual({ state: "NotStarted" });
      expect(out.member(name).message).toBe(NOT_STARTED_STOPPED);
      expect(out.ops(name)).toEqual([]);
    }
    expect(out.group("default").status).toEqual({ state: "Stopped", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.stage("default").status).toEqual({ state: "Stopped", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.run).toEqual({ state: "Stopped", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
  });

  it("stop at the instant a member would start: nothing starts at that instant", async () => {
    const out = await simulate(scenario({ members: three, actions: [stopAt("2026-12-05T00:10:00Z")] }));
    expect(out.member("m-1").status.state).toBe("Completed");
    expect(out.ops("m-2")).toEqual([]);
    expect(out.run).toEqual({ state: "Stopped", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
  });

  it("stop at the run's start instant: nothing ever starts", async () => {
    const out = await simulate(scenario({ members: three, actions: [stopAt("2026-12-05T00:00:00Z")] }));
    for (const name of ["m-1", "m-2", "m-3"]) expect(out.ops(name), name).toEqual([]);
    expect(out.run).toEqual({ state: "Stopped", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:00:00Z" });
    expect(out.member("m-1").message).toBe(NOT_STARTED_STOPPED);
  });

  it("start after stop continues where the run left off: Completed members stay, the rest proceed", async () => {
    const out = await simulate(scenario({ members: three, actions: [stopAt("2026-12-05T00:05:00Z"), startAt("2026-12-05T01:00:00Z")] }));
    expect(out.opStarts("m-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.opStarts("m-2")).toEqual(["2026-12-05T01:00:00Z"]);
    expect(out.opStarts("m-3")).toEqual(["2026-12-05T01:10:00Z"]);
    expect(out.transitions("run", "scenario")).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Running",
      "2026-12-05T00:05:00Z Running->Stopping",
      "2026-12-05T00:10:00Z Stopping->Stopped",
      "2026-12-05T01:00:00Z Stopped->Running",
      "2026-12-05T01:20:00Z Running->Completed",
    ]);
    expect(out.run).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T01:20:00Z" });
    expect(out.member("m-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
  });

  it("start after a failure retries the Failed member (a second operation), keeps Skipped and Completed members, and proceeds with the others", async () => {
    const out = await simulate(
      scenario({
        members: [
          member("there-1", { group: "x", version: "1.32.0" }),
          member("f-1", { group: "x", fail: "drain timed out" }),
          member("y-1", { group: "y", minutes: 60 }),
          member("y-2", { group: "y" }),
        ],
        strategy: "{stages: [{name: one, groups: [{name: x}, {name: y}]}]}",
        actions: [startAt("2026-12-05T02:00:00Z")],
      }),
    );
    expect(out.member("there-1").status).toEqual({ state: "Skipped", completedTime: "2026-12-05T00:00:00Z" });
    expect(out.ops("f-1").map((o) => [o.operationId, o.startTime, o.result])).toEqual([
      ["op-f-1-1", "2026-12-05T00:00:00Z", "Failed"],
      ["op-f-1-2", "2026-12-05T02:00:00Z", "Failed"],
    ]);
    expect(out.member("f-1").operationId).toBe("op-f-1-2");
    expect(out.opStarts("y-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.opStarts("y-2")).toEqual(["2026-12-05T02:00:00Z"]);
    expect(out.transitions("run", "scenario")).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Running",
      "2026-12-05T00:10:00Z Running->Stopping",
      "2026-12-05T01:00:00Z Stopping->Failed",
      "2026-12-05T02:00:00Z Failed->Running",
      "2026-12-05T02:10:00Z Running->Failed",
    ]);
    expectNoOverlappingOperations(out);
  });

  it("Pending members go NotStarted on stop and Pending again on start, then start when their window opens", async () => {
    const out = await simulate(
      scenario({
        members: [member("p-1", { window: daily("12:00") }), member("n-1")],
        actions: [stopAt("2026-12-05T01:00:00Z"), startAt("2026-12-05T02:00:00Z")],
      }),
    );
    expect(out.transitions("member", "p-1")).toEqual([
      "2026-12-05T00:10:00Z NotStarted->Pending",
      "2026-12-05T01:00:00Z Pending->NotStarted",
      "2026-12-05T02:00:00Z NotStarted->Pending",
      "2026-12-05T12:00:00Z Pending->Running",
      "2026-12-05T12:10:00Z Running->Completed",
    ]);
    expect(out.transitions("run", "scenario")).toContain("2026-12-05T01:00:00Z Pending->Stopped");
    expect(out.run).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T12:10:00Z" });
  });

  it("a NotStarted member of a stopped run says why in its status", async () => {
    const { engine } = await driveScenario(scenario({ members: [member("p-1", { window: daily("12:00") }), member("n-1")], actions: [] }), {
      until: "2026-12-05T00:30:00Z",
    });
    engine.stop(Date.parse("2026-12-05T00:30:00Z"));
    await engine.reconcile(Date.parse("2026-12-05T00:30:00Z"));
    const p1 = engine.status().stages[0]?.groups[0]?.members.find((m) => m.name === "p-1");
    expect(p1?.status).toEqual({ state: "NotStarted" });
    expect(p1?.message).toBe(NOT_STARTED_STOPPED);
  });

  it("start while Stopping cancels the stop", async () => {
    const out = await simulate(scenario({ members: three, actions: [stopAt("2026-12-05T00:05:00Z"), startAt("2026-12-05T00:07:00Z")] }));
    expect(out.transitions("run", "scenario")).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Running",
      "2026-12-05T00:05:00Z Running->Stopping",
      "2026-12-05T00:07:00Z Stopping->Running",
      "2026-12-05T00:30:00Z Running->Completed",
    ]);
    expect(out.opStarts("m-2")).toEqual(["2026-12-05T00:10:00Z"]);
    expect(out.opStarts("m-3")).toEqual(["2026-12-05T00:20:00Z"]);
  });
});

// -------------------------------------------------------------------------------------------------
describe("§3.9 skip", () => {
  const twoStages = "{stages: [{name: canary, groups: [{name: c}], afterStageWaitInSeconds: 3600}, {name: prod, groups: [{name: a}, {name: b}]}]}";
  const fleet = [member("c-1", { group: "c" }), member("a-1", { group: "a" }), member("a-2", { group: "a" }), member("b-1", { group: "b" })];

  it("Member: the named member is Skipped with a message and never upgraded; the group goes on", async () => {
    const out = await simulate(scenario({ members: [member("m-1"), member("m-2"), member("m-3")], actions: [skipAt("2026-12-05T00:00:00Z", ["Member", "m-2"])] }));
    expect(out.member("m-2").status).toEqual({ state: "Skipped", completedTime: "2026-12-05T00:00:00Z" });
    expect(out.member("m-2").message).toBe("Skipped by user.");
    expect(out.ops("m-2")).toEqual([]);
    expect(out.opStarts("m-3")).toEqual(["2026-12-05T00:10:00Z"]);
    expect(out.refusedActions).toEqual([]);
  });

  it("a user skip comes before the 'already at target' check", async () => {
    const out = await simulate(scenario({ members: [member("there-1", { version: "1.32.0" })], actions: [skipAt("2026-12-05T00:00:00Z", ["Member", "there-1"])] }));
    expect(out.member("there-1").message).toBe("Skipped by user.");
  });

  it("Group: every member of the group is Skipped; the other groups run", async () => {
    const out = await simulate(scenario({ members: fleet, strategy: twoStages, actions: [skipAt("2026-12-05T00:00:00Z", ["Group", "a"])] }));
    expect(out.group("a").status.state).toBe("Skipped");
    for (const name of ["a-1", "a-2"]) {
      expect(out.member(name).status.state).toBe("Skipped");
      expect(out.ops(name)).toEqual([]);
    }
    expect(out.opStarts("b-1")).toEqual(["2026-12-05T01:10:00Z"]);
    expect(out.stage("prod").status.state).toBe("Completed");
  });

  it("Stage: the stage and its wait are Skipped, and the next stage starts at once", async () => {
    const out = await simulate(scenario({ members: fleet, strategy: twoStages, actions: [skipAt("2026-12-05T00:00:00Z", ["Stage", "canary"])] }));
    expect(out.stage("canary").status.state).toBe("Skipped");
    expect(out.stage("canary").afterStageWaitStatus?.status.state).toBe("Skipped");
    expect(out.member("c-1").status.state).toBe("Skipped");
    expect(out.opStarts("a-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.opStarts("b-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.run).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:20:00Z" });
  });

  it("AfterStageWait: the next stage starts as soon as the stage ends", async () => {
    const out = await simulate(scenario({ members: fleet, strategy: twoStages, actions: [skipAt("2026-12-05T00:00:00Z", ["AfterStageWait", "canary"])] }));
    expect(out.member("c-1").status.state).toBe("Completed");
    expect(out.stage("canary").afterStageWaitStatus?.status.state).toBe("Skipped");
    expect(out.stage("canary").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.opStarts("a-1")).toEqual(["2026-12-05T00:10:00Z"]);
  });

  it("AfterStageWait under way: the wait ends at that instant (Skipped) and the next stage starts then", async () => {
    // canary's c-1 runs 00:00-00:10; its one-hour wait starts at 00:10 and is cut short at 00:25.
    const out = await simulate(scenario({ members: fleet, strategy: twoStages, actions: [skipAt("2026-12-05T00:25:00Z", ["AfterStageWait", "canary"])] }));
    expect(out.refusedActions).toEqual([]);
    expect(out.stage("canary").afterStageWaitStatus).toEqual({
      status: { state: "Skipped", startTime: "2026-12-05T00:10:00Z", completedTime: "2026-12-05T00:25:00Z" },
      waitDurationInSeconds: 3600,
    });
    expect(out.transitions("wait", "canary")).toEqual(["2026-12-05T00:10:00Z NotStarted->Running", "2026-12-05T00:25:00Z Running->Skipped"]);
    expect(out.stage("canary").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:25:00Z" });
    expect(out.stage("prod").status.startTime).toBe("2026-12-05T00:25:00Z");
    expect(out.opStarts("a-1")).toEqual(["2026-12-05T00:25:00Z"]);
    expect(out.opStarts("b-1")).toEqual(["2026-12-05T00:25:00Z"]);
    expect(out.run).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:45:00Z" });
  });

  it("AfterStageWait under way, with its stage's after-gate still unapproved: the wait ends, the gate still holds the next stage", async () => {
    const strategy = "{stages: [{name: canary, groups: [{name: c}], afterStageWaitInSeconds: 3600, afterGates: [{type: Approval}]}, {name: prod, groups: [{name: a}, {name: b}]}]}";
    const out = await simulate(
      scenario({ members: fleet, strategy, actions: [skipAt("2026-12-05T00:25:00Z", ["AfterStageWait", "canary"]), approveAt("2026-12-05T00:40:00Z", { stage: "canary", timing: "After" })] }),
    );
    expect(out.stage("canary").afterStageWaitStatus?.status).toEqual({ state: "Skipped", startTime: "2026-12-05T00:10:00Z", completedTime: "2026-12-05T00:25:00Z" });
    expect(out.opStarts("a-1")).toEqual(["2026-12-05T00:40:00Z"]);
  });

  it("skipping the Stage whose wait is under way is refused, saying to skip the wait instead", async () => {
    const plain = await simulate(scenario({ members: fleet, strategy: twoStages }));
    const out = await simulate(scenario({ members: fleet, strategy: twoStages, actions: [skipAt("2026-12-05T00:25:00Z", ["Stage", "canary"])] }));
    expect(out.refusedActions).toHaveLength(1);
    expect(out.refusedActions[0]?.message).toMatch(/stage 'canary' is running \(its after-stage wait is under way\).*skip its AfterStageWait/i);
    expect(JSON.stringify(out.result)).toBe(JSON.stringify(plain.result));
  });

  it("skipping a Running member is refused for the whole batch and changes nothing", async () => {
    const members = [member("m-1"), member("m-2"), member("m-3")];
    const plain = await simulate(scenario({ members }));
    const out = await simulate(scenario({ members, actions: [skipAt("2026-12-05T00:05:00Z", ["Member", "m-1"], ["Member", "m-2"])] }));
    expect(out.refusedActions).toHaveLength(1);
    expect(out.refusedActions[0]?.at).toBe("2026-12-05T00:05:00Z");
    expect(out.refusedActions[0]?.message).toContain("m-1");
    expect(out.refusedActions[0]?.message).toMatch(/running/i);
    expect(JSON.stringify(out.result)).toBe(JSON.stringify(plain.result));
  });

  it("skipping a Group or Stage that holds a Running member is refused", async () => {
    const members = [member("a-1", { group: "a" }), member("a-2", { group: "a" }), member("b-1", { group: "b" })];
    const strategy = "{stages: [{name: one, groups: [{name: a}]}, {name: two, groups: [{name: b}]}]}";
    const plain = await simulate(scenario({ members, strategy }));
    const out = await simulate(
      scenario({ members, strategy, actions: [skipAt("2026-12-05T00:05:00Z", ["Group", "a"]), skipAt("2026-12-05T00:06:00Z", ["Stage", "one"], ["Stage", "two"])] }),
    );
    expect(out.refusedActions.map((r) => r.at)).toEqual(["2026-12-05T00:05:00Z", "2026-12-05T00:06:00Z"]);
    expect(out.refusedActions[0]?.message).toContain("'a'");
    expect(out.refusedActions[1]?.message).toContain("'one'");
    // The batch is all or nothing: stage two, which could have been skipped, was not.
    expect(JSON.stringify(out.result)).toBe(JSON.stringify(plain.result));
  });

  it("skipping a finished item changes nothing and is not refused", async () => {
    const members = [member("m-1"), member("m-2", { fail: "boom" })];
    const plain = await simulate(scenario({ members }));
    const out = await simulate(
      scenario({ members, actions: [skipAt("2026-12-05T00:15:00Z", ["Member", "m-1"]), skipAt("2026-12-05T00:30:00Z", ["Member", "m-2"], ["Member", "m-1"])] }),
    );
    expect(out.refusedActions).toEqual([]);
    expect(out.member("m-1").status.state).toBe("Completed");
    expect(out.member("m-2").status.state).toBe("Failed");
    expect(JSON.stringify(out.result)).toBe(JSON.stringify(plain.result));
  });

  it("skipping a Pending member lets its group, stage and run finish at once", async () => {
    const out = await simulate(
      scenario({ members: [member("late-1", { window: daily("12:00") }), member("m-1")], actions: [skipAt("2026-12-05T01:00:00Z", ["Member", "late-1"])] }),
    );
    expect(out.transitions("member", "late-1")).toEqual(["2026-12-05T00:10:00Z NotStarted->Pending", "2026-12-05T01:00:00Z Pending->Skipped"]);
    expect(out.ops("late-1")).toEqual([]);
    expect(out.run).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T01:00:00Z" });
  });

  it("skipping the current stage while it is Pending skips its wait and moves on at once", async () => {
    const out = await simulate(
      scenario({
        members: [member("late-1", { group: "a", window: daily("12:00") }), member("b-1", { group: "b" })],
        strategy: "{stages: [{name: one, groups: [{name: a}], afterStageWaitInSeconds: 3600}, {name: two, groups: [{name: b}]}]}",
        actions: [skipAt("2026-12-05T01:00:00Z", ["Stage", "one"])],
      }),
    );
    expect(out.refusedActions).toEqual([]);
    expect(out.stage("one").status.state).toBe("Skipped");
    expect(out.stage("one").afterStageWaitStatus?.status.state).toBe("Skipped");
    expect(out.opStarts("b-1")).toEqual(["2026-12-05T01:00:00Z"]);
  });

  it("members of a Stopped run can be skipped; start then goes on without them", async () => {
    const out = await simulate(
      scenario({
        members: [member("m-1"), member("m-2"), member("m-3")],
        actions: [stopAt("2026-12-05T00:05:00Z"), skipAt("2026-12-05T00:30:00Z", ["Member", "m-2"]), startAt("2026-12-05T01:00:00Z")],
      }),
    );
    expect(out.refusedActions).toEqual([]);
    expect(out.member("m-2").status).toEqual({ state: "Skipped", completedTime: "2026-12-05T00:30:00Z" });
    expect(out.opStarts("m-3")).toEqual(["2026-12-05T01:00:00Z"]);
    expect(out.run.completedTime).toBe("2026-12-05T01:10:00Z");
  });

  it("the engine refuses a batch naming an unknown item with SkipRefusedError and skips nothing", async () => {
    const { engine } = await driveScenario(scenario({ members: [member("m-1"), member("m-2")] }), { until: "2026-12-05T00:05:00Z" });
    const before = JSON.stringify(engine.status());
    expect(() => engine.skip([{ type: "Member", name: "m-2" }, { type: "Member", name: "nope" }], Date.parse("2026-12-05T00:05:00Z"))).toThrow(SkipRefusedError);
    expect(JSON.stringify(engine.status())).toBe(before);
  });
});

// -------------------------------------------------------------------------------------------------
describe("§4 state aggregation", () => {
  it("the run is Skipped when every stage is skipped (all members already at target)", async () => {
    const out = await simulate(
      scenario({
        members: [member("a-1", { group: "a", version: "1.32.0" }), member("b-1", { group: "b", version: "1.32.0" })],
        strategy: "{stages: [{name: one, groups: [{name: a}], afterStageWaitInSeconds: 600}, {name: two, groups: [{name: b}]}]}",
      }),
    );
    expect(out.stage("one").status.state).toBe("Skipped");
    expect(out.stage("two").status.state).toBe("Skipped");
    expect(out.run).toMatchObject({ state: "Skipped", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:00:00Z" });
  });

  it("the run is Skipped when the user skips every stage", async () => {
    const out = await simulate(
      scenario({
        members: [member("a-1", { group: "a" }), member("b-1", { group: "b" })],
        strategy: "{stages: [{name: one, groups: [{name: a}]}, {name: two, groups: [{name: b}]}]}",
        actions: [skipAt("2026-12-05T00:00:00Z", ["Stage", "one"], ["Stage", "two"])],
      }),
    );
    expect(out.run.state).toBe("Skipped");
    expect(out.ops("a-1")).toEqual([]);
    expect(out.ops("b-1")).toEqual([]);
  });

  it("a stage and the run are Completed when some groups completed and others were skipped", async () => {
    const out = await simulate(
      scenario({
        members: [member("a-1", { group: "a", version: "1.32.0" }), member("b-1", { group: "b" })],
        strategy: "{stages: [{name: one, groups: [{name: a}, {name: b}]}]}",
      }),
    );
    expect(out.group("a").status.state).toBe("Skipped");
    expect(out.stage("one").status.state).toBe("Completed");
    expect(out.run.state).toBe("Completed");
  });

  it("Pending rises from a group to the stage and run only when nothing in them is running", async () => {
    const out = await simulate(
      scenario({
        members: [member("p-1", { group: "a", window: daily("12:00") }), member("b-1", { group: "b", minutes: 30 })],
        strategy: "{stages: [{name: one, groups: [{name: a}, {name: b}]}]}",
      }),
    );
    expect(out.transitions("group", "a")).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Pending",
      "2026-12-05T12:00:00Z Pending->Running",
      "2026-12-05T12:10:00Z Running->Completed",
    ]);
    for (const [scope, name] of [["stage", "one"], ["run", "scenario"]] as const) {
      expect(out.transitions(scope, name), name).toEqual([
        "2026-12-05T00:00:00Z NotStarted->Running",
        "2026-12-05T00:30:00Z Running->Pending",
        "2026-12-05T12:00:00Z Pending->Running",
        "2026-12-05T12:10:00Z Running->Completed",
      ]);
    }
    // A member's startTime is absent while it is Pending.
    const { engine } = await driveScenario(
      scenario({ members: [member("p-1", { group: "a", window: daily("12:00") }), member("b-1", { group: "b" })], strategy: "{stages: [{name: one, groups: [{name: a}, {name: b}]}]}" }),
      { until: "2026-12-05T01:00:00Z" },
    );
    const pending = engine.status().stages[0]?.groups[0];
    expect(pending?.status).toEqual({ state: "Pending", startTime: "2026-12-05T00:00:00Z" });
    expect(pending?.members[0]?.status).toEqual({ state: "Pending" });
  });

  it("after a halt, started unfinished groups and stages are Stopped; finished groups keep their state; later stages stay NotStarted", async () => {
    const out = await simulate(
      scenario({
        members: [member("a-1", { group: "a" }), member("b-1", { group: "b", minutes: 30 }), member("b-2", { group: "b" }), member("c-1", { group: "c" })],
        strategy: "{stages: [{name: one, groups: [{name: a}, {name: b}]}, {name: two, groups: [{name: c}]}]}",
        actions: [stopAt("2026-12-05T00:15:00Z")],
      }),
    );
    expect(out.group("a").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.transitions("group", "b")).toEqual([
      "2026-12-05T00:00:00Z NotStarted->Running",
      "2026-12-05T00:15:00Z Running->Stopping",
      "2026-12-05T00:30:00Z Stopping->Stopped",
    ]);
    expect(out.stage("one").status).toEqual({ state: "Stopped", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:30:00Z" });
    expect(out.stage("two").status).toEqual({ state: "NotStarted" });
    expect(out.group("c").status).toEqual({ state: "NotStarted" });
    expect(out.member("c-1").status).toEqual({ state: "NotStarted" });
    expect(out.member("c-1").message).toBe(NOT_STARTED_STOPPED);
    expect(out.run.state).toBe("Stopped");
  });
});

// -------------------------------------------------------------------------------------------------
describe("§5 status: a NotStarted member always says why", () => {
  const yaml = scenario({
    members: [member("c-1", { group: "c" }), member("a-1", { group: "a" }), member("a-2", { group: "a" })],
    strategy: "{stages: [{name: canary, groups: [{name: c}], afterStageWaitInSeconds: 3600}, {name: prod, groups: [{name: a}]}]}",
  });

  it("explains each NotStarted member, before the run, while an earlier stage runs, during its wait, and while waiting its turn", async () => {
    const created = await driveScenario(yaml, { until: "2026-12-05T00:05:00Z" });
    const messages = (engine: UpdateRunEngine) =>
      Object.fromEntries(
        engine
          .status()
          .stages.flatMap((s) => s.groups.flatMap((g) => g.members))
          .filter((m) => m.status.state === "NotStarted")
          .map((m) => [m.name, m.message]),
      );
    // 00:05: canary-1 upgrading.
    expect(messages(created.engine)).toEqual({ "a-1": "Waiting for stage 'canary' to finish.", "a-2": "Waiting for stage 'canary' to finish." });
    // 00:30: the canary wait runs until 01:10.
    await drive(created.engine, created.clock, { until: Date.parse("2026-12-05T00:30:00Z") });
    expect(messages(created.engine)).toEqual({
      "a-1": "Waiting for the after-stage wait of stage 'canary' to end at 2026-12-05T01:10:00Z.",
      "a-2": "Waiting for the after-stage wait of stage 'canary' to end at 2026-12-05T01:10:00Z.",
    });
    // 01:15: a-1 upgrading, a-2 waiting for its turn.
    await drive(created.engine, created.clock, { until: Date.parse("2026-12-05T01:15:00Z") });
    expect(messages(created.engine)).toEqual({ "a-2": "Waiting for its turn in group 'a' (1 member at a time)." });

    const fresh = UpdateRunEngine.create(
      { name: "fresh", members: created.scenario.members, strategy: created.scenario.strategy, ...updateChoiceOf(created.scenario) },
      created.fleet,
    );
    expect(messages(fresh)).toEqual({
      "c-1": "The run has not been started.",
      "a-1": "The run has not been started.",
      "a-2": "The run has not been started.",
    });
  });
});

// -------------------------------------------------------------------------------------------------
describe("§6 maxConcurrency", () => {
  it('group "2": two at a time, as a sliding window (a third starts as soon as one ends)', async () => {
    const out = await simulate(
      scenario({
        members: [member("m-1", { group: "g" }), member("m-2", { group: "g", minutes: 30 }), member("m-3", { group: "g" }), member("m-4", { group: "g" })],
        strategy: '{stages: [{name: s, groups: [{name: g, maxConcurrency: "2"}]}]}',
      }),
    );
    expect(["m-1", "m-2", "m-3", "m-4"].map((m) => out.opStarts(m)[0])).toEqual([
      "2026-12-05T00:00:00Z",
      "2026-12-05T00:00:00Z",
      "2026-12-05T00:10:00Z", // not 00:30: no batches
      "2026-12-05T00:20:00Z",
    ]);
    expect(maxRunningAtOnce(out, ["m-1", "m-2", "m-3", "m-4"])).toBe(2);
  });

  it('group "50%" of 5 members is 2 at a time (rounded down)', async () => {
    const names = ["m-1", "m-2", "m-3", "m-4", "m-5"];
    const out = await simulate(scenario({ members: names.map((n) => member(n, { group: "g" })), strategy: '{stages: [{name: s, groups: [{name: g, maxConcurrency: "50%"}]}]}' }));
    expect(names.map((m) => out.opStarts(m)[0])).toEqual([
      "2026-12-05T00:00:00Z",
      "2026-12-05T00:00:00Z",
      "2026-12-05T00:10:00Z",
      "2026-12-05T00:10:00Z",
      "2026-12-05T00:20:00Z",
    ]);
    expect(maxRunningAtOnce(out, names)).toBe(2);
  });

  it('group "10%" of 3 members is 1 at a time (at least 1)', async () => {
    const names = ["m-1", "m-2", "m-3"];
    const out = await simulate(scenario({ members: names.map((n) => member(n, { group: "g" })), strategy: '{stages: [{name: s, groups: [{name: g, maxConcurrency: "10%"}]}]}' }));
    expect(names.map((m) => out.opStarts(m)[0])).toEqual(["2026-12-05T00:00:00Z", "2026-12-05T00:10:00Z", "2026-12-05T00:20:00Z"]);
    expect(out.run.state).toBe("Completed");
  });

  it("the stage's maxConcurrency caps the sum over its groups", async () => {
    const names = ["a-1", "a-2", "b-1", "b-2"];
    const out = await simulate(
      scenario({
        members: names.map((n) => member(n, { group: n.slice(0, 1) })),
        strategy: '{stages: [{name: s, maxConcurrency: "2", groups: [{name: a, maxConcurrency: "2"}, {name: b, maxConcurrency: "2"}]}]}',
      }),
    );
    expect(maxRunningAtOnce(out, names)).toBe(2);
    expect(names.map((m) => out.opStarts(m)[0])).toEqual(["2026-12-05T00:00:00Z", "2026-12-05T00:10:00Z", "2026-12-05T00:00:00Z", "2026-12-05T00:10:00Z"]);
    expect(out.run.completedTime).toBe("2026-12-05T00:20:00Z");
  });

  it("without a stage cap, groups add up", async () => {
    const names = ["a-1", "a-2", "b-1", "b-2"];
    const out = await simulate(
      scenario({
        members: names.map((n) => member(n, { group: n.slice(0, 1) })),
        strategy: '{stages: [{name: s, groups: [{name: a, maxConcurrency: "2"}, {name: b, maxConcurrency: "2"}]}]}',
      }),
    );
    expect(maxRunningAtOnce(out, names)).toBe(4);
  });
});

// -------------------------------------------------------------------------------------------------
describe("never two operations on one cluster", () => {
  it("a cluster busy with another operation (busyUntil) is Pending until it ends, and is never asked to start early", async () => {
    const yaml = scenario({ members: [member("busy-1", { busyUntil: "2026-12-05T00:30:00Z" }), member("free-1")] });
    const out = await simulate(yaml);
    const pending = out.eventsOf("member", "busy-1")[0];
    expect(pending).toMatchObject({ time: "2026-12-05T00:00:00Z", to: "Pending" });
    expect(pending?.message).toContain("2026-12-05T00:30:00Z");
    expect(out.opStarts("free-1")).toEqual(["2026-12-05T00:00:00Z"]);
    expect(out.opStarts("busy-1")).toEqual(["2026-12-05T00:30:00Z"]);
    expect(out.member("busy-1").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:30:00Z", completedTime: "2026-12-05T00:40:00Z" });

    const { fleet } = await driveScenario(yaml);
    const calls = fleet.startUpgradeCalls();
    expect(calls.map((c) => [c.member, new Date(c.at).toISOString(), "operationId" in c.outcome])).toEqual([
      ["free-1", "2026-12-05T00:00:00.000Z", true],
      ["busy-1", "2026-12-05T00:30:00.000Z", true],
    ]);
  });

  it("retries, stops and restarts never overlap operations on a cluster, nor ask a busy cluster to start", async () => {
    const yaml = scenario({
      members: [member("f-1", { group: "x", fail: "boom", minutes: 25 }), member("y-1", { group: "y", minutes: 45 }), member("y-2", { group: "y" })],
      strategy: '{stages: [{name: s, groups: [{name: x}, {name: y, maxConcurrency: "2"}]}]}',
      actions: [startAt("2026-12-05T00:30:00Z"), stopAt("2026-12-05T00:31:00Z"), startAt("2026-12-05T00:32:00Z"), startAt("2026-12-05T01:00:00Z")],
    });
    const out = await simulate(yaml);
    expectNoOverlappingOperations(out);
    expect(out.opStarts("f-1")).toEqual(["2026-12-05T00:00:00Z", "2026-12-05T00:30:00Z", "2026-12-05T01:00:00Z"]);
    const { fleet } = await driveScenario(yaml);
    expect(fleet.startUpgradeCalls().filter((c) => !("operationId" in c.outcome))).toEqual([]);
  });
});

// -------------------------------------------------------------------------------------------------
describe("resume from a snapshot", () => {
  const yaml = scenario({
    members: [member("c-1", { group: "c" }), member("a-1", { group: "a" }), member("a-2", { group: "a", window: daily("02:00") }), member("b-1", { group: "b", minutes: 40 })],
    strategy: "{stages: [{name: canary, groups: [{name: c}], afterStageWaitInSeconds: 1800}, {name: prod, groups: [{name: a}, {name: b}]}]}",
    update: FULL_TO_1_32("Consistent"),
  });

  /** Drive to each instant in turn, each time snapshotting (through JSON) and resuming in a fresh engine. */
  async function resumedAt(...instants: string[]) {
    const first = await driveScenario(yaml, { until: instants[0] as string });
    let engine = first.engine;
    const events = [...first.events];
    for (const until of [...instants.slice(1), undefined]) {
      const stored = JSON.parse(JSON.stringify(engine.snapshot())) as RunState;
      engine = UpdateRunEngine.resume(stored, first.fleet, { onEvent: (e) => events.push(e) });
      await drive(engine, first.clock, { until: until === undefined ? first.horizon : Date.parse(until) });
    }
    return { engine, fleet: first.fleet, events };
  }

  it("continues mid-upgrade, mid-wait and while a member is Pending without re-upgrading anyone", async () => {
    const plain = await simulate(yaml);
    // 00:05: c-1 upgrading; 00:25: canary wait running; 01:05: a-2 Pending, b-1 upgrading.
    const { engine, fleet, events } = await resumedAt("2026-12-05T00:05:00Z", "2026-12-05T00:25:00Z", "2026-12-05T01:05:00Z");
    expect(engine.status()).toEqual(plain.result.status);
    expect(fleet.snapshot().clusters).toEqual(plain.result.clusters);
    for (const cluster of fleet.snapshot().clusters) expect(cluster.operations, cluster.name).toHaveLength(1);
    expect(fleet.startUpgradeCalls()).toHaveLength(4);
    expect(events).toEqual(plain.events);
    expect(engine.status().status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T02:10:00Z" });
  });
});

// -------------------------------------------------------------------------------------------------
describe("determinism", () => {
  it("the same scenario twice gives byte-identical results", async () => {
    const yaml = scenario({
      regions: {
        westeurope: { ...DEFAULT_REGION, nodeImages: [...(DEFAULT_REGION.nodeImages ?? []), `${IMAGE.DEC}@2026-12-05T00:15:00Z`] },
        eastus: { kubernetesVersions: ["1.31.2", "1.32.0@2026-12-05T03:00:00Z"], nodeImages: [IMAGE.OCT, IMAGE.NOV] },
      },
      members: [
        member("c-1", { group: "c" }),
        member("a-1", { group: "a", window: daily("01:00") }),
        member("a-2", { group: "a", fail: "boom", minutes: 15 }),
        member("a-3", { group: "a", region: "eastus" }),
        member("b-1", { group: "b", busyUntil: "2026-12-05T01:00:00Z" }),
        member("b-2", { group: "b", minutes: 33 }),
        member("b-3", { group: "b", version: "1.32.0", image: IMAGE.DEC }),
      ],
      strategy: '{stages: [{name: canary, groups: [{name: c}], afterStageWaitInSeconds: 900}, {name: prod, maxConcurrency: "3", groups: [{name: a, maxConcurrency: "2"}, {name: b, maxConcurrency: "50%"}]}]}',
      update: FULL_TO_1_32("Latest"),
      actions: [skipAt("2026-12-05T00:05:00Z", ["Member", "b-3"]), stopAt("2026-12-05T00:50:00Z"), startAt("2026-12-05T02:00:00Z")],
    });
    const first = await simulate(yaml);
    const second = await simulate(yaml);
    expect(JSON.stringify(second.result)).toBe(JSON.stringify(first.result));
    expect(JSON.stringify(second.report)).toBe(JSON.stringify(first.report));
  });
});
