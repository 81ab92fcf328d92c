/**
 * Shared helpers for the docs/rules.md §2 / §7 validation tests: a valid scenario to mutate, YAML rendering,
 * and assertions on `ValidationError.issues` (exact field path + an explaining message).
 */
import { expect } from "vitest";
import { stringify } from "yaml";
import { ValidationError, type FieldIssue } from "../../src/model/issues";

export const CLUSTER_ID = "/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg-fleet/providers/Microsoft.ContainerService/managedClusters/aks-canary-1";

export const IMAGE_OLD = "AKSUbuntu-2204gen2containerd-202610.01.0";
export const IMAGE_NEW = "AKSUbuntu-2204gen2containerd-202611.24.0";

/** Any object/array tree as produced by a YAML parser (tests poke at it freely). */
export type Doc = any;

function cluster(name: string, group: string | undefined, region = "westeurope"): Doc {
  return {
    name,
    ...(group === undefined ? {} : { group }),
    region,
    kubernetesVersion: "1.31.2",
    nodePools: [{ name: "system", orchestratorVersion: "1.31.2", nodeImageVersion: IMAGE_OLD }],
  };
}

/**
 * A valid scenario (like `scenarios/02-staged-parallel.yaml`): stage `canary` (group `canary`, 1 h wait)
 * then stage `production` (groups `prod-eu`, `prod-us`). Fresh object on every call.
 */
export function validScenario(): Doc {
  return {
    start: "2026-12-05T00:00:00Z",
    regions: {
      westeurope: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: IMAGE_NEW }] },
      eastus: { kubernetesVersions: [{ version: "1.31.2" }, { version: "1.32.0" }], nodeImages: [{ version: IMAGE_NEW }] },
    },
    members: [cluster("canary-1", "canary"), cluster("eu-1", "prod-eu"), cluster("eu-2", "prod-eu"), cluster("us-1", "prod-us", "eastus")],
    strategy: {
      stages: [
        { name: "canary", groups: [{ name: "canary" }], afterStageWaitInSeconds: 3600 },
        { name: "production", groups: [{ name: "prod-eu" }, { name: "prod-us" }] },
      ],
    },
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Latest" } },
  };
}

/** A valid scenario changed by `mutate`, rendered as YAML text (for `parseScenario`). */
export function scenarioYaml(mutate: (s: Doc) => void = () => {}): string {
  const s = validScenario();
  mutate(s);
  return stringify(s);
}

/** A member of the valid scenario's shape, for tests that add members. */
export function member(name: string, group?: string, region = "westeurope"): Doc {
  return cluster(name, group, region);
}

/** Run `fn`, expect a ValidationError, and return its issues. */
export function issuesOf(fn: () => unknown): FieldIssue[] {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  if (thrown === undefined) throw new Error("expected a ValidationError, but the input was accepted");
  if (!(thrown instanceof ValidationError)) throw new Error(`expected a ValidationError, got ${String(thrown)}`);
  return thrown.issues;
}

/**
 * `fn` throws a ValidationError with an issue at exactly `path` whose message contains (or matches)
 * `messagePart`. Returns all issues, for further checks.
 */
export function expectIssue(fn: () => unknown, path: string, messagePart: string | RegExp): FieldIssue[] {
  const issues = issuesOf(fn);
  const atPath = issues.filter((i) => i.path === path);
  const matches = (m: string) => (typeof messagePart === "string" ? m.includes(messagePart) : messagePart.test(m));
  expect(
    atPath.some((i) => matches(i.message)),
    `expected an issue at '${path}' matching ${String(messagePart)}; got:\n${issues.map((i) => `  ${i.path}: ${i.message}`).join("\n")}`,
  ).toBe(true);
  return issues;
}

/** `fn` does not throw; if it throws a ValidationError, show its issues. */
export function expectValid<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ValidationError) {
      throw new Error(`expected valid input, got issues:\n${e.issues.map((i) => `  ${i.path}: ${i.message}`).join("\n")}`);
    }
    throw e;
  }
}

/** No issue is at `path` (for "this is a warning, not an error" checks). */
export function expectNoIssueAt(issues: FieldIssue[], path: string): void {
  expect(issues.filter((i) => i.path === path)).toEqual([]);
}
