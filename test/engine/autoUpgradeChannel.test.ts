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
});
