/**
 * Issue 19: names that are special in JavaScript (`constructor`, `__proto__`, `toString`,
 * `hasOwnProperty`) in every name field a scenario has — member, node pool, group, stage, strategy,
 * region, image family, gate, chained run, fail code — and as keys of the document itself, read from
 * YAML and from JSON (the two parsers treat a `__proto__` key each in their own way), through
 * `simulate` (the engine over the simulated fleet) and `plan`. Each gives a normal result (exit 0,
 * JSON on stdout) or normal field-path errors (exit 2, `FILE: path: message`), never a crash.
 * `constructor` is a valid name for every one of these fields, so there it must simulate.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { planCommand } from "../../src/cli/plan";
import { simulateCommand } from "../../src/cli/simulate";
import { STACK_TRACE, type Doc } from "../support/invalidInput";

const SPECIAL = ["constructor", "__proto__", "toString", "hasOwnProperty"] as const;
const FAMILY = "AKSUbuntu-2204gen2containerd";
const OLD = `${FAMILY}-202610.01.0`;
const NEW = `${FAMILY}-202611.24.0`;

const dir = mkdtempSync(join(tmpdir(), "prototype-names-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scenario(selection: "Latest" | "Consistent" | "Custom"): Doc {
  const pools = () => [
    { name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: OLD },
    // At its target image already: the upgrade request names no image for it (the lookup that crashed).
    { name: "user", orchestratorVersion: "1.31.2", nodeImageVersion: NEW },
  ];
  return {
    start: "2026-12-05T00:00:00Z",
    regions: { westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: OLD }, { version: NEW }] } },
    members: [
      { name: "m1", group: "g1", region: "westeurope", kubernetesVersion: "1.31.2", nodePools: pools(), simulation: { fail: { code: "UpgradeFailed", attempts: 1 } } },
      { name: "m2", group: "g2", region: "westeurope", kubernetesVersion: "1.31.2", nodePools: pools() },
    ],
    strategies: {
      s1: {
        stages: [
          { name: "st1", groups: [{ name: "g1", beforeGates: [{ type: "Approval", displayName: "QA" }], maxAllowedFailures: "1" }], afterStageWaitInSeconds: 60 },
          { name: "st2", groups: [{ name: "g2" }] },
        ],
      },
    },
    updateStrategyId: "s1",
    managedClusterUpdate: {
      upgrade: { type: "Full", kubernetesVersion: "1.32.0" },
      nodeImageSelection: selection === "Custom" ? { type: "Custom", customNodeImageVersions: [{ version: NEW }] } : { type: selection },
    },
    actions: [
      { at: "2026-12-05T00:00:00Z", approve: [{ stage: "st1", group: "g1", timing: "Before" }] },
      { at: "2026-12-05T00:01:00Z", skip: [{ type: "Member", name: "m2" }] },
    ],
  };
}

/** A chained scenario: a run, a retry of what it failed, on one strategy. */
function chain(): Doc {
  const base = scenario("Latest");
  const { strategies, updateStrategyId: _id, managedClusterUpdate, actions: _actions, ...world } = base;
  return {
    ...world,
    strategies,
    runs: [
      { name: "r1", updateStrategyId: "s1", managedClusterUpdate, actions: [{ at: "2026-12-05T00:00:00Z", approve: [{ stage: "st1", group: "g1", timing: "Before" }] }] },
      { name: "r2", members: { fromRun: "r1", output: "failedMembers" }, managedClusterUpdate },
    ],
  };
}

/** Set `key` as an own, enumerable property (a plain assignment to `__proto__` would set the prototype). */
function put(object: Doc, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of `record` with key `from` renamed to `to`, in the same place. */
function renameKey(record: Doc, from: string, to: string): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(record)) put(out, k === from ? to : k, v);
  return out;
}

type Rename = (doc: Doc, name: string) => void;

