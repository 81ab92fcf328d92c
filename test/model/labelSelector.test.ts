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

  test(`longer than ${MAX_SELECTOR_LENGTH} characters is refused`, () => {
    expect(() => parseLabelSelector(`k in (${Array.from({ length: 200 }, (_, i) => `v${i}`).join(",")})`)).toThrow(/longer than 512 characters/);
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
