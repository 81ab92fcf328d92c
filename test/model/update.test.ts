/**
 * docs/rules.md §1/§2 `managedClusterUpdate`: upgrade type vs kubernetesVersion, version format, node image
 * selection. Checked on the schema directly (prefix `managedClusterUpdate`) and through scenario YAML.
 */
import { describe, expect, it } from "vitest";
import { parseOrThrow } from "../../src/model/issues";
import { parseScenario } from "../../src/simulation/scenario";
import { ManagedClusterUpdateSchema, customImageVersions, describeUpdate } from "../../src/model/update";
import { IMAGE_NEW, IMAGE_OLD, expectIssue, expectValid, scenarioYaml } from "./helpers";

const update = (input: unknown) => parseOrThrow(ManagedClusterUpdateSchema, input, ["managedClusterUpdate"]);
const KV = "managedClusterUpdate.upgrade.kubernetesVersion";
const CUSTOM = "managedClusterUpdate.nodeImageSelection.customNodeImageVersions";

/** A scenario whose `managedClusterUpdate` block is exactly `block` (YAML, indented by two). */
const withUpdate = (block: string) => scenarioYaml((s) => delete s.managedClusterUpdate) + `managedClusterUpdate:\n${block}`;

describe("docs/rules.md §2: Full / ControlPlaneOnly need kubernetesVersion", () => {
  it.each(["Full", "ControlPlaneOnly"])("rejects %s without kubernetesVersion", (type) => {
    expectIssue(() => update({ upgrade: { type } }), KV, `is required for a ${type} upgrade`);
    expectIssue(() => parseScenario(withUpdate(`  upgrade: {type: ${type}}\n`)), KV, `is required for a ${type} upgrade`);
  });

  it.each(["Full", "ControlPlaneOnly"])("accepts %s with one", (type) => {
    expect(expectValid(() => update({ upgrade: { type, kubernetesVersion: "1.32.0" } })).upgrade.kubernetesVersion).toBe("1.32.0");
    expectValid(() => parseScenario(withUpdate(`  upgrade: {type: ${type}, kubernetesVersion: 1.32.0}\n`)));
  });
});

describe("docs/rules.md §2: NodeImageOnly must not have kubernetesVersion", () => {
  it("rejects NodeImageOnly with one", () => {
    expectIssue(() => update({ upgrade: { type: "NodeImageOnly", kubernetesVersion: "1.32.0" } }), KV, "must be absent for a NodeImageOnly upgrade");
    expectIssue(() => parseScenario(withUpdate("  upgrade: {type: NodeImageOnly, kubernetesVersion: 1.32.0}\n")), KV, "must be absent");
  });

  it("accepts NodeImageOnly without one", () => {
    expectValid(() => update({ upgrade: { type: "NodeImageOnly" } }));
    expectValid(() => parseScenario(withUpdate("  upgrade: {type: NodeImageOnly}\n")));
  });

  it("rejects an unknown upgrade type, listing the allowed ones", () => {
    expectIssue(() => update({ upgrade: { type: "Patch", kubernetesVersion: "1.32.0" } }), "managedClusterUpdate.upgrade.type", "Full, ControlPlaneOnly, NodeImageOnly");
    expectIssue(() => update({ upgrade: {} }), "managedClusterUpdate.upgrade.type", "is required");
  });
});

describe("docs/rules.md §2: a version is major.minor.patch", () => {
  it.each(["1.32", "v1.32.0", "1.32.0-beta", "1.32.0.1", "1.x.0", "", " 1.32.0"])("rejects %j", (version) => {
    expectIssue(() => update({ upgrade: { type: "Full", kubernetesVersion: version } }), KV, "major.minor.patch");
  });

  it("rejects 1.32 written as a YAML number, with the same explanation", () => {
    const yaml = withUpdate("  upgrade: {type: Full, kubernetesVersion: 1.32}\n");
    expectIssue(() => parseScenario(yaml), KV, "must be a version of the form major.minor.patch");
    expectIssue(() => update({ upgrade: { type: "Full", kubernetesVersion: 1.32 } }), KV, "major.minor.patch");
  });

  it.each(["\"1.32\"", "v1.32.0", "1.32.0-beta"])("rejects %s through a scenario", (version) => {
    expectIssue(() => parseScenario(withUpdate(`  upgrade: {type: Full, kubernetesVersion: ${version}}\n`)), KV, "major.minor.patch");
  });

  it.each(["1.32.0", "1.9.10", "10.0.0"])("accepts %j", (version) => {
    expectValid(() => update({ upgrade: { type: "ControlPlaneOnly", kubernetesVersion: version } }));
  });

  it("checks versions elsewhere in a scenario too (regions, members, node pools)", () => {
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.regions.eastus.kubernetesVersions[1].version = "1.32"))), "regions.eastus.kubernetesVersions[1].version", "major.minor.patch");
    expectIssue(() => parseScenario(scenarioYaml((s) => (s.members[1].kubernetesVersion = "v1.31.2"))), "members[1].kubernetesVersion", "major.minor.patch");
    expectIssue(
      () => parseScenario(scenarioYaml((s) => (s.members[1].nodePools[0].orchestratorVersion = "1.31.2-beta"))),
      "members[1].nodePools[0].orchestratorVersion",
      "major.minor.patch",
    );
  });
});