/** Every name field, renamed everywhere it is referred to. */
const FIELDS: Record<string, Rename> = {
  member: (doc, n) => {
    doc.members[0].name = n;
    for (const a of doc.actions ?? []) for (const s of a.skip ?? []) if (s.name === "m1") s.name = n;
    doc.actions?.push({ at: "2026-12-05T00:02:00Z", skip: [{ type: "Member", name: n }] });
  },
  pool: (doc, n) => {
    doc.members[0].nodePools[1].name = n;
    doc.members[1].nodePools[0].name = n;
  },
  group: (doc, n) => {
    doc.members[0].group = n;
    for (const s of Object.values(doc.strategies) as Doc[]) s.stages[0].groups[0].name = n;
    for (const a of [...(doc.actions ?? []), ...(doc.runs ?? []).flatMap((r: Doc) => r.actions ?? [])]) for (const p of a.approve ?? []) p.group = n;
  },
  stage: (doc, n) => {
    for (const s of Object.values(doc.strategies) as Doc[]) s.stages[0].name = n;
    for (const a of [...(doc.actions ?? []), ...(doc.runs ?? []).flatMap((r: Doc) => r.actions ?? [])]) for (const p of a.approve ?? []) p.stage = n;
    doc.actions?.push({ at: "2026-12-05T00:03:00Z", skip: [{ type: "AfterStageWait", name: n }] });
  },
  strategy: (doc, n) => {
    doc.strategies = renameKey(doc.strategies, "s1", n);
    if (doc.updateStrategyId !== undefined) doc.updateStrategyId = n;
    for (const r of doc.runs ?? []) if (r.updateStrategyId !== undefined) r.updateStrategyId = n;
  },
  "strategy reference only": (doc, n) => {
    if (doc.updateStrategyId !== undefined) doc.updateStrategyId = n;
    for (const r of doc.runs ?? []) if (r.updateStrategyId !== undefined) r.updateStrategyId = n;
  },
  region: (doc, n) => {
    doc.regions = renameKey(doc.regions, "westeurope", n);
    for (const m of doc.members) m.region = n;
  },
  "image family": (doc, n) => {
    const text = JSON.stringify(doc).replaceAll(FAMILY, n);
    const copy = JSON.parse(text);
    for (const key of Object.keys(doc)) delete doc[key];
    Object.assign(doc, copy);
  },
  "gate display name": (doc, n) => {
    for (const s of Object.values(doc.strategies) as Doc[]) s.stages[0].groups[0].beforeGates[0].displayName = n;
  },
  "fail code": (doc, n) => {
    doc.members[0].simulation.fail.code = n;
  },
  "unknown key at the root": (doc, n) => put(doc, n, { x: 1 }),
  "unknown key in a member": (doc, n) => put(doc.members[0], n, "x"),
};

const CHAIN_FIELDS: Record<string, Rename> = {
  ...FIELDS,
  run: (doc, n) => {
    doc.runs[0].name = n;
    doc.runs[1].members.fromRun = n;
  },
};

/** Fields where `constructor` makes a valid document (a reference to no strategy, an unknown key, do not). */
const VALID_AS_CONSTRUCTOR = (field: string) => !field.startsWith("unknown key") && field !== "strategy reference only";

