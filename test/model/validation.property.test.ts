/**
 * Property: any single-field corruption of a valid scenario object (wrong type, out of range,
 * duplicate named item, 10k-character string) is reported as a ValidationError, never another error,
 * with field paths (never "(root)" unless the document itself is wrong) and no stack traces.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError, formatPath } from "../../src/model/issues";
import { validateScenario } from "../../src/simulation/scenario";
import { CLUSTER_ID, IMAGE_NEW, expectValid, validScenario, type Doc } from "./helpers";

/** The valid scenario, with every optional part filled in so that there is something to break. */
function richScenario(): Doc {
  const s = validScenario();
  s.until = "2026-12-20T00:00:00Z";
  s.regions.westeurope.kubernetesVersions[1].availableAt = "2026-12-06T00:00:00Z";
  s.members[0].clusterResourceId = CLUSTER_ID;
  s.members[0].maintenanceConfigurations = {
    aksManagedAutoUpgradeSchedule: {
      maintenanceWindow: {
        schedule: { weekly: { intervalWeeks: 1, dayOfWeek: "Saturday" } },
        startTime: "02:00",
        durationHours: 6,
        utcOffset: "+01:00",
        startDate: "2026-11-01",
        notAllowedDates: [{ start: "2026-12-24", end: "2026-12-26" }],
      },
    },
    aksManagedNodeOSUpgradeSchedule: {
      maintenanceWindow: { schedule: { relativeMonthly: { intervalMonths: 1, weekIndex: "First", dayOfWeek: "Monday" } }, startTime: "22:30", durationHours: 4 },
    },
  };
  s.members[1].nodePools.push({ name: "user", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_NEW });
  s.members[1].simulation = { upgradeMinutes: 20, busyUntil: "2026-12-05T01:00:00Z" };
  s.members[2].maintenanceConfigurations = {
    aksManagedAutoUpgradeSchedule: { maintenanceWindow: { schedule: { absoluteMonthly: { intervalMonths: 2, dayOfMonth: 15 } }, startTime: "00:00", durationHours: 24 } },
  };
  s.members[3].maintenanceConfigurations = {
    aksManagedAutoUpgradeSchedule: { maintenanceWindow: { schedule: { daily: { intervalDays: 3 } }, startTime: "12:00", durationHours: 8, utcOffset: "-08:00" } },
  };
  s.strategy.stages[1].maxConcurrency = "50%";
  s.strategy.stages[1].groups[0].maxConcurrency = "2";
  s.managedClusterUpdate.nodeImageSelection = { type: "Custom", customNodeImageVersions: [{ version: IMAGE_NEW }] };
  s.actions = [
    { at: "2026-12-05T01:00:00Z", skip: [{ type: "Member", name: "eu-2" }, { type: "AfterStageWait", name: "canary" }] },
    { at: "2026-12-05T02:00:00Z", stop: true },
    { at: "2026-12-05T03:00:00Z", start: true },
  ];
  return s;
}

type Path = Array<string | number>;
type Kind = "string" | "number" | "boolean" | "null" | "array" | "object";
const kindOf = (v: unknown): Kind => (v === null ? "null" : Array.isArray(v) ? "array" : (typeof v as Kind));

/** Every node of the document (the root included), with its path. */
function nodes(value: unknown, path: Path = []): Array<{ path: Path; value: unknown }> {
  const here = [{ path, value }];
  if (Array.isArray(value)) return here.concat(value.flatMap((v, i) => nodes(v, [...path, i])));
  if (value !== null && typeof value === "object") return here.concat(Object.entries(value).flatMap(([k, v]) => nodes(v, [...path, k])));
  return here;
}

const BASE = richScenario();
const ALL = nodes(BASE);
const LEAVES = ALL.filter((n) => ["string", "number", "boolean"].includes(kindOf(n.value)));
const STRING_LEAVES = LEAVES.filter((n) => typeof n.value === "string");
/** Lists whose items must be unique: members, stages, groups, node pools (by name), custom image versions (one per family). */
const UNIQUE_LIST_NAMES = new Set<unknown>(["members", "stages", "groups", "nodePools", "customNodeImageVersions"]);
const UNIQUE_LISTS = ALL.filter((n) => Array.isArray(n.value) && n.value.length > 0 && UNIQUE_LIST_NAMES.has(n.path.at(-1)));

const WRONG_TYPES: unknown[] = [true, null, [], {}, -1.5, "x", 0];
/** Out of range for the field's own type: every number field here is positive, every string is non-empty, every boolean is `true`. */
const OUT_OF_RANGE: Record<string, unknown[]> = { number: [-1, -1e9, Number.NaN, Number.POSITIVE_INFINITY], string: [""], boolean: [false] };