describe("docs/rules.md §1/§2: Custom node image selection needs one version per image family", () => {
  const full = { type: "Full", kubernetesVersion: "1.32.0" };

  it("rejects Custom without customNodeImageVersions", () => {
    expectIssue(() => update({ upgrade: full, nodeImageSelection: { type: "Custom" } }), CUSTOM, "is required (one version per image family) when type is Custom");
    expectIssue(() => parseScenario(withUpdate("  upgrade: {type: NodeImageOnly}\n  nodeImageSelection: {type: Custom}\n")), CUSTOM, "is required");
  });

  it("rejects Custom with an empty list", () => {
    expectIssue(() => update({ upgrade: full, nodeImageSelection: { type: "Custom", customNodeImageVersions: [] } }), CUSTOM, "is required");
    expectIssue(
      () => parseScenario(withUpdate("  upgrade: {type: NodeImageOnly}\n  nodeImageSelection: {type: Custom, customNodeImageVersions: []}\n")),
      CUSTOM,
      "is required",
    );
  });

  it("rejects two versions of one family, at the second version", () => {
    const selection = { type: "Custom", customNodeImageVersions: [{ version: IMAGE_OLD }, { version: IMAGE_NEW }] };
    const issues = expectIssue(
      () => update({ upgrade: full, nodeImageSelection: selection }),
      `${CUSTOM}[1].version`,
      "second version of image family 'AKSUbuntu-2204gen2containerd' (also customNodeImageVersions[0])",
    );
    expect(issues).toHaveLength(1);
    expectIssue(
      () =>
        parseScenario(
          withUpdate(`  upgrade: {type: NodeImageOnly}\n  nodeImageSelection:\n    type: Custom\n    customNodeImageVersions: [{version: ${IMAGE_OLD}}, {version: ${IMAGE_NEW}}]\n`),
        ),
      `${CUSTOM}[1].version`,
      "second version of image family",
    );
  });

  it("accepts one version for each of two families", () => {
    const selection = { type: "Custom", customNodeImageVersions: [{ version: IMAGE_NEW }, { version: "AzureLinux-V2gen2-202611.24.0" }] };
    expectValid(() => update({ upgrade: full, nodeImageSelection: selection }));
    expectValid(() =>
      parseScenario(withUpdate(`  upgrade: {type: NodeImageOnly}\n  nodeImageSelection: {type: Custom, customNodeImageVersions: [{version: ${IMAGE_NEW}}]}\n`)),
    );
  });

  it("rejects a malformed node image version", () => {
    expectIssue(
      () => update({ upgrade: full, nodeImageSelection: { type: "Custom", customNodeImageVersions: [{ version: "latest" }] } }),
      `${CUSTOM}[0].version`,
      "node image version such as",
    );
  });

  it.each(["Latest", "Consistent"])("rejects customNodeImageVersions with type %s", (type) => {
    expectIssue(
      () => update({ upgrade: full, nodeImageSelection: { type, customNodeImageVersions: [{ version: IMAGE_NEW }] } }),
      CUSTOM,
      `must be absent unless type is Custom (type is ${type})`,
    );
    expectIssue(
      () => parseScenario(withUpdate(`  upgrade: {type: NodeImageOnly}\n  nodeImageSelection: {type: ${type}, customNodeImageVersions: [{version: ${IMAGE_NEW}}]}\n`)),
      CUSTOM,
      "must be absent unless type is Custom",
    );
  });

  it.each(["Latest", "Consistent"])("accepts type %s without versions, and no selection at all", (type) => {
    expectValid(() => update({ upgrade: full, nodeImageSelection: { type } }));
    expectValid(() => update({ upgrade: full }));
  });

  it("rejects an unknown selection type", () => {
    expectIssue(() => update({ upgrade: full, nodeImageSelection: { type: "Newest" } }), "managedClusterUpdate.nodeImageSelection.type", "Latest, Consistent, Custom");
  });
});

describe("an update in one line, as plan, the CLI's tree and the report show a generated update", () => {
  it.each([
    [{ upgrade: { type: "Full", kubernetesVersion: "1.32.3" } }, "Full to 1.32.3, Latest images"],
    [{ upgrade: { type: "Full", kubernetesVersion: "1.32.3" }, nodeImageSelection: { type: "Consistent" } }, "Full to 1.32.3, Consistent images"],
    [{ upgrade: { type: "NodeImageOnly" }, nodeImageSelection: { type: "Latest" } }, "NodeImageOnly, Latest images"],
    [{ upgrade: { type: "NodeImageOnly" } }, "NodeImageOnly, Latest images"],
    [{ upgrade: { type: "ControlPlaneOnly", kubernetesVersion: "1.33.0" } }, "ControlPlaneOnly to 1.33.0"],
  ])("%j: %s", (update, line) => {
    expect(describeUpdate(update)).toBe(line);
  });
});

describe("the Custom node image versions a run asks for (the images the simulated and emulated fleets offer it)", () => {
  const full = { type: "Full" as const, kubernetesVersion: "1.32.0" };

  it("a Custom selection's versions, in its order", () => {
    expect(customImageVersions({ upgrade: full, nodeImageSelection: { type: "Custom", customNodeImageVersions: [{ version: IMAGE_NEW }, { version: "AzureLinux-V2gen2-202611.24.0" }] } })).toEqual([IMAGE_NEW, "AzureLinux-V2gen2-202611.24.0"]);
  });

  it("none for another selection, for no selection, and for a run whose update is generated at its start", () => {
    expect(customImageVersions({ upgrade: full, nodeImageSelection: { type: "Latest" } })).toEqual([]);
    expect(customImageVersions({ upgrade: full })).toEqual([]);
    expect(customImageVersions(undefined)).toEqual([]);
  });
});
