/**
 * Issue 19: text that breaks parsers rather than schemas — unknown YAML tags, lists and mappings
 * nested 100,000 deep — given to `simulate`, `plan` and `run` (as the spec and as the fleet file),
 * in YAML and JSON. Each is refused with one `FILE: path: message` line and exit 2: no Node process
 * warning, no "Maximum call stack size exceeded".
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { planCommand } from "../../src/cli/plan";
import { runCommand } from "../../src/cli/run";
import { simulateCommand } from "../../src/cli/simulate";
import { MAX_NESTING_DEPTH } from "../../src/model/limits";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-text-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const IMAGE = "AKSUbuntu-2204gen2containerd-202610.01.0";
const FLEET = `regions: {westeurope: {kubernetesVersions: [{version: 1.31.2}, {version: 1.32.0}]}}
members: [{name: a, region: westeurope, kubernetesVersion: 1.31.2, nodePools: [{name: system, orchestratorVersion: 1.31.2, nodeImageVersion: ${IMAGE}}]}]
`;
const SCENARIO = `start: 2026-12-05T00:00:00Z\n${FLEET}managedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}}\n`;
const SPEC = "members: [{name: a}]\nmanagedClusterUpdate: {upgrade: {type: Full, kubernetesVersion: 1.32.0}}\n";

let n = 0;
function write(name: string, text: string): string {
  n += 1;
  const file = path.join(dir, `${n}-${name}`);
  fs.writeFileSync(file, text);
  return file;
}

async function capture(call: (io: { stdout: (t: string) => void; stderr: (t: string) => void }) => Promise<number>) {
  let stdout = "";
  let stderr = "";
  const code = await call({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

type Command = "simulate" | "plan" | "run spec" | "run fleet";

/** `text` as the file the command reads; `prefix` is what its error lines start with. */
async function refused(command: Command, name: string, text: string) {
  const file = write(name, text);
  const fleet = command === "run fleet" ? file : write("fleet.yaml", FLEET);
  const spec = command === "run fleet" ? write("spec.yaml", SPEC) : file;
  const warnings = vi.spyOn(process, "emitWarning");
  const result =
    command === "simulate"
      ? await capture((io) => simulateCommand(file, { json: true }, io))
      : command === "plan"
        ? await capture((io) => planCommand(file, { json: true }, io))
        : await capture((io) => runCommand(spec, { backend: `simulator:${fleet}`, timeScale: "1000000", progress: "lines" }, io));
  expect(warnings).not.toHaveBeenCalled();
  const prefix = command === "run fleet" ? `--backend: ${file}: ` : `${file}: `;
  return { ...result, prefix };
}

const deepYaml = `${"[".repeat(100_000)}${"]".repeat(100_000)}\n`;
const deepJson = (depth: number) => `{"members": ${"[".repeat(depth)}${"]".repeat(depth)}, "regions": {}}`;
const deepYamlField = `${FLEET}managedClusterUpdate: ${"[".repeat(100_000)}\n`;

const COMMANDS: Command[] = ["simulate", "plan", "run spec", "run fleet"];

describe("hostile text is refused with one FILE: path: message line (issue 19)", () => {
  for (const command of COMMANDS) {
    it(`${command}: an unknown YAML tag, local or global, prints no process warning`, async () => {
      for (const tag of ["!foo", "!!foo", "!<tag:example.com,2026:x>"]) {
        const text = command === "run spec" ? SPEC.replace("1.32.0", `${tag} 1.32.0`) : (command === "run fleet" ? FLEET : SCENARIO).replace("1.31.2", `${tag} 1.31.2`);
        const { code, stdout, stderr, prefix } = await refused(command, "tagged.yaml", text);
        expect(code, stderr).toBe(2);
        expect(stdout).toBe("");
        expect(stderr).toMatch(new RegExp(`^${escape(prefix)}\\(line \\d+, column \\d+\\): Unresolved tag: .+: YAML tags other than the core schema's are not accepted\\n$`));
      }
    });

    it(`${command}: 100,000 nested lists, in YAML, in closed JSON, in a field`, async () => {
      for (const [name, text] of [["deep.yaml", deepYaml], ["deep.json", deepJson(100_000)], ["deep-field.yaml", deepYamlField], ["limit.json", deepJson(MAX_NESTING_DEPTH + 1)]] as const) {
        const { code, stdout, stderr, prefix } = await refused(command, name, text);
        expect(code, stderr.slice(0, 500)).toBe(2);
        expect(stdout).toBe("");
        expect(stderr).not.toMatch(/call stack/i);
        const lines = stderr.trimEnd().split("\n");
        expect(lines, stderr.slice(0, 500)).toHaveLength(1);
        expect(lines[0]?.startsWith(prefix), lines[0]?.slice(0, 300)).toBe(true);
        expect(lines[0]).toMatch(new RegExp(`^${escape(prefix)}(\\(line \\d+, column \\d+\\)|\\S+): nested too deeply: at most ${MAX_NESTING_DEPTH} levels of lists and mappings$`));
      }
    });
  }

  it(`nesting up to the limit is read as usual (the schema answers)`, async () => {
    const { code, stderr } = await refused("simulate", "at-limit.json", deepJson(MAX_NESTING_DEPTH - 1));
    expect(code).toBe(2);
    expect(stderr).toContain(": members[0]: must be a mapping, got a list");
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
