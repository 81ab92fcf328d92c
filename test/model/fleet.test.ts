/**
 * docs/rules.md §7 simulated world: the simulated fleet's file (`fleet.yaml`, `backend.simulator.fleetFile`),
 * read as the Pulumi resources read it (`readFleetDescription`). A file with a wrong value, an unknown
 * value or a broken cross-field rule is refused with one line naming the file, the field path and what
 * is wrong; a valid one is read with its values and defaults. Issue 34: these rules were read by no test
 * in the mutation run, so any message could be emptied or a choice dropped without a test failing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFleetDescription } from "../../src/backends/simulator/fileBacked";
import type { Fleet } from "../../src/model/fleet";
import { ValidationError, type FieldIssue } from "../../src/model/issues";
import { IMAGE_NEW, member, type Doc } from "./helpers";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A valid fleet file: one region offering two versions (one a preview) and an image, one member. */
function validFleet(): Doc {
  return {
    regions: {
      westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0", isPreview: true }], nodeImages: [{ version: IMAGE_NEW }] },
    },
    members: [member("a")],
  };
}

/** `doc` written as a fleet file (JSON is YAML) and read back: the file's path and what reading it gave. */
function read(mutate: (f: Doc) => void): { file: string; fleet?: Fleet; issues?: FieldIssue[] } {
  const doc = validFleet();
  mutate(doc);
  const dir = mkdtempSync(join(tmpdir(), "fleet-file-"));
  dirs.push(dir);
  const file = join(dir, "fleet.yaml");
  writeFileSync(file, JSON.stringify(doc));
  try {
    return { file, fleet: readFleetDescription(file) };
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return { file, issues: e.issues };
  }
}

const accepted = (mutate: (f: Doc) => void): Fleet => {
  const { fleet, issues } = read(mutate);
  expect(issues?.map((i) => i.message)).toBeUndefined();
  return fleet!;
};

/** The lines refusing the file, each `<file>: <field path>: <message>` under `backend.simulator.fleetFile`. */
function refusals(mutate: (f: Doc) => void): string[] {
  const { file, issues } = read(mutate);
  expect(issues, "the fleet file was accepted").toBeDefined();
  for (const issue of issues!) expect(issue.path).toBe("backend.simulator.fleetFile");
  return issues!.map((i) => i.message.replace(`${file}: `, ""));
}

const sim = (f: Doc, simulation: Doc) => (f.members[0].simulation = simulation);
const metric = (f: Doc, fields: Doc) => sim(f, { metrics: [{ name: "cluster_error_rate", value: 0.01, ...fields }] });
const METRIC = "members[0].simulation.metrics[0]";
const PROFILE = "members[0].autoUpgradeProfile";

describe("a fleet file with a wrong value is refused, naming the field path (docs/rules.md §7)", () => {
  it.each<[string, (f: Doc) => void, string]>([
    ["isPreview as text", (f) => (f.regions.westeurope.kubernetesVersions[1].isPreview = "yes"), "regions.westeurope.kubernetesVersions[1].isPreview: must be true or false"],
    ["a region key that is not a region name", (f) => (f.regions["West-Europe"] = {}), "regions.West-Europe: must be an Azure region name such as westeurope"],
    ["a metric without a name", (f) => metric(f, { name: undefined }), `${METRIC}.name: is required`],
    ["a metric name that is a number", (f) => metric(f, { name: 5 }), `${METRIC}.name: must be a metric name`],
    ["a metric name starting with a digit", (f) => metric(f, { name: "9lives" }), `${METRIC}.name: must be a Prometheus metric name such as cluster_error_rate`],
    ["a metric name with a dash", (f) => metric(f, { name: "error-rate" }), `${METRIC}.name: must be a Prometheus metric name such as cluster_error_rate`],
    ["a label name starting with a digit", (f) => metric(f, { labels: { "9zone": "eu" } }), `${METRIC}.labels.9zone: must be a Prometheus label name`],
    ["a label name with a dash", (f) => metric(f, { labels: { "zone-a": "eu" } }), `${METRIC}.labels.zone-a: must be a Prometheus label name`],
    ["a label name with a colon (metric names only)", (f) => metric(f, { labels: { "zone:a": "eu" } }), `${METRIC}.labels.zone:a: must be a Prometheus label name`],
    ["a label value that is a number", (f) => metric(f, { labels: { zone: 1 } }), `${METRIC}.labels.zone: must be a string`],
    ["the label cluster", (f) => metric(f, { labels: { zone: "eu", cluster: "a" } }), `${METRIC}.labels: the label cluster is the cluster's name, set by the simulator`],
    ["a metric without a value", (f) => metric(f, { value: undefined }), `${METRIC}.value: is required`],
    ["a value as text", (f) => metric(f, { value: "high" }), `${METRIC}.value: must be a number`],
    ["afterUpgrade as text", (f) => metric(f, { afterUpgrade: "high" }), `${METRIC}.afterUpgrade: must be a number`],
    ["metrics that are not a list", (f) => sim(f, { metrics: "cluster_error_rate" }), "members[0].simulation.metrics: must be a list of metrics"],
    ["51 metrics", (f) => sim(f, { metrics: Array.from({ length: 51 }, (_, i) => ({ name: `m${i}`, value: 0 })) }), "members[0].simulation.metrics: at most 50 metrics"],
    ["an unknown upgrade channel", (f) => (f.members[0].autoUpgradeProfile = { upgradeChannel: "fast" }), `${PROFILE}.upgradeChannel: must be none, patch, stable, rapid or node-image`],
    ["an unknown node OS channel", (f) => (f.members[0].autoUpgradeProfile = { nodeOSUpgradeChannel: "Weekly" }), `${PROFILE}.nodeOSUpgradeChannel: must be None, Unmanaged, NodeImage or SecurityPatch`],
    ["an unknown field of the profile", (f) => (f.members[0].autoUpgradeProfile = { channel: "patch" }), `${PROFILE}.channel: unknown field`],
  ])("%s", (_what, mutate, line) => {
    expect(refusals(mutate)).toEqual([line]);
  });
});

