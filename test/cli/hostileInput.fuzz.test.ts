/**
 * Issue 19 "must show": generated invalid and extreme inputs through `simulate`, `plan` and `run`, in
 * process (the command functions with a captured `io`, as `main.ts` calls them). For every case:
 * - no crash: the command returns an exit code (it never throws a JavaScript error), 0 or 2 for
 *   simulate and plan; for run 2, or the code of a run that went (0, 1 failed, 3, 4);
 * - no hang: each case is bounded (a guard, not a timing assertion);
 * - exit 2 prints only `FILE: path: message` lines (or `--flag: …` for flags; `--backend: FLEET: path:
 *   message` for the fleet file), and nothing looking like a stack trace;
 * - a refused command changes no byte of any file in its folder (the simulated fleet's state file,
 *   the run journals' folder, the lease files…): hashed before and after; simulate and plan never
 *   write, whatever their exit.
 * Cases: the single-place breakages of `invalidInput.ts`, extreme values (`EXTREME_VALUES`) at any
 * field, and whole texts that break parsers (unknown tags, empty documents, binary bytes, 100,000
 * nested lists, alias bombs…), each document written as YAML or JSON. fast-check with a fixed seed.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { planCommand } from "../../src/cli/plan";
import { runCommand } from "../../src/cli/run";
import { simulateCommand } from "../../src/cli/simulate";
import { STACK_TRACE, extremeVariants, invalidVariants, type Doc, type FieldRules, type Variant } from "../support/invalidInput";
import { strategyRules } from "../pulumi/support/invalidRunInputs";
import { SCENARIO_RULES, richScenario } from "./support/invalidScenarios";

const SEED = 1919;
const RUNS_PER_COMMAND = 500;
/** A case still going after this is a hang (the slowest take ~1 s on a 2-core machine). */
const CASE_BOUND_MS = 20_000;

const root = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-input-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const IMAGE_OLD = "AKSUbuntu-2204gen2containerd-202610.01.0";
const IMAGE_NEW = "AKSUbuntu-2204gen2containerd-202611.24.0";
const FLEET = {
  regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: IMAGE_OLD }, { version: IMAGE_NEW }] } },
  members: ["canary-1", "eu-1", "eu-2"].map((name) => ({ name, region: "westeurope", kubernetesVersion: "1.31.2", nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OLD }] })),
};

/** A run spec that, when valid, ends within milliseconds at the test's time scale (no gates, no windows). */
function runSpec(): Doc {
  return {
    name: "rollout",
    members: [{ name: "canary-1", group: "canary" }, { name: "eu-1", group: "prod" }, { name: "eu-2", group: "prod" }],
    strategy: { stages: [{ name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 60 }, { name: "prod", groups: [{ name: "prod", maxConcurrency: "2", maxAllowedFailures: "1" }], maxConcurrency: "50%" }] },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Custom", customNodeImageVersions: [{ version: IMAGE_NEW }] } },
    state: "Running",
    skip: [{ type: "Member", name: "eu-2" }, { type: "AfterStageWait", name: "canary" }],
    timeoutMinutes: 30,
  };
}

const strategy = strategyRules(["strategy"]);
const SPEC_RULES: FieldRules = {
  required: [...strategy.required, ["members"], ["managedClusterUpdate"], ["members", "*", "name"], ["managedClusterUpdate", "upgrade"], ["managedClusterUpdate", "upgrade", "type"], ["skip", "*", "type"], ["skip", "*", "name"]],
  uniqueLists: [...strategy.uniqueLists, ["members"]],
  badValues: [
    ...strategy.badValues,
    { at: ["timeoutMinutes"], kind: "out of range", values: [0, -1, 10_081, 1e308] },
    { at: ["state"], kind: "wrong enum value", values: ["", "Paused", "running"] },
    { at: ["skip", "*", "name"], kind: "unknown name", values: ["ghost", "constructor"] },
    { at: ["members", "*", "name"], kind: "not in the fleet", values: ["ghost", "constructor"] },
  ],
  numbersAllowed: strategy.numbersAllowed,
  // The run's name names its journal file: free text up to 200 characters.
  unbounded: [["name"]],
  replaceRoot: true,
};

