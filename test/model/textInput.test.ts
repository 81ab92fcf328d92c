/**
 * docs/rules.md §7 (issue 19): YAML or JSON text to a mapping, or one problem saying where the text is
 * broken — by line and column before there are fields to name, by field path after. Issue 34: these
 * could be broken without a test failing (the CLI's suite, test/cli/hostileText.test.ts, reads the
 * same through whole commands).
 */
import { describe, expect, it } from "vitest";
import { issuesOf } from "./helpers";
import { MAX_NESTING_DEPTH } from "../../src/model/limits";
import { parseYamlMapping } from "../../src/model/textInput";

const read = (text: string) => parseYamlMapping(text, "must be a mapping of the run's fields");
const problem = (text: string) => issuesOf(() => read(text));
const nestedJson = (depth: number) => `{"a": ${"[".repeat(depth)}${"]".repeat(depth)}}`;
const TOO_DEEP = `nested too deeply: at most ${MAX_NESTING_DEPTH} levels of lists and mappings`;

describe("what is read", () => {
  it("JSON and YAML mappings, with a byte-order mark or blank lines before them", () => {
    for (const text of ['{"a": 1}', '\ufeff{"a": 1}', '  \n {"a": 1}', "a: 1\n", "\ufeffa: 1\n"]) expect(read(text)).toStrictEqual({ a: 1 });
  });

  it("JSON is read as JSON: a key given twice takes its last value, as JSON.parse does (YAML would refuse it)", () => {
    for (const text of ['{"a": 1, "a": 2}', '\ufeff{"a": 1, "a": 2}', '\n  {"a": 1, "a": 2}']) expect(read(text)).toStrictEqual({ a: 2 });
  });

  it("a directive YAML does not know is only the parser's warning: the document is read", () => {
    expect(read("%FOO bar\n---\na: 1\n")).toStrictEqual({ a: 1 });
  });

  it("aliases, up to a hundred", () => {
    expect(read("a: &a [1]\nb: [*a, *a]\n")).toStrictEqual({ a: [1], b: [[1], [1]] });
  });

  it("lists and mappings nested as deep as the limit", () => {
    expect(JSON.stringify(read(nestedJson(MAX_NESTING_DEPTH - 1)))).toBe(`{"a":${"[".repeat(MAX_NESTING_DEPTH - 1)}${"]".repeat(MAX_NESTING_DEPTH - 1)}}`);
  });
});

describe("what is refused, and where", () => {
  it("anything but a mapping: at (root), with what it should be", () => {
    for (const text of ["- 1\n- 2\n", "[1, 2]", "hello\n", "", "null\n", "7"]) expect(problem(text)).toStrictEqual([{ path: "(root)", message: "must be a mapping of the run's fields" }]);
  });

  it("broken JSON is read as YAML, which says where it breaks", () => {
    expect(problem('{"a": 1,, "b": 2}')).toStrictEqual([{ path: "(line 1, column 9)", message: "not valid YAML or JSON: Unexpected , in flow map at line 1, column 9:" }]);
    expect(problem("a: 1\na: 2\n")).toStrictEqual([{ path: "(line 2, column 1)", message: "not valid YAML or JSON: Map keys must be unique at line 2, column 1:" }]);
    // Only text opening with `{` is read as JSON: a JSON list is YAML's, which refuses a key given twice.
    expect(problem('[{"a": 1, "a": 2}]')).toStrictEqual([{ path: "(line 1, column 11)", message: "not valid YAML or JSON: Map keys must be unique at line 1, column 11:" }]);
  });

  it("a tag the core schema does not know, local or global", () => {
    expect(problem("a: !foo x\n")).toStrictEqual([{ path: "(line 1, column 4)", message: "Unresolved tag: !foo: YAML tags other than the core schema's are not accepted" }]);
    expect(problem("a: 1\nb: !!foo y\n")).toStrictEqual([{ path: "(line 2, column 4)", message: "Unresolved tag: tag:yaml.org,2002:foo: YAML tags other than the core schema's are not accepted" }]);
  });

  it("one level deeper than the limit, by the path of the value found too deep, in JSON and in YAML", () => {
    expect(problem(nestedJson(MAX_NESTING_DEPTH))).toStrictEqual([{ path: `a${"[0]".repeat(MAX_NESTING_DEPTH - 1)}`, message: TOO_DEEP }]);
    const mappings = Array.from({ length: MAX_NESTING_DEPTH + 2 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n") + " 1\n";
    expect(problem(mappings)).toStrictEqual([{ path: Array.from({ length: MAX_NESTING_DEPTH }, (_, i) => `k${i}`).join("."), message: TOO_DEEP }]);
    // The path names the first value found too deep, after shallow ones.
    expect(problem(`{"ok": [1, {"b": 2}], "x": [0, ${"[".repeat(MAX_NESTING_DEPTH)}${"]".repeat(MAX_NESTING_DEPTH)}]}`)).toStrictEqual([{ path: `x[1]${"[0]".repeat(MAX_NESTING_DEPTH - 2)}`, message: TOO_DEEP }]);
  });

  // 10,000 levels: the parser gives up from about 800 on; far more (the CLI's suite takes 100,000) made
  // V8 run out of memory compiling a regular expression in the same worker after a failed assertion.
  it("nesting too deep for the YAML parser itself: by line and column, not a stack overflow", () => {
    for (const text of [`${"[".repeat(10_000)}${"]".repeat(10_000)}\n`, `a: ${"[".repeat(10_000)}\n`]) {
      const issues = problem(text);
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ path: expect.stringMatching(/^\(line 1, column \d+\)$/), message: TOO_DEEP });
    }
  });

  it("an alias bomb: refused by the file, saying why", () => {
    const bomb = "a: &a [x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n";
    expect(problem(bomb)).toStrictEqual([{ path: "(file)", message: "not valid YAML or JSON: Excessive alias count indicates a resource exhaustion attack" }]);
  });
});
