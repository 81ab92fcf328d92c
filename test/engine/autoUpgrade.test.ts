/**
 * Issue 22, docs/rules.md §18: a run given an `autoUpgradeProfile` gets its `managedClusterUpdate` at its
 * start, from the versions its members' regions offer then: Rapid, Stable, TargetKubernetesVersion,
 * NodeImage; a member whose region lacks the version waits Pending; no qualifying version fails the run
 * at its start with nothing touched; the update is generated once (a stop and start, or a resume, keeps
 * it); the plan predicts it; bad profiles are refused naming the field.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RunJournal } from "../../src/drivers/engine/journal";
import { VirtualClock } from "../../src/engine/clock";
import { UpdateRunEngine } from "../../src/engine/engine";
import { SimulatedFleet } from "../../src/backends/simulator/simulatedFleet";
import { updateChoiceOf } from "../../src/model/autoUpgrade";
import { ValidationError } from "../../src/model/issues";
import { parseScenario } from "../../src/simulation/scenario";
import { buildPlan } from "../../src/plan/buildPlan";
import { worldFromScenario } from "../../src/plan/fromScenario";
import { IMAGE, member, scenario, simulate, startAt, stopAt } from "./helpers";

/** Two regions: westeurope's newest minor is 1.32, eastus's 1.33. */
const REGIONS = {
  westeurope: { kubernetesVersions: ["1.31.2", "1.31.9", "1.31.10", "1.32.0", "1.32.4"], nodeImages: [IMAGE.NOV] },
  eastus: { kubernetesVersions: ["1.31.2", "1.32.0", "1.32.2", "1.33.0", "1.33.1"], nodeImages: [IMAGE.NOV] },
};
const MEMBERS = [member("eu-1"), member("us-1", { region: "eastus" })];

async function generated(profile: string, regions: typeof REGIONS | Record<string, { kubernetesVersions: string[]; nodeImages: string[] }> = REGIONS, members = MEMBERS) {
  const out = await simulate(scenario({ regions, members, autoUpgradeProfile: profile }));
  return { out, update: out.report.generatedUpdate };
}

describe("preview versions (isPreview) are never picked", () => {
  it("Rapid and TargetKubernetesVersion skip a preview minor and a preview patch; Stable counts minors without the preview one", async () => {
    const yaml = (profile: string) => `
start: 2026-12-05T00:00:00Z
regions:
  westeurope:
    kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}, {version: 1.32.4}, {version: 1.32.5, isPreview: true}, {version: 1.33.0, isPreview: true}]
    nodeImages: [{version: ${IMAGE.NOV}}]
members:
  - {name: eu-1, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${IMAGE.NOV}}]}
autoUpgradeProfile: ${profile}
`;
    const run = async (profile: string) => (await simulate(yaml(profile))).report.generatedUpdate?.upgrade;
    expect(await run("{channel: Rapid}")).toEqual({ type: "Full", kubernetesVersion: "1.32.4" });
    expect(await run("{channel: TargetKubernetesVersion, targetKubernetesVersion: '1.32'}")).toEqual({ type: "Full", kubernetesVersion: "1.32.4" });
    expect(await run("{channel: Stable}")).toEqual({ type: "Full", kubernetesVersion: "1.31.2" });
  });
});