/** Whole texts that break parsers rather than schemas. */
const HOSTILE_TEXTS: ReadonlyArray<string | Buffer> = [
  "",
  "---\n",
  "# only a comment\n",
  "null\n",
  "[]\n",
  "42\n",
  '"a string"\n',
  "start: !foo 2026-12-05T00:00:00Z\n",
  "members: !!binary aGk=\n",
  "a: !<tag:example.com,2026:x> 1\n",
  "a: 1\n---\nb: 2\n",
  "a: 1\na: 2\n",
  '{"start": ',
  '{"members": [}',
  "\uFEFF{}",
  "[".repeat(100_000),
  `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
  `{"a": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
  `a: ${"{b: ".repeat(5_000)}1${"}".repeat(5_000)}\n`,
  `a: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(", ")}]`).join("\n")}\n`,
  "\u0000\u0001\u0002\u001b[2J",
  `start: "${"\u0085".repeat(1000)}"\n`,
  Buffer.from([0xff, 0xfe, 0x00, 0x00, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1]),
];

type Input = { kind: string; text: string | Buffer; ext: "yaml" | "json" };

/** A broken or extreme document, written as YAML or JSON; or a hostile text. */
function inputs(base: Doc, rules: FieldRules): fc.Arbitrary<Input> {
  const documents = fc.tuple(fc.oneof(invalidVariants(base, rules), extremeVariants(base, rules)), fc.constantFrom<"yaml" | "json">("yaml", "json")).map(([variant, ext]: [Variant, "yaml" | "json"]) => ({
    kind: `${variant.kind} at ${variant.path.join(".") || "(root)"} (${ext})`,
    text: ext === "json" ? JSON.stringify(variant.doc) ?? "null" : stringify(variant.doc),
    ext,
  }));
  const texts = fc.constantFrom(...HOSTILE_TEXTS.map((text, i) => ({ kind: `hostile text #${i}`, text, ext: i % 2 === 0 ? ("yaml" as const) : ("json" as const) })));
  return fc.oneof({ arbitrary: documents, weight: 9 }, { arbitrary: texts, weight: 1 });
}

/** Every file and folder under `dir`, files with a hash of their bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = entry.isFile() ? createHash("sha256").update(fs.readFileSync(full)).digest("hex") : "(folder)";
  }
  return out;
}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function bounded(what: string, call: (io: { stdout: (t: string) => void; stderr: (t: string) => void }) => Promise<number>): Promise<Outcome> {
  let stdout = "";
  let stderr = "";
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${what} still running after ${CASE_BOUND_MS} ms`)), CASE_BOUND_MS);
  });
  try {
    // A JavaScript error thrown by the command is a crash: it fails the property with its stack.
    const code = await Promise.race([call({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }), hang]);
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** Exit 2: every line `FILE: path: message` (or a flag's), and no stack trace. */
function expectFieldPathLines(outcome: Outcome, prefixes: readonly string[], what: string): void {
  const shown = `${what}\n${outcome.stderr.slice(0, 1500)}`;
  expect(outcome.stderr, shown).not.toMatch(STACK_TRACE);
  const lines = outcome.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("warning: "));
  expect(lines.length, shown).toBeGreaterThan(0);
  for (const line of lines) {
    const prefix = prefixes.find((p) => line.startsWith(p));
    expect(prefix, `${what}: a line not naming the file: ${line.slice(0, 300)}`).toBeDefined();
    const rest = line.slice((prefix as string).length);
    // the field path: a dotted path, `(root)`, `(line L, column C)`, or a flag.
    expect(rest, `${what}: no "path: message" in: ${line.slice(0, 300)}`).toMatch(/^(\(line \d+, column \d+\)|\(root\)|\(file\)|[^\s:][^:]*?): \S/s);
  }
}