/** One corrupted document: what was done, where, and the result. */
interface Variant {
  kind: string;
  path: Path;
  doc: Doc;
}

/** A copy of the base with the value at `path` replaced (the root: the whole document is `value`). */
function variant(kind: string, path: Path, value: unknown): Variant {
  // fast-check prints a failing variant as "what, where" rather than the whole document
  const shown = { kind, path, [fc.toStringMethod]: () => `${kind} at ${formatPath(path)}` };
  if (path.length === 0) return { ...shown, doc: value };
  const doc = structuredClone(BASE);
  const parent = path.slice(0, -1).reduce((d: Doc, k) => d[k], doc);
  parent[path[path.length - 1] as string | number] = value;
  return { ...shown, doc };
}

const describeValue = (v: unknown) => (typeof v === "string" && v.length > 20 ? `<${v.length}-char string>` : (JSON.stringify(v) ?? String(v)));

/** Any node, the root included, replaced by a value of another JSON type. */
const wrongType = fc
  .tuple(fc.constantFrom(...ALL), fc.constantFrom(...WRONG_TYPES))
  .filter(([n, v]) => kindOf(v) !== kindOf(n.value))
  .map(([n, v]) => variant(`wrong type ${describeValue(v)}`, n.path, v));

const outOfRange = fc
  .constantFrom(...LEAVES)
  .chain((n) => fc.constantFrom(...(OUT_OF_RANGE[kindOf(n.value)] ?? [])).map((v) => variant(`out of range ${describeValue(v)}`, n.path, v)));

const duplicate = fc.tuple(fc.constantFrom(...UNIQUE_LISTS), fc.nat()).map(([n, i]) => {
  const items = n.value as unknown[];
  const index = i % items.length;
  return variant(`duplicate of item ${index}`, n.path, [...items, structuredClone(items[index])]);
});

// Not `${"a-".repeat(4_999)}1`: node image versions have no length limit, and that one is well-formed.
const hugeString = fc.oneof(
  fc.constantFrom("a".repeat(10_000), "A-".repeat(5_000), `${"1.".repeat(4_999)}1`, "é".repeat(10_000), `/${"a/".repeat(5_000)}`),
  fc.string({ minLength: 10_000, maxLength: 10_000, unit: "grapheme-ascii" }),
);
const huge = fc.tuple(fc.constantFrom(...STRING_LEAVES), hugeString).map(([n, v]) => variant(`huge ${describeValue(v)}`, n.path, v));

const variantArb: fc.Arbitrary<Variant> = fc.oneof(wrongType, outOfRange, duplicate, huge);

const STACK_TRACE = /\n\s+at |\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+/;

describe("property: every single-field corruption of a valid scenario is a ValidationError with field paths", () => {
  it("the rich base scenario is valid", () => {
    expectValid(() => validateScenario(structuredClone(BASE)));
    expect(UNIQUE_LISTS.map((n) => formatPath(n.path))).toEqual(
      expect.arrayContaining(["members", "strategy.stages", "strategy.stages[1].groups", "members[1].nodePools", "managedClusterUpdate.nodeImageSelection.customNodeImageVersions"]),
    );
  });

  it("1,000 invalid variants", () => {
    fc.assert(
      fc.property(variantArb, ({ path, doc }) => {
        let thrown: unknown;
        try {
          validateScenario(doc);
        } catch (e) {
          thrown = e;
        }
        if (!(thrown instanceof ValidationError)) {
          throw new Error(`expected a ValidationError, got ${thrown === undefined ? "no error (accepted)" : String((thrown as Error)?.stack ?? thrown)}`);
        }
        const where = formatPath(path);
        const wholeDocument = path.length === 0;
        expect(thrown.issues.length).toBeGreaterThan(0);
        for (const issue of thrown.issues) {
          expect(typeof issue.path).toBe("string");
          expect(issue.path.length).toBeGreaterThan(0);
          if (!wholeDocument) expect(issue.path, `issue at (root): ${issue.message}`).not.toBe("(root)");
          expect(typeof issue.message).toBe("string");
          expect(issue.message.length).toBeGreaterThan(0);
          expect(issue.message).not.toMatch(STACK_TRACE);
        }
        // the corrupted field (or something inside it) is named
        const named = thrown.issues.some((i) => wholeDocument || i.path === where || i.path.startsWith(`${where}.`) || i.path.startsWith(`${where}[`));
        expect(named, `no issue at or under ${where}: ${thrown.message.slice(0, 2000)}`).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });
});
