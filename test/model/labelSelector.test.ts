/**
 * Issue 22: Kubernetes label selectors (`memberSelector.byLabel`). Each operator's meaning, a fault's
 * position, and (property) that a selector written from random requirements parses back to them and
 * matches exactly the label sets that satisfy every one.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LabelSelectorError, MAX_SELECTOR_LENGTH, matchesLabels, parseLabelSelector, type Requirement } from "../../src/model/labelSelector";

const matches = (selector: string, labels?: Record<string, string>) => matchesLabels(parseLabelSelector(selector), labels);

describe("operators", () => {
  test.each([
    ["env=prod", { env: "prod" }, true],
    ["env==prod", { env: "prod" }, true],
    ["env=prod", { env: "dev" }, false],
    ["env=prod", {}, false],
    ["env!=prod", { env: "dev" }, true],
    ["env!=prod", {}, true],
    ["env!=prod", { env: "prod" }, false],
    ["env in (prod, staging)", { env: "staging" }, true],
    ["env in (prod,staging)", { env: "dev" }, false],
    ["env in (prod)", {}, false],
    ["env notin (prod,staging)", { env: "dev" }, true],
    ["env notin (prod,staging)", {}, true],
    ["env notin (prod)", { env: "prod" }, false],
    ["canary", { canary: "" }, true],
    ["canary", {}, false],
    ["!canary", {}, true],
    ["!canary", { canary: "true" }, false],
    [" env = prod , ring in (1,2), !legacy ", { env: "prod", ring: "2" }, true],
    ["env=prod,ring in (1,2),!legacy", { env: "prod", ring: "2", legacy: "yes" }, false],
    ["fleet.azure.com/region=westeurope", { "fleet.azure.com/region": "westeurope" }, true],
    ["env=", { env: "" }, true],
    ["a/x=1", { "a/x": "1" }, true],
    ["a.b/x=1", { "a.b/x": "1" }, true],
  ] as const)("%s against %j: %s", (selector, labels, expected) => {
    expect(matches(selector, labels)).toBe(expected);
  });

  test("a member without labels matches only what needs no label", () => {
    expect(matches("!a,b!=c,d notin (e)")).toBe(true);
    expect(matches("a")).toBe(false);
  });
});

describe("faults, with their position (from 1)", () => {
  test.each([
    ["", 1, /empty selector/],
    ["env=prod,", 10, /expected a label key, found the end/],
    ["env = prod x", 12, /expected ',' or the end, found 'x'/],
    ["env ~ prod", 5, /expected '=', '==', '!=', 'in', 'notin'/],
    ["env in prod", 8, /expected '\(' after 'in'/],
    ["env in (a b)", 11, /expected ',' or '\)'/],
    ["-env=prod", 1, /key '-env'/],
    ["env=-prod", 5, /value '-prod'/],
    ["Bad_Prefix/x=1", 1, /prefix must be a DNS subdomain/],
    ["!", 2, /expected a label key after '!'/],
    [`k=${"v".repeat(64)}`, 3, /value/],
    ["(env)", 1, /^expected a label key, found '\(' at position 1$/],
    ["!,a", 2, /^expected a label key after '!', found ',' at position 2$/],
    ["env ~ in (a)", 5, /expected '=', '==', '!=', 'in', 'notin', ',' or the end after key 'env'/],
    ["env index (a)", 5, /expected '=', '==', '!=', 'in', 'notin'/],
    ["/x=1", 1, /key '\/x': its prefix must be a DNS subdomain/],
    ["ab-/x=1", 1, /key 'ab-\/x': its prefix must be a DNS subdomain/],
    ["a./x=1", 1, /prefix must be a DNS subdomain/],
    ["a/=1", 1, /key 'a\/': a name of at most 63 characters/],
    [`${"n".repeat(64)}=1`, 1, /a name of at most 63 characters/],
    [`env=prod,${"a".repeat(254)}/x`, 10, /its prefix must be a DNS subdomain of at most 253 characters/],
  ])("%j", (selector, position, reason) => {
    let error: unknown;
    try {
      parseLabelSelector(selector);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LabelSelectorError);
    expect((error as LabelSelectorError).position).toBe(position);
    expect((error as LabelSelectorError).message).toMatch(reason);
  });

  test(`longer than ${MAX_SELECTOR_LENGTH} characters is refused at the first character past the limit`, () => {
    expect(() => parseLabelSelector(`k in (${Array.from({ length: 200 }, (_, i) => `v${i}`).join(",")})`)).toThrow(/longer than 512 characters/);
    const selector = `k=${"v".repeat(MAX_SELECTOR_LENGTH - 1)}`;
    expect(() => parseLabelSelector(selector)).toThrow(new LabelSelectorError(MAX_SELECTOR_LENGTH + 1, "longer than 512 characters"));
  });
});

describe("keys and values at Kubernetes' limits are taken", () => {
  // A prefix of 253 characters: DNS labels of 63, 63, 63 and 61 characters, joined by dots.
  const prefix253 = [..."abc"].map((c) => c.repeat(63)).join(".") + "." + "d".repeat(61);

  // Eight requirements, `k0=vvv…` to `k7=vvv…`, exactly 512 characters in all.
  const selector512 = [...Array.from({ length: 7 }, (_, i) => `k${i}=${"v".repeat(63)}`), `k7=${"v".repeat(40)}`].join(",");

  test.each([
    ["a selector of exactly 512 characters", selector512],
    ["a prefix of 253 characters", `${prefix253}/x=1`],
    ["a name of 63 characters", `${"n".repeat(63)}=1`],
    ["a value of 63 characters", `k=${"v".repeat(63)}`],
  ])("%s", (_what, selector) => {
    expect(parseLabelSelector(selector).text).toBe(selector);
  });

  test("the selector of 512 characters holds all eight requirements", () => {
    expect(selector512).toHaveLength(MAX_SELECTOR_LENGTH);
    expect(parseLabelSelector(selector512).requirements.map((r) => r.key)).toEqual(["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"]);
  });

  test("a 253-character prefix is refused only past 253", () => {
    expect(prefix253).toHaveLength(253);
    expect(matches(`${prefix253}/x`, { [`${prefix253}/x`]: "" })).toBe(true);
    expect(() => parseLabelSelector(`${prefix253}e/x`)).toThrow(/prefix must be a DNS subdomain of at most 253 characters at position 1/);
  });
});

const name = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);
const requirement: fc.Arbitrary<Requirement> = fc.oneof(
  fc.record({ key: name, op: fc.constantFrom("=" as const, "!=" as const), value: name }),
  fc.record({ key: name, op: fc.constantFrom("in" as const, "notin" as const), values: fc.array(name, { minLength: 1, maxLength: 3 }) }),
  fc.record({ key: name, op: fc.constantFrom("exists" as const, "!exists" as const) }),
);

function written(r: Requirement): string {
  switch (r.op) {
    case "=":
    case "!=":
      return `${r.key}${r.op}${r.value}`;
    case "in":
    case "notin":
      return `${r.key} ${r.op} (${r.values.join(", ")})`;
    case "exists":
      return r.key;
    case "!exists":
      return `!${r.key}`;
  }
}

function holds(r: Requirement, labels: Record<string, string>): boolean {
  const value = Object.prototype.hasOwnProperty.call(labels, r.key) ? labels[r.key] : undefined;
  if (r.op === "=") return value === r.value;
  if (r.op === "!=") return value !== r.value;
  if (r.op === "in") return value !== undefined && r.values.includes(value);
  if (r.op === "notin") return value === undefined || !r.values.includes(value);
  return r.op === "exists" ? value !== undefined : value === undefined;
}

test("a written selector parses back to its requirements and matches exactly the labels that satisfy them all (property)", () => {
  fc.assert(
    fc.property(fc.array(requirement, { minLength: 1, maxLength: 4 }), fc.dictionary(name, name, { maxKeys: 4 }), (requirements, labels) => {
      const selector = parseLabelSelector(requirements.map(written).join(", "));
      expect(selector.requirements).toEqual(requirements);
      expect(matchesLabels(selector, labels)).toBe(requirements.every((r) => holds(r, labels)));
    }),
    { numRuns: 300 },
  );
});
