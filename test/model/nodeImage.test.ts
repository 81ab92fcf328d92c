/**
 * docs/rules.md §3.6: node image versions (`<family>-<date>`), how they order, and the image "Latest"
 * chooses — the one rule behind the engine's pick, the simulated fleet's and the ARM emulator's
 * (`newestImageAt`). Kubernetes versions order by the same dotted comparison.
 */
import { describe, expect, test } from "vitest";
import { compareDotted, compareImageVersions, imageDate, imageFamily, newestImageAt } from "../../src/model/nodeImage";

const FAMILY = "AKSUbuntu-2204gen2containerd";
const image = (date: string) => `${FAMILY}-${date}`;

describe("family and date", () => {
  test("the family is the version without its last '-'-separated part, the date is that part", () => {
    expect(imageFamily(image("202611.24.0"))).toBe(FAMILY);
    expect(imageDate(image("202611.24.0"))).toBe("202611.24.0");
  });

  test("a version without '-' is a family of its own, with no date: older than every dated image of that family", () => {
    expect(imageFamily("AKSUbuntu")).toBe("AKSUbuntu");
    expect(imageDate("AKSUbuntu")).toBe("");
    expect(compareImageVersions("AKSUbuntu", "AKSUbuntu-202601.01.0")).toBe(-1);
    expect(compareImageVersions("AKSUbuntu-202601.01.0", "AKSUbuntu")).toBe(1);
  });

  test("a version beginning with '-' has an empty family, and its date still orders it", () => {
    expect(imageFamily("-202611.24.0")).toBe("");
    expect(imageDate("-202611.24.0")).toBe("202611.24.0");
    expect(compareImageVersions("-202611.24.0", "-202610.01.0")).toBe(1);
  });
});

describe("ordering", () => {
  test.each([
    ["1.32.0", "1.31.9", 1],
    ["1.9.0", "1.10.0", -1],
    ["1.32", "1.32.1", -1],
    ["1.32.1", "1.32", 1],
    ["1.32", "1.32.0", 0],
    ["202611.24.0", "202611.24", 0],
  ])("%s against %s: %i", (a, b, expected) => {
    expect(compareDotted(a, b)).toBe(expected);
  });

  test("a newer image date compares greater, part by part as numbers", () => {
    expect(compareImageVersions(image("202611.24.0"), image("202610.01.0"))).toBe(1);
    expect(compareImageVersions(image("202611.9.0"), image("202611.10.0"))).toBe(-1);
    expect(compareImageVersions(image("202611.24"), image("202611.24.1"))).toBe(-1);
    expect(compareImageVersions(image("202611.24.0"), image("202611.24.0"))).toBe(0);
  });
});

describe("Latest: the newest image of the family a region offers at an instant", () => {
  const at = Date.parse("2026-12-05T00:00:00Z");

  test("the newest of the family wins whatever the order of the offers; other families and images offered later are passed over", () => {
    const offers = [
      { version: image("202611.24.0") },
      { version: image("202610.01.0") },
      { version: "AKSAzureLinux-V2gen2-202612.01.0" },
      { version: image("202612.01.0"), availableAt: "2026-12-05T00:00:01Z" },
      { version: image("202611.02.0"), availableAt: at },
    ];
    expect(newestImageAt(offers, FAMILY, at)).toBe(image("202611.24.0"));
    expect(newestImageAt([...offers].reverse(), FAMILY, at)).toBe(image("202611.24.0"));
    expect(newestImageAt(offers, FAMILY, at + 1000)).toBe(image("202612.01.0"));
  });

  test("of two offers of the same date written differently, the first offered is chosen", () => {
    expect(newestImageAt([{ version: image("202611.24") }, { version: image("202611.24.0") }], FAMILY, at)).toBe(image("202611.24"));
    expect(newestImageAt([{ version: image("202611.24.0") }, { version: image("202611.24") }], FAMILY, at)).toBe(image("202611.24.0"));
  });

  test("none of the family offered then: no image", () => {
    expect(newestImageAt([{ version: "AKSAzureLinux-V2gen2-202612.01.0" }, { version: image("202612.01.0"), availableAt: at + 1 }], FAMILY, at)).toBeUndefined();
  });
});