const counts = { simulate: 0, plan: 0, run: 0, refused: 0 };
let started = 0;
beforeAll(() => {
  started = Date.now();
});
afterAll(() => {
  // The count and duration the issue asks for, in the test log.
  console.log(`hostile input: ${counts.simulate + counts.plan + counts.run} cases (simulate ${counts.simulate}, plan ${counts.plan}, run ${counts.run}; ${counts.refused} refused) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

/** The issue's own inputs, always tried first (fast-check `examples`), beside the generated ones. */
function issueExamples(): Input[] {
  const wait = richScenario();
  wait.strategy.stages[0].afterStageWaitInSeconds = 10_000_000_000_000;
  const pool = richScenario();
  pool.members[1].nodePools[1].name = "constructor";
  pool.managedClusterUpdate = { upgrade: { type: "Full", kubernetesVersion: "1.32.0" } };
  pool.members[1].nodePools[1].nodeImageVersion = "AKSUbuntu-2204gen2containerd-202611.24.0";
  pool.regions.westeurope.nodeImages[1].availableAt = undefined;
  const { strategy: _s, ...noStrategy } = richScenario();
  const reference = { ...noStrategy, strategies: {}, updateStrategyId: "constructor", actions: [] };
  return [
    { kind: "issue 19: a wait of 10000000000000 s", text: stringify(wait), ext: "yaml" },
    { kind: "issue 19: a node pool named constructor at its target image", text: JSON.stringify(pool), ext: "json" },
    { kind: "issue 19: updateStrategyId constructor", text: stringify(reference), ext: "yaml" },
    { kind: "issue 19: an unknown tag", text: "start: !foo x\n", ext: "yaml" },
  ];
}

let n = 0;
function caseFile(dir: string, input: Input): string {
  n += 1;
  const file = path.join(dir, `case-${n}.${input.ext}`);
  fs.writeFileSync(file, input.text);
  return file;
}

describe("hostile input through simulate, plan and run (issue 19)", () => {
  for (const command of ["simulate", "plan"] as const) {
    it(`${command}: ${RUNS_PER_COMMAND} broken or extreme scenarios: exit 0 or 2, field paths, nothing written`, async () => {
      const dir = fs.mkdtempSync(path.join(root, `${command}-`));
      await fc.assert(
        fc.asyncProperty(inputs(richScenario(), SCENARIO_RULES), async (input) => {
          const file = caseFile(dir, input);
          const before = snapshot(dir);
          const outcome = await bounded(`${command} ${input.kind}`, (io) =>
            command === "simulate" ? simulateCommand(file, { json: true }, io) : planCommand(file, { json: true }, io, Date.parse("2026-12-05T00:00:00Z")),
          );
          counts[command] += 1;
          expect([0, 2], `${input.kind}: exit ${outcome.code}\n${outcome.stderr.slice(0, 1500)}`).toContain(outcome.code);
          if (outcome.code === 0) expect(() => JSON.parse(outcome.stdout), input.kind).not.toThrow();
          else {
            counts.refused += 1;
            expect(outcome.stdout, input.kind).toBe("");
            expectFieldPathLines(outcome, [`${file}: `], `${command} ${input.kind}`);
          }
          expect(snapshot(dir), `${command} ${input.kind} wrote`).toEqual(before);
          fs.rmSync(file);
        }),
        { numRuns: RUNS_PER_COMMAND, seed: SEED, endOnFailure: true, examples: issueExamples().map((input) => [input]) },
      );
    });
  }

  it(`run: ${RUNS_PER_COMMAND} broken or extreme specs and fleet files on a used simulated fleet: a refused run changes no byte`, async () => {
    const dir = fs.mkdtempSync(path.join(root, "run-"));
    const fleetFile = path.join(dir, "fleet.yaml");
    fs.writeFileSync(fleetFile, stringify(FLEET));
    const run = (spec: string, fleet: string, timeScale: string) =>
      bounded(`run ${spec}`, (io) => runCommand(spec, { backend: `simulator:${fleet}`, timeScale, progress: "lines", json: true }, io));
    // A fleet that has been through a run: its state file and journal exist.
    const first = await run(caseFile(dir, { kind: "valid", text: stringify(runSpec()), ext: "yaml" }), fleetFile, "1000000");
    expect(first.code, first.stderr).toBe(0);
    dropLeases(dir);
    const fleetRules: FieldRules = { ...SCENARIO_RULES, required: SCENARIO_RULES.required.filter((p) => p[0] === "regions" || p[0] === "members"), badValues: SCENARIO_RULES.badValues.filter((b) => b.at[0] === "regions" || b.at[0] === "members") };
    const cases = fc.oneof(
      { arbitrary: inputs(runSpec(), SPEC_RULES).map((input) => ({ ...input, broken: "spec" as const })), weight: 3 },
      { arbitrary: inputs(FLEET, fleetRules).map((input) => ({ ...input, broken: "fleet" as const })), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(cases, fc.constantFrom("1000000", "999999"), async (input, timeScale) => {
        const broken = caseFile(dir, input);
        const spec = input.broken === "spec" ? broken : caseFile(dir, { kind: "valid", text: stringify(runSpec()), ext: "yaml" });
        const fleet = input.broken === "fleet" ? broken : fleetFile;
        const before = snapshot(dir);
        const what = `run, ${input.broken} ${input.kind} at --time-scale ${timeScale}`;
        const outcome = await bounded(what, (io) => run(spec, fleet, timeScale).then((o) => ((io.stdout(o.stdout), io.stderr(o.stderr)), o.code)));
        counts.run += 1;
        expect([0, 1, 2, 3, 4], `${what}: exit ${outcome.code}\n${outcome.stderr.slice(0, 1500)}`).toContain(outcome.code);
        if (outcome.code === 2) {
          counts.refused += 1;
          expect(outcome.stdout, what).toBe("");
          expectFieldPathLines(outcome, [`${spec}: `, `--backend: ${fleet}: `, "--time-scale: "], what);
          expect(snapshot(dir), `${what}: a refused run wrote`).toEqual(before);
        } else {
          expect(() => JSON.parse(outcome.stdout), what).not.toThrow();
          // This process keeps the run's leases until it exits; their files go, so no heartbeat rewrites them.
          dropLeases(dir);
        }
        fs.rmSync(broken);
        if (spec !== broken) fs.rmSync(spec);
      }),
      { numRuns: RUNS_PER_COMMAND, seed: SEED, endOnFailure: true },
    );
  });
});

function dropLeases(dir: string): void {
  for (const rel of Object.keys(snapshot(dir))) if (/\.(lock|lease)$/.test(rel)) fs.rmSync(path.join(dir, rel));
}
