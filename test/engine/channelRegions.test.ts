/**
 * docs/rules.md §18: the channel rule over regions that disagree. What is offered is the union of the
 * members' regions, and a minor is long-term supported when any region lists it under AKS's LTS plan
 * (the plan is AKS's, per minor, not per region). Issue 34: no test failed when either was broken.
 */
import { describe, expect, test } from "vitest";
import { generateUpdateForChannel, LONG_TERM_SUPPORT_PLAN } from "../../src/engine/autoUpgradeChannel";

const LTS = [LONG_TERM_SUPPORT_PLAN];
const TARGET_1_27 = { channel: "TargetKubernetesVersion" as const, targetKubernetesVersion: "1.27", longTermSupport: true };

describe("the LTS rule when regions disagree", () => {
  // westeurope lists 1.27.100 under the LTS plan; eastus lists the same patch with the community plan only.
  const offers = {
    westeurope: [{ version: "1.27.100", supportPlan: LTS }, "1.31.1", "1.32.1"],
    eastus: [{ version: "1.27.100", supportPlan: ["KubernetesOfficial"] }, "1.32.1"],
  };

  test("one region calling the minor LTS is enough, whichever region comes first", () => {
    const expected = { ok: true, update: { upgrade: { type: "Full", kubernetesVersion: "1.27.100" }, nodeImageSelection: { type: "Latest" } } };
    expect(generateUpdateForChannel(TARGET_1_27, offers, ["westeurope", "eastus"])).toEqual(expected);
    expect(generateUpdateForChannel(TARGET_1_27, offers, ["eastus", "westeurope"])).toEqual(expected);
  });

  test("no region calling it LTS: refused, naming the regions", () => {
    expect(generateUpdateForChannel(TARGET_1_27, offers, ["eastus"])).toEqual({
      ok: false,
      field: "targetKubernetesVersion",
      message: "1.27 is older than N-2 (N is 1.32) and is not a long-term support minor in region eastus",
    });
    const neither = { westeurope: ["1.27.100", "1.32.1"], eastus: ["1.27.100", "1.32.1"] };
    expect(generateUpdateForChannel(TARGET_1_27, neither, ["westeurope", "eastus"])).toEqual({
      ok: false,
      field: "targetKubernetesVersion",
      message: "1.27 is older than N-2 (N is 1.32) and is not a long-term support minor in regions westeurope, eastus",
    });
  });

  test("an LTS minor without longTermSupport is refused, saying what to set", () => {
    expect(generateUpdateForChannel({ ...TARGET_1_27, longTermSupport: false }, offers, ["westeurope", "eastus"])).toEqual({
      ok: false,
      field: "longTermSupport",
      message: "1.27 is older than N-2 (N is 1.32): set longTermSupport to true to take an LTS minor",
    });
  });

  test("N is the newest minor of any region: the minor N-2 of the region ahead is in community support", () => {
    // eastus alone has N = 1.30, so 1.28 would be N-2 there; with westeurope, N = 1.32 and 1.29 is N-3.
    const ahead = { westeurope: ["1.29.4", "1.32.1"], eastus: ["1.28.9", "1.29.4", "1.30.2"] };
    const target = (minor: string) => ({ channel: "TargetKubernetesVersion" as const, targetKubernetesVersion: minor });
    expect(generateUpdateForChannel(target("1.29"), ahead, ["eastus"])).toMatchObject({ ok: true, update: { upgrade: { kubernetesVersion: "1.29.4" } } });
    expect(generateUpdateForChannel(target("1.29"), ahead, ["eastus", "westeurope"])).toMatchObject({ ok: false, field: "longTermSupport" });
    expect(generateUpdateForChannel(target("1.30"), ahead, ["eastus", "westeurope"])).toMatchObject({ ok: true, update: { upgrade: { kubernetesVersion: "1.30.2" } } });
  });
});
