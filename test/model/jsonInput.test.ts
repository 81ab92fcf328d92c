/**
 * Issue 13: a scenario, plan input or run spec whose text opens with `{` is read with `JSON.parse`
 * (the YAML parser takes ~20 times as long on a large fleet). The result is the one the YAML parser
 * gives; text that is not valid JSON still goes to the YAML parser, which accepts YAML flow style
 * and reports broken text with its line and column; bad fields keep their field paths.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ValidationError } from "../../src/model/issues";
import { parseYamlMapping } from "../../src/model/textInput";
import { parseScenario } from "../../src/simulation/scenario";

const yamlText = readFileSync("test/scenarios/stages-and-waits.yaml", "utf8");
const asObject = parseYaml(yamlText) as Record<string, unknown>;

function issuesOf(text: string): Array<{ path: string; message: string }> {
  try {
    parseScenario(text);
  } catch (e) {
    if (e instanceof ValidationError) return e.issues;
    throw e;
  }
  throw new Error("expected a ValidationError");
}

describe("JSON input", () => {
  it("a JSON scenario (compact, indented, with a byte-order mark or leading space) is the same scenario as its YAML", () => {
    const expected = parseScenario(yamlText);
    for (const text of [JSON.stringify(asObject), JSON.stringify(asObject, null, 2), `\ufeff${JSON.stringify(asObject)}`, `\n  ${JSON.stringify(asObject)}`]) {
      expect(parseScenario(text)).toEqual(expected);
    }
  });

  it("flow-style YAML that opens with { is still YAML", () => {
    expect(parseYamlMapping("{start: 2026-12-05T00:00:00Z, list: [a, b]}", "a mapping")).toEqual({ start: "2026-12-05T00:00:00Z", list: ["a", "b"] });
  });

  it("broken JSON is reported with its line and column, as before", () => {
    const issues = issuesOf('{\n  "start": "2026-12-05T00:00:00Z",\n  "regions": {\n}');
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toMatch(/^\(line \d+, column \d+\)$/);
    expect(issues[0]?.message).toMatch(/^not valid YAML or JSON: /);
  });

  it("a bad field of a JSON scenario is named by its path", () => {
    const bad = structuredClone(asObject) as { members: Array<Record<string, unknown>> };
    (bad.members[0] as Record<string, unknown>).kubernetesVersion = 131;
    const issues = issuesOf(JSON.stringify(bad));
    expect(issues.map((i) => i.path)).toContain("members[0].kubernetesVersion");
  });

  it("JSON that is not a mapping is refused as before", () => {
    expect(() => parseYamlMapping("[1, 2]", "a scenario is a mapping")).toThrow(ValidationError);
  });
});