describe("the channels, over every member's region at the run's start", () => {
  it("Rapid: the latest patch of the newest minor (1.33.1, offered in eastus only: eu-1 waits Pending for it)", async () => {
    const { out, update } = await generated("{channel: Rapid}", REGIONS, [member("eu-1", { version: "1.32.0" }), member("us-1", { region: "eastus", version: "1.32.0" })]);
    expect(update).toEqual({ upgrade: { type: "Full", kubernetesVersion: "1.33.1" }, nodeImageSelection: { type: "Latest" } });
    expect(out.member("us-1").status.state).toBe("Completed");
    // westeurope never offers 1.33.1: its member is Pending at the horizon, as any run's member would be.
    expect(out.member("eu-1").status.state).toBe("Pending");
    expect(out.member("eu-1").message).toContain("1.33.1");
  });

  it("Stable: the latest patch of the minor before the newest (1.32.4, from westeurope; numerically, not as text)", async () => {
    const { update } = await generated("{channel: Stable}");
    expect(update?.upgrade).toEqual({ type: "Full", kubernetesVersion: "1.32.4" });
  });

  it("TargetKubernetesVersion: the latest patch of the minor given (1.31.10 beats 1.31.9)", async () => {
    const { out, update } = await generated("{channel: TargetKubernetesVersion, targetKubernetesVersion: '1.31', nodeImageSelection: {type: Consistent}}");
    expect(update).toEqual({ upgrade: { type: "Full", kubernetesVersion: "1.31.10" }, nodeImageSelection: { type: "Consistent" } });
    expect(out.cluster("eu-1").kubernetesVersion).toBe("1.31.10");
  });

  it.each(["NodeImage", "SecurityPatch"])("%s: NodeImageOnly with the latest images; the Kubernetes version is left alone", async (channel) => {
    const { out, update } = await generated(`{channel: ${channel}}`);
    expect(update).toEqual({ upgrade: { type: "NodeImageOnly" }, nodeImageSelection: { type: "Latest" } });
    expect(out.run.state).toBe("Completed");
    expect(out.cluster("eu-1")).toMatchObject({ kubernetesVersion: "1.31.2", nodePools: [{ nodeImageVersion: IMAGE.NOV }] });
    expect(out.ops("us-1").map((o) => o.kind)).toEqual(["NodeImageOnly"]);
  });

  it("a version announced for later is not considered: the run takes what is offered at its start, and keeps it", async () => {
    const later = { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0", "1.33.0@2026-12-05T00:05:00Z"], nodeImages: [IMAGE.NOV] } };
    const { out, update } = await generated("{channel: Rapid}", later, [member("a-1"), member("a-2")]);
    expect(update?.upgrade.kubernetesVersion).toBe("1.32.0");
    // a-2 starts after 1.33.0 arrived: it still gets the run's 1.32.0.
    expect(out.cluster("a-2").kubernetesVersion).toBe("1.32.0");
  });

  it("a version that becomes available at the very instant the run starts is offered then, and taken", async () => {
    const atStart = { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0", "1.33.0@2026-12-05T00:00:00Z"], nodeImages: [IMAGE.NOV] } };
    const { out, update } = await generated("{channel: Rapid}", atStart, [member("a-1", { version: "1.32.0" })]);
    expect(update?.upgrade.kubernetesVersion).toBe("1.33.0");
    expect(out.cluster("a-1").kubernetesVersion).toBe("1.33.0");
  });
});

describe("no qualifying version", () => {
  const ONE_MINOR = { westeurope: { kubernetesVersions: ["1.32.0", "1.32.1"], nodeImages: [IMAGE.NOV] } };

  it("fails the run at its start (NoUpgradeVersion, naming the field); no member is touched", async () => {
    const out = await simulate(scenario({ regions: ONE_MINOR, members: [member("a-1"), member("a-2")], autoUpgradeProfile: "{channel: Stable}" }));
    expect(out.run.state).toBe("Failed");
    expect(out.run.error?.code).toBe("NoUpgradeVersion");
    expect(out.run.error?.message).toMatch(/^autoUpgradeProfile\.channel: Stable needs minor 1\.31/);
    expect(out.memberNames().map((n) => out.member(n).status.state)).toEqual(["NotStarted", "NotStarted"]);
    // The run failed; it was not stopped.
    expect(out.member("a-1").message).toBe("Not started: the run failed before this member was reached.");
    expect([...out.ops("a-1"), ...out.ops("a-2")]).toEqual([]);
    expect(out.report.generatedUpdate).toBeUndefined();
  });

  it("a target minor no region offers names targetKubernetesVersion", async () => {
    const out = await simulate(scenario({ regions: ONE_MINOR, members: [member("a-1")], autoUpgradeProfile: "{channel: TargetKubernetesVersion, targetKubernetesVersion: '1.34'}" }));
    expect(out.run.error?.message).toMatch(/^autoUpgradeProfile\.targetKubernetesVersion: no generally available patch of 1\.34/);
  });

  it("starting the run again generates again, at that instant", async () => {
    const regions = { westeurope: { kubernetesVersions: ["1.32.0", "1.31.5@2026-12-05T02:00:00Z"], nodeImages: [IMAGE.NOV] } };
    const out = await simulate(scenario({ regions, members: [member("a-1")], autoUpgradeProfile: "{channel: Stable}", actions: ["{at: 2026-12-05T03:00:00Z, start: true}"] }));
    expect(out.report.generatedUpdate?.upgrade.kubernetesVersion).toBe("1.31.5");
    expect(out.run.state).toBe("Completed");
    expect(out.run.error).toBeUndefined();
  });
});

describe("a run that failed to generate, started and stopped at once", () => {
  it("is Stopped, not Failed again: the start took the old generation error away", async () => {
    const ONE_MINOR = { westeurope: { kubernetesVersions: ["1.32.0", "1.32.1"], nodeImages: [IMAGE.NOV] } };
    const out = await simulate(
      scenario({ regions: ONE_MINOR, members: [member("a-1")], autoUpgradeProfile: "{channel: Stable}", actions: [startAt("2026-12-05T01:00:00Z"), stopAt("2026-12-05T01:00:00Z")] }),
    );
    expect(out.transitions("run", "scenario")).toEqual(["2026-12-05T00:00:00Z NotStarted->Failed", "2026-12-05T01:00:00Z Failed->Stopped"]);
    expect(out.run).toEqual({ state: "Stopped", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T01:00:00Z" });
  });
});

describe("generated once", () => {
  it("a stop and a start later keep the update generated at the first start", async () => {
    const regions = { westeurope: { kubernetesVersions: ["1.31.2", "1.32.0", "1.33.0@2026-12-05T01:00:00Z"], nodeImages: [IMAGE.NOV] } };
    const out = await simulate(
      scenario({
        regions,
        members: [member("a-1", { minutes: 30 }), member("a-2")],
        autoUpgradeProfile: "{channel: Rapid}",
        actions: ["{at: 2026-12-05T00:10:00Z, stop: true}", "{at: 2026-12-05T02:00:00Z, start: true}"],
      }),
    );
    expect(out.report.generatedUpdate?.upgrade.kubernetesVersion).toBe("1.32.0");
    expect(out.cluster("a-2").kubernetesVersion).toBe("1.32.0");
  });

  it("a resumed engine keeps it (it is in the run's state), though its regions now offer a newer version", async () => {
    const parsed = parseScenario(scenario({ members: [member("a-1"), member("a-2")], autoUpgradeProfile: "{channel: Rapid}" }));
    const clock = new VirtualClock(Date.parse(parsed.start));
    const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
    const engine = UpdateRunEngine.create({ name: "r", members: parsed.members, ...updateChoiceOf(parsed) }, fleet.atOnce);
    engine.start(clock.now());
    await engine.reconcile(clock.now());
    const snapshot = engine.snapshot();
    expect(snapshot.managedClusterUpdate?.upgrade.kubernetesVersion).toBe("1.32.0");
    const newer = {
      ...fleet.atOnce,
      getRegionOffer: (region: string) => {
        const offer = fleet.regionOfferNow(region);
        return { ...offer, kubernetesVersions: [...offer.kubernetesVersions, { version: "1.33.0" }] };
      },
    };
    const resumed = UpdateRunEngine.resume(snapshot, newer);
    await resumed.reconcile(clock.now() + 60_000);
    expect(resumed.results().generatedUpdate?.upgrade.kubernetesVersion).toBe("1.32.0");
  });
});

describe("a crash after the first start", () => {
  it("the journal already holds the generated update: the resumed run keeps it though a newer version came out meanwhile", async () => {
    const parsed = parseScenario(scenario({ members: [member("a-1"), member("a-2")], autoUpgradeProfile: "{channel: Rapid}" }));
    const clock = new VirtualClock(Date.parse(parsed.start));
    const fleet = new SimulatedFleet({ regions: parsed.regions, members: parsed.members }, clock);
    const journal = new RunJournal(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "auto-upgrade-")), "run.json"));
    class Killed extends Error {}
    let engine: UpdateRunEngine | undefined;
    const run = () => ({ runId: "r", identity: "i", engine: engine as UpdateRunEngine });
    engine = UpdateRunEngine.create({ name: "r", members: parsed.members, ...updateChoiceOf(parsed) }, fleet.atOnce, {
      trackChanges: true,
      checkpoint: (intent) => {
        if (intent === undefined) return journal.commit(run());
        journal.intent(run(), intent);
        // The process dies right after the first write-ahead intent, before the pass's commit.
        throw new Killed();
      },
    });
    // Journaled before its start (a run created NotStarted, started later in the same process): from
    // here a write-ahead intent is written alone.
    journal.commit(run());
    engine.start(clock.now());
    await expect(engine.reconcile(clock.now())).rejects.toBeInstanceOf(Killed);
    const stored = journal.read()?.engineState;
    expect(stored?.managedClusterUpdate?.upgrade.kubernetesVersion).toBe("1.32.0");
    expect(stored?.stages[0]?.groups[0]?.members[0]?.request?.kubernetesVersion).toBe("1.32.0");
  });
});

describe("the plan", () => {
  it("shows the update the channel would generate at the planned start", async () => {
    const plan = await buildPlan(worldFromScenario(parseScenario(scenario({ regions: REGIONS, members: MEMBERS, autoUpgradeProfile: "{channel: Stable}" }))));
    expect(plan.managedClusterUpdate?.upgrade).toEqual({ type: "Full", kubernetesVersion: "1.32.4" });
    // eastus does not offer 1.32.4: the region finding names it, as for a version written out.
    expect(plan.findings.map((f) => f.code)).toContain("VERSION_NOT_IN_REGION");
  });

  it("says NO_UPGRADE_VERSION when none qualifies", async () => {
    const regions = { westeurope: { kubernetesVersions: ["1.32.0"], nodeImages: [IMAGE.NOV] } };
    const plan = await buildPlan(worldFromScenario(parseScenario(scenario({ regions, members: [member("a-1")], autoUpgradeProfile: "{channel: Stable}" }))));
    expect(plan.findings).toContainEqual(expect.objectContaining({ severity: "error", code: "NO_UPGRADE_VERSION" }));
    expect(plan.run.predictedState).toBe("Failed");
    expect(plan.managedClusterUpdate).toBeUndefined();
  });
});

describe("validation, naming the field", () => {
  const issues = (text: string) => {
    try {
      parseScenario(text);
    } catch (e) {
      if (e instanceof ValidationError) return e.issues;
      throw e;
    }
    throw new Error("accepted");
  };
  const base = (profile: string) => scenario({ members: [member("a-1")], autoUpgradeProfile: profile });

  it.each([
    ["an unknown channel", "{channel: Fast}", "autoUpgradeProfile.channel", "must be one of Stable, Rapid, NodeImage, TargetKubernetesVersion, SecurityPatch"],
    ["TargetKubernetesVersion without its version", "{channel: TargetKubernetesVersion}", "autoUpgradeProfile.targetKubernetesVersion", "is required when channel is TargetKubernetesVersion"],
    ["a patch in targetKubernetesVersion", "{channel: TargetKubernetesVersion, targetKubernetesVersion: '1.31.2'}", "autoUpgradeProfile.targetKubernetesVersion", "must be of the form major.minor"],
    ["targetKubernetesVersion on another channel", "{channel: Stable, targetKubernetesVersion: '1.31'}", "autoUpgradeProfile.targetKubernetesVersion", "is taken only when channel is TargetKubernetesVersion"],
    ["longTermSupport on another channel", "{channel: Rapid, longTermSupport: true}", "autoUpgradeProfile.longTermSupport", "must be false unless channel is TargetKubernetesVersion"],
    ["a Custom image selection", "{channel: Rapid, nodeImageSelection: {type: Custom}}", "autoUpgradeProfile.nodeImageSelection.type", "must be one of Latest, Consistent"],
  ])("%s", (_name, profile, path, message) => {
    expect(issues(base(profile))).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it("both an update and a profile", () => {
    const text = `${base("{channel: Rapid}")}managedClusterUpdate: {upgrade: {type: ControlPlaneOnly, kubernetesVersion: 1.32.0}}\n`;
    expect(issues(text)).toContainEqual({ path: "autoUpgradeProfile", message: "give either managedClusterUpdate or autoUpgradeProfile, not both" });
  });
});
