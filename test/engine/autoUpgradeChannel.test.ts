/** Issue 22: the channel rule alone (`generateUpdateForChannel`), over offers given by hand. */
import { describe, expect, test } from "vitest";
import { generateUpdateForChannel, LONG_TERM_SUPPORT_PLAN } from "../../src/engine/autoUpgradeChannel";

// westeurope is ahead (1.33 is out there), eastus behind; 1.31.10 must beat 1.31.9 numerically.
const OFFERS = {
  westeurope: ["1.31.9", "1.31.10", "1.32.3", "1.32.4", "1.33.1"],
  eastus: ["1.31.9", "1.32.2", "1.32.5"],
};

const version = (result: ReturnType<typeof generateUpdateForChannel>) => (result.ok ? result.update.upgrade.kubernetesVersion : `${result.field}: ${result.message}`);

describe("generateUpdateForChannel", () => {
  test("Rapid: the latest patch of the newest minor offered in any of the regions", () => {
    expect(version(generateUpdateForChannel({ channel: "Rapid" }, OFFERS, ["westeurope", "eastus"]))).toBe("1.33.1");
    expect(version(generateUpdateForChannel({ channel: "Rapid" }, OFFERS, ["eastus"]))).toBe("1.32.5");
  });

  test("Stable: the latest patch of the minor before the newest, across the regions", () => {
    const result = generateUpdateForChannel({ channel: "Stable", nodeImageSelection: { type: "Consistent" } }, OFFERS, ["westeurope", "eastus"]);
    expect(result).toEqual({ ok: true, update: { upgrade: { type: "Full", kubernetesVersion: "1.32.5" }, nodeImageSelection: { type: "Consistent" } } });
    expect(version(generateUpdateForChannel({ channel: "Stable" }, OFFERS, ["eastus"]))).toBe("1.31.9");
  });

  test("TargetKubernetesVersion: the latest patch of the minor given, compared numerically", () => {
    expect(version(generateUpdateForChannel({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.31" }, OFFERS, ["westeurope", "eastus"]))).toBe("1.31.10");
  });

  test.each(["NodeImage", "SecurityPatch"] as const)("%s: NodeImageOnly with the latest images, whatever is offered", (channel) => {
    expect(generateUpdateForChannel({ channel }, {}, ["westeurope"])).toEqual({ ok: true, update: { upgrade: { type: "NodeImageOnly" }, nodeImageSelection: { type: "Latest" } } });
    expect(generateUpdateForChannel({ channel, targetKubernetesVersion: "1.31" }, {}, ["westeurope"])).toMatchObject({ ok: false, field: "targetKubernetesVersion" });
  });

  test("preview versions are never chosen", () => {
    const offers = { westeurope: [{ version: "1.34.0", isPreview: true }, "1.33.2", "1.32.7"] };
    expect(version(generateUpdateForChannel({ channel: "Rapid" }, offers, ["westeurope"]))).toBe("1.33.2");
    expect(version(generateUpdateForChannel({ channel: "Stable" }, offers, ["westeurope"]))).toBe("1.32.7");
  });

  test("no version qualifies: the reason names the field", () => {
    expect(generateUpdateForChannel({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.29" }, OFFERS, ["westeurope"])).toEqual({
      ok: false,
      field: "targetKubernetesVersion",
      message: "no generally available patch of 1.29 is offered in region westeurope",
    });
    expect(generateUpdateForChannel({ channel: "Stable" }, { westeurope: ["1.33.1"] }, ["westeurope"])).toMatchObject({ ok: false, field: "channel" });
    expect(generateUpdateForChannel({ channel: "Rapid" }, OFFERS, ["northeurope"])).toMatchObject({ ok: false, field: "channel" });
    expect(generateUpdateForChannel({ channel: "TargetKubernetesVersion" }, OFFERS, ["westeurope"])).toMatchObject({ ok: false, field: "targetKubernetesVersion", message: "is required when channel is TargetKubernetesVersion" });
    expect(generateUpdateForChannel({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.31.2" }, OFFERS, ["westeurope"])).toMatchObject({ ok: false, field: "targetKubernetesVersion" });
    expect(generateUpdateForChannel({ channel: "Rapid", longTermSupport: true }, OFFERS, ["westeurope"])).toMatchObject({ ok: false, field: "longTermSupport" });
    expect(generateUpdateForChannel({ channel: "Stable", targetKubernetesVersion: "1.31" }, OFFERS, ["westeurope"])).toMatchObject({ ok: false, field: "targetKubernetesVersion" });
  });

  test("a minor older than N-2 only with longTermSupport, and only when AKS supports it long-term", () => {
    const lts = [LONG_TERM_SUPPORT_PLAN];
    const offers = { westeurope: [{ version: "1.27.100", supportPlan: lts }, "1.28.3", "1.30.1", "1.31.1", "1.32.1"] };
    const profile = { channel: "TargetKubernetesVersion" as const, targetKubernetesVersion: "1.27" };
    expect(generateUpdateForChannel(profile, offers, ["westeurope"])).toMatchObject({ ok: false, field: "longTermSupport" });
    expect(version(generateUpdateForChannel({ ...profile, longTermSupport: true }, offers, ["westeurope"]))).toBe("1.27.100");
    expect(generateUpdateForChannel({ ...profile, targetKubernetesVersion: "1.28", longTermSupport: true }, offers, ["westeurope"])).toMatchObject({ ok: false, field: "targetKubernetesVersion" });
    expect(version(generateUpdateForChannel({ ...profile, targetKubernetesVersion: "1.30" }, offers, ["westeurope"]))).toBe("1.30.1");
  });

  test("an offered version that is not major.minor.patch is never chosen (a release candidate, a prefixed one, a bare minor)", () => {
    const offers = { westeurope: ["1.34.0-rc.1", "v1.35.0", "1.36", "1.33.2", "1.32.7"] };
    expect(version(generateUpdateForChannel({ channel: "Rapid" }, offers, ["westeurope"]))).toBe("1.33.2");
    for (const minor of ["1.34", "1.35"]) {
      expect(version(generateUpdateForChannel({ channel: "TargetKubernetesVersion", targetKubernetesVersion: minor }, offers, ["westeurope"]))).toBe(
        `targetKubernetesVersion: no generally available patch of ${minor} is offered in region westeurope`,
      );
    }
  });

  test("versions are read as numbers, majors included: 10.0 is newer than 1.33, and 2.0's patches are not 1.0's", () => {
    const offers = { westeurope: ["1.0.9", "1.33.2", "2.0.1", "10.0.3"] };
    expect(version(generateUpdateForChannel({ channel: "Rapid" }, offers, ["westeurope"]))).toBe("10.0.3");
    expect(version(generateUpdateForChannel({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.0", longTermSupport: true }, { westeurope: [{ version: "1.0.9", supportPlan: ["AKSLongTermSupport"] }, "2.0.1"] }, ["westeurope"]))).toBe("1.0.9");
    // A target of an older major is older than N-2.
    expect(generateUpdateForChannel({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.33" }, offers, ["westeurope"])).toEqual({
      ok: false,
      field: "longTermSupport",
      message: "1.33 is older than N-2 (N is 10.0): set longTermSupport to true to take an LTS minor",
    });
    expect(version(generateUpdateForChannel({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "10.0" }, offers, ["westeurope"]))).toBe("10.0.3");
  });

  test("the LTS plan is ARM's AKSLongTermSupport", () => {
    const offers = { westeurope: [{ version: "1.27.100", supportPlan: ["KubernetesOfficial", "AKSLongTermSupport"] }, "1.30.1", "1.31.1", "1.32.1"] };
    expect(version(generateUpdateForChannel({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.27", longTermSupport: true }, offers, ["westeurope"]))).toBe("1.27.100");
    expect(generateUpdateForChannel({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.27", longTermSupport: true }, { westeurope: ["1.27.100", "1.32.1"] }, ["westeurope"])).toEqual({
      ok: false,
      field: "targetKubernetesVersion",
      message: "1.27 is older than N-2 (N is 1.32) and is not a long-term support minor in region westeurope",
    });
  });

  test("what each refusal says", () => {
    const refusal = (profile: Parameters<typeof generateUpdateForChannel>[0], regions = ["westeurope"]) => version(generateUpdateForChannel(profile, OFFERS, regions));
    expect(refusal({ channel: "Rapid", targetKubernetesVersion: "1.31" })).toBe("targetKubernetesVersion: must be empty unless channel is TargetKubernetesVersion (channel is Rapid)");
    expect(refusal({ channel: "Stable", longTermSupport: true })).toBe("longTermSupport: must be false unless channel is TargetKubernetesVersion (channel is Stable)");
    expect(refusal({ channel: "Rapid" }, ["northeurope"])).toBe("channel: no generally available Kubernetes version is offered in region northeurope");
    expect(refusal({ channel: "Rapid" }, ["northeurope", "southindia"])).toBe("channel: no generally available Kubernetes version is offered in regions northeurope, southindia");
    expect(refusal({ channel: "Rapid" }, [])).toBe("channel: no generally available Kubernetes version is offered in regions (none)");
    expect(refusal({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.31.2" })).toBe('targetKubernetesVersion: must be major.minor, such as 1.30 (got "1.31.2")');
    expect(refusal({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "v1.31" })).toBe('targetKubernetesVersion: must be major.minor, such as 1.30 (got "v1.31")');
    expect(refusal({ channel: "TargetKubernetesVersion", targetKubernetesVersion: "10.1" })).toBe("targetKubernetesVersion: no generally available patch of 10.1 is offered in region westeurope");
  });

  test("an empty targetKubernetesVersion is no target: the other channels accept it", () => {
    expect(version(generateUpdateForChannel({ channel: "Rapid", targetKubernetesVersion: "" }, OFFERS, ["westeurope"]))).toBe("1.33.1");
  });
});
