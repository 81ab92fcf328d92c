/**
 * docs/rules.md §2, §7: every refusal names the offending field by its path, in plain words. The path's
 * text both ways, zod's generic problems in our words, unknown fields one by one, and which problems
 * let a cross-field check still run. Issue 34: these could be broken without a test failing.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ValidationError, formatPath, parseOrThrow, parsePath, toFieldIssues, unlessMalformed } from "../../src/model/issues";

const issuesOf = (schema: z.ZodType, input: unknown, prefix: PropertyKey[] = []) => {
  try {
    parseOrThrow(schema, input, prefix);
  } catch (e) {
    if (e instanceof ValidationError) return e.issues;
    throw e;
  }
  return [];
};

describe("a field path's text", () => {
  it("keys joined by dots, list positions in brackets; nothing at all is the root", () => {
    expect(formatPath(["strategy", "stages", 1, "groups", 0, "name"])).toBe("strategy.stages[1].groups[0].name");
    expect(formatPath([0, "name"])).toBe("[0].name");
    expect(formatPath(["members", 2])).toBe("members[2]");
    expect(formatPath([])).toBe("(root)");
  });

  it("read back into its keys and positions, names with dashes and digits kept whole", () => {
    expect(parsePath("strategy.stages[1].groups[0].name")).toStrictEqual(["strategy", "stages", 1, "groups", 0, "name"]);
    expect(parsePath("strategies.blue-2.stages[10].afterGates[0]")).toStrictEqual(["strategies", "blue-2", "stages", 10, "afterGates", 0]);
    expect(parsePath("a")).toStrictEqual(["a"]);
  });
});

describe("zod's generic problems, in our words", () => {
  const schema = z.strictObject({ list: z.array(z.number()), map: z.strictObject({ a: z.number().optional() }), text: z.string(), count: z.number(), flag: z.boolean(), big: z.bigint() });
  const valid = { list: [], map: {}, text: "", count: 0, flag: true, big: 1n };

  it("what was expected, and what was given", () => {
    expect(issuesOf(schema, { ...valid, list: {}, map: [], text: null, count: "1", flag: 1, big: "x" })).toStrictEqual([
      { path: "list", message: "must be a list, got object" },
      { path: "map", message: "must be a mapping, got a list" },
      { path: "text", message: "must be a string, got null" },
      { path: "count", message: "must be a number, got string" },
      { path: "flag", message: "must be true or false, got number" },
      { path: "big", message: "must be bigint, got string" },
    ]);
  });

  it("a missing field is required; an unknown one is named by its own path, one each; a prefix goes before every path", () => {
    const { text: _text, ...rest } = valid;
    expect(issuesOf(schema, { ...rest, extra: 1, map: { b: 1, c: 2 } }, ["spec", 0])).toStrictEqual([
      { path: "spec[0].map.b", message: "unknown field" },
      { path: "spec[0].map.c", message: "unknown field" },
      { path: "spec[0].text", message: "is required" },
      { path: "spec[0].extra", message: "unknown field" },
    ]);
  });

  it("a mapping of names given a list; a rule without a message of ours keeps zod's words, not ours", () => {
    expect(issuesOf(z.strictObject({ m: z.record(z.string(), z.number()) }), { m: [1] })).toStrictEqual([{ path: "m", message: "must be a mapping, got a list" }]);
    const [short] = issuesOf(z.strictObject({ s: z.string().min(2) }), { s: "a" });
    expect(short?.path).toBe("s");
    expect(short?.message).not.toMatch(/^must be|^is required/);
  });

  it("a mapping's key that breaks its rule is named, with the rule's own words (every one it breaks)", () => {
    const keys = z.strictObject({ m: z.record(z.string().min(2, "must be two letters or more").regex(/^[a-z]*$/, "must be lowercase"), z.number()) });
    expect(issuesOf(keys, { m: { ok: 1, Eu: 2, E: 3 } })).toStrictEqual([
      { path: "m.Eu", message: "must be lowercase" },
      { path: "m.E", message: "must be two letters or more; must be lowercase" },
    ]);
  });

  it("a schema's own message wins", () => {
    expect(issuesOf(z.strictObject({ n: z.number({ error: "must be a count" }) }), { n: "x" })).toStrictEqual([{ path: "n", message: "must be a count" }]);
  });

  it("a refusal says every problem, one line each, path first", () => {
    const error = new ValidationError(toFieldIssues(schema.safeParse({ ...valid, count: "1", flag: 1 }, { error: () => "bad" }).error!));
    expect(error.message).toBe("count: bad\nflag: bad");
    expect(error.name).toBe("ValidationError");
  });
});

describe("a cross-field check runs unless a field it reads is malformed", () => {
  // The check reads every item's name (and would throw on one that is not a string); it reports a duplicate.
  const items = z
    .strictObject({ items: z.array(z.strictObject({ name: z.string().min(1, "must not be empty"), size: z.number() })), note: z.string().optional() })
    .superRefine(
      (v, ctx) => {
        if (new Set(v.items.map((i) => i.name.toLowerCase())).size !== v.items.length) ctx.addIssue({ code: "custom", path: ["items"], message: "duplicate name" });
      },
      unlessMalformed([["items", "*", "name"]]),
    );
  const twins = [
    { name: "a", size: 1 },
    { name: "a", size: 2 },
  ];

  it("another field wrong, or a field it does not read, or an unknown field: it runs", () => {
    expect(issuesOf(items, { items: twins, note: 7 })).toStrictEqual([
      { path: "note", message: "must be a string, got number" },
      { path: "items", message: "duplicate name" },
    ]);
    expect(issuesOf(items, { items: [twins[0], { name: "a", size: "2" }] })).toStrictEqual([
      { path: "items[1].size", message: "must be a number, got string" },
      { path: "items", message: "duplicate name" },
    ]);
    // A name of the right shape that breaks a rule of its own leaves the check running.
    expect(issuesOf(items, { items: [{ name: "", size: 1 }, { name: "", size: 2 }] })).toStrictEqual([
      { path: "items[0].name", message: "must not be empty" },
      { path: "items[1].name", message: "must not be empty" },
      { path: "items", message: "duplicate name" },
    ]);
    expect(issuesOf(items, { items: twins, extra: true })).toStrictEqual([
      { path: "extra", message: "unknown field" },
      { path: "items", message: "duplicate name" },
    ]);
  });

  it("a field it reads, or a parent of one, of the wrong shape: it does not run", () => {
    expect(issuesOf(items, { items: [twins[0], { name: 7, size: 2 }] })).toStrictEqual([{ path: "items[1].name", message: "must be a string, got number" }]);
    expect(issuesOf(items, { items: [twins[0], "a"] })).toStrictEqual([{ path: "items[1]", message: "must be a mapping, got string" }]);
    expect(issuesOf(items, { items: "a" })).toStrictEqual([{ path: "items", message: "must be a list, got string" }]);
  });
});