let count = 0;
/** The document as YAML and as JSON (the JSON fast path), each in its own file. */
function files(doc: Doc): string[] {
  count += 1;
  const yaml = join(dir, `case-${count}.yaml`);
  const json = join(dir, `case-${count}.json`);
  writeFileSync(yaml, stringify(doc));
  writeFileSync(json, JSON.stringify(doc));
  return [yaml, json];
}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function capture(call: (io: { stdout: (t: string) => void; stderr: (t: string) => void }) => Promise<number>): Promise<Outcome> {
  let stdout = "";
  let stderr = "";
  const code = await call({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** A normal result or normal field-path errors; never a crash. */
function expectNormal(file: string, what: string, outcome: Outcome): void {
  const shown = `${what}: exit ${outcome.code}\n${outcome.stderr.slice(0, 2000)}`;
  expect([0, 2], shown).toContain(outcome.code);
  expect(outcome.stderr, shown).not.toMatch(STACK_TRACE);
  if (outcome.code === 0) {
    expect(() => JSON.parse(outcome.stdout), shown).not.toThrow();
    return;
  }
  expect(outcome.stdout, shown).toBe("");
  const lines = outcome.stderr.trimEnd().split("\n");
  expect(lines.length, shown).toBeGreaterThan(0);
  for (const line of lines) expect(line.startsWith(`${file}: `) && /^\S+: .+/s.test(line.slice(file.length + 2)), `${what}: not a "FILE: path: message" line: ${line}`).toBe(true);
}

const simulate = (file: string) => capture((io) => simulateCommand(file, { json: true }, io));
const plan = (file: string) => capture((io) => planCommand(file, { json: true }, io, Date.parse("2026-12-05T00:00:00Z")));

describe("names special in JavaScript, in every name field", () => {
  for (const [field, rename] of Object.entries(FIELDS)) {
    for (const name of SPECIAL) {
      it(`${field} '${name}': simulate and plan, from YAML and JSON, Latest/Consistent/Custom`, async () => {
        for (const selection of ["Latest", "Consistent", "Custom"] as const) {
          const doc = scenario(selection);
          rename(doc, name);
          for (const file of files(doc)) {
            const what = `${field} '${name}' (${selection}, ${file.slice(-4)})`;
            const simulated = await simulate(file);
            expectNormal(file, `simulate ${what}`, simulated);
            // `constructor` is a valid name everywhere (an AKS name, an image family); unknown keys are refused.
            if (name === "constructor" && VALID_AS_CONSTRUCTOR(field)) expect(simulated.code, `simulate ${what}: ${simulated.stderr}`).toBe(0);
            if (field.startsWith("unknown key")) expect(simulated.stderr, what).toMatch(new RegExp(`[ .]${name}: unknown field\\n`));
            expectNormal(file, `plan ${what}`, await plan(file));
          }
        }
      });
    }
  }

  for (const [field, rename] of Object.entries(CHAIN_FIELDS)) {
    for (const name of SPECIAL) {
      it(`chained runs, ${field} '${name}': simulate from YAML and JSON`, async () => {
        const doc = chain();
        rename(doc, name);
        for (const file of files(doc)) {
          const what = `chain ${field} '${name}' (${file.slice(-4)})`;
          const simulated = await simulate(file);
          expectNormal(file, `simulate ${what}`, simulated);
          if (name === "constructor" && VALID_AS_CONSTRUCTOR(field)) expect(simulated.code, `simulate ${what}: ${simulated.stderr}`).toBe(0);
        }
      });
    }
  }

  it("a strategy reference naming a JavaScript name with no such strategy says so (issue 19)", async () => {
    for (const doc of [scenario("Latest"), chain()]) {
      FIELDS["strategy reference only"]!(doc, "constructor");
      for (const file of files(doc)) {
        const { code, stderr } = await simulate(file);
        expect(code).toBe(2);
        expect(stderr).toMatch(/updateStrategyId: no strategy named 'constructor' under strategies\n/);
      }
    }
  });

  it("a node pool named constructor already at its target image simulates and plans (issue 19)", async () => {
    const doc = scenario("Latest");
    delete doc.members[0].simulation;
    doc.actions = doc.actions.filter((a: Doc) => a.skip === undefined);
    FIELDS.pool!(doc, "constructor");
    for (const file of files(doc)) {
      const simulated = await simulate(file);
      expect(simulated.code, simulated.stderr).toBe(0);
      const pools = JSON.parse(simulated.stdout).clusters[0].nodePools;
      expect(pools.map((p: { name: string; nodeImageVersion: string }) => [p.name, p.nodeImageVersion])).toEqual([["system", NEW], ["constructor", NEW]]);
      const planned = await plan(file);
      expect(planned.code, planned.stderr).toBe(0);
    }
  });
});