describe("a fleet file breaking a cross-field rule is refused, naming the field path", () => {
  it("two members of one name: the second is named, with the first", () => {
    expect(refusals((f) => f.members.push(member("b"), member("a")))).toEqual(["members[2].name: duplicate member name 'a' (also members[0])"]);
  });

  it("a member in a region the file does not declare", () => {
    expect(refusals((f) => f.members.push(member("b", undefined, "eastus")))).toEqual(["members[1].region: region 'eastus' is not declared under regions"]);
  });

  it("two node pools of one name in a member", () => {
    expect(refusals((f) => f.members[0].nodePools.push({ ...f.members[0].nodePools[0] }))).toEqual(["members[0].nodePools[1].name: duplicate node pool name 'system'"]);
  });
});

describe("a valid fleet file is read with its values and defaults", () => {
  it("a region that lists nothing offers no version and no image", () => {
    const fleet = accepted((f) => {
      f.regions.eastus = {};
      f.members.push(member("b", undefined, "eastus"));
    });
    expect(fleet.regions.eastus).toEqual({ kubernetesVersions: [], nodeImages: [] });
    expect(fleet.regions.westeurope!.kubernetesVersions).toEqual([{ version: "1.31.2" }, { version: "1.32.0", isPreview: true }]);
  });

  it("a failing upgrade without code or message fails with UpgradeFailed, 'the upgrade failed'", () => {
    expect(accepted((f) => sim(f, { fail: {} })).members[0]!.simulation!.fail).toEqual({ code: "UpgradeFailed", message: "the upgrade failed" });
  });

  it.each(["Running", "Stopped"])("powerState %s", (powerState) => {
    expect(accepted((f) => sim(f, { powerState })).members[0]!.simulation!.powerState).toBe(powerState);
  });

  it("metrics with Prometheus names and labels, before and after the upgrade", () => {
    const metrics = [
      { name: "cluster:error_rate", labels: { zone: "eu", _shard: "", Ring_2: "canary" }, value: 0.01, afterUpgrade: 0.2 },
      { name: "_up", value: 1 },
    ];
    expect(accepted((f) => sim(f, { metrics })).members[0]!.simulation!.metrics).toEqual(metrics);
  });

  it("50 metrics", () => {
    expect(accepted((f) => sim(f, { metrics: Array.from({ length: 50 }, (_, i) => ({ name: `m${i}`, value: i })) })).members[0]!.simulation!.metrics).toHaveLength(50);
  });

  it.each(["none", "patch", "stable", "rapid", "node-image"])("upgradeChannel %s", (upgradeChannel) => {
    expect(accepted((f) => (f.members[0].autoUpgradeProfile = { upgradeChannel })).members[0]!.autoUpgradeProfile).toEqual({ upgradeChannel });
  });

  it.each(["None", "Unmanaged", "NodeImage", "SecurityPatch"])("nodeOSUpgradeChannel %s", (nodeOSUpgradeChannel) => {
    expect(accepted((f) => (f.members[0].autoUpgradeProfile = { upgradeChannel: "patch", nodeOSUpgradeChannel })).members[0]!.autoUpgradeProfile).toEqual({ upgradeChannel: "patch", nodeOSUpgradeChannel });
  });
});
