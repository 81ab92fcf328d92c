/**
 * Valid strategies and UpdateRun inputs with every optional part filled in (so there is something to
 * break), and what the invalid-input generator (`test/support/invalidInput.ts`) needs to know about
 * their fields: which are required, which lists are unique, and field-specific wrong values.
 */
import type { BadValues, Doc, FieldRules, Pattern } from "../../support/invalidInput";

export const CLUSTER_ID_PREFIX = "/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg-fleet/providers/Microsoft.ContainerService/managedClusters/";
export const IMAGE_NEW = "AKSUbuntu-2204gen2containerd-202611.24.0";

/** Two stages, three groups, gates and failure tolerance at both levels. */
export function richStrategy(): Doc {
  return {
    stages: [
      {
        name: "canary",
        groups: [{ name: "canary", maxConcurrency: "1", maxAllowedFailures: "0", beforeGates: [{ type: "Approval", displayName: "QA sign-off" }] }],
        afterStageWaitInSeconds: 3600,
        maxConcurrency: "1",
      },
      {
        name: "production",
        groups: [
          { name: "prod-eu", maxConcurrency: "25%", afterGates: [{ type: "Approval" }] },
          { name: "prod-us", maxAllowedFailures: "10%" },
        ],
        beforeGates: [{ type: "Approval", displayName: "Go for production" }],
        afterGates: [{ type: "Approval" }],
        maxAllowedFailures: "1",
        maxConcurrency: "3",
      },
    ],
  };
}

const at = (prefix: Pattern, ...rest: Array<string | number>): Pattern => [...prefix, ...rest];

const BAD_NAMES = ["", "Canary", "-canary", "canary-", "can_ary", "can ary", "canary\n", "ünicode", "a".repeat(51)];
const BAD_CONCURRENCY = ["0", "0%", "101%", "1.5", "-1", "abc", "", " 3", "3 ", "1000000", "5%%", 0, -2, 1.5];
const BAD_TOLERANCE = ["-1", "101%", "1.5", "abc", "", "1000000", "1 %", -1, 1.5];
const GATE_LISTS = ["beforeGates", "afterGates"];

/** The strategy's rules, for a strategy at `prefix` (`[]` alone, `["strategy"]` in run inputs). */
export function strategyRules(prefix: Pattern): Pick<FieldRules, "required" | "uniqueLists" | "badValues" | "numbersAllowed"> {
  const stage = at(prefix, "stages", "*");
  const group = at(stage, "groups", "*");
  const gates = GATE_LISTS.flatMap((list) => [at(stage, list), at(group, list)]);
  const badValues: BadValues[] = [
    { at: at(prefix, "stages"), kind: "no stages", values: [[]] },
    { at: at(stage, "groups"), kind: "groups", values: [[], Array.from({ length: 51 }, (_, i) => ({ name: `g-${i}` }))] },
    ...[at(stage, "name"), at(group, "name")].map((p) => ({ at: p, kind: "bad name", values: BAD_NAMES })),
    ...[at(stage, "maxConcurrency"), at(group, "maxConcurrency")].map((p) => ({ at: p, kind: "bad concurrency", values: BAD_CONCURRENCY })),
    ...[at(stage, "maxAllowedFailures"), at(group, "maxAllowedFailures")].map((p) => ({ at: p, kind: "bad failure tolerance", values: BAD_TOLERANCE })),
    { at: at(stage, "afterStageWaitInSeconds"), kind: "bad wait", values: [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY] },
    ...gates.map((p) => ({ at: p, kind: "too many gates", values: [Array.from({ length: 11 }, () => ({ type: "Approval" }))] })),
    ...gates.map((p) => ({ at: at(p, "*", "type"), kind: "wrong enum value", values: ["approval", "Manual", "", "APPROVAL"] })),
    ...gates.map((p) => ({ at: at(p, "*", "displayName"), kind: "bad display name", values: ["", "x".repeat(101)] })),
  ];
  return {
    required: [at(prefix, "stages"), at(stage, "name"), at(stage, "groups"), at(group, "name"), ...gates.map((p) => at(p, "*", "type"))],
    uniqueLists: [at(prefix, "stages"), at(stage, "groups")],
    badValues,
    // YAML reads `maxAllowedFailures: 0` as a number, and 0 failures is a valid tolerance
    numbersAllowed: [at(stage, "maxAllowedFailures"), at(group, "maxAllowedFailures")],
  };
}

export const STRATEGY_RULES: FieldRules = strategyRules([]);

export const PROVIDER_STUB = "exports.handler = () => ({});";

/** UpdateRun inputs as the provider host sends them, on the simulated fleet in `fleetFile` (which check never reads). */
export function richSimulatorRun(fleetFile: string, stateFile: string): Doc {
  return {
    __provider: PROVIDER_STUB,
    runName: "bad-input",
    backend: { simulator: { fleetFile, stateFile, timeScale: 1000 } },
    members: [
      { name: "canary-1", group: "canary" },
      { name: "eu-1", group: "prod-eu", clusterResourceId: `${CLUSTER_ID_PREFIX}eu-1` },
      { name: "eu-2", group: "prod-eu" },
      { name: "us-1", group: "prod-us" },
    ],
    strategy: richStrategy(),
    managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Custom", customNodeImageVersions: [{ version: IMAGE_NEW }] } },
    state: "Running",
    skip: [{ type: "Member", name: "eu-2" }, { type: "AfterStageWait", name: "canary" }],
    timeoutMinutes: 30,
  };
}

/** The same run on real AKS through ARM at `endpoint` (every member needs its cluster id there). */
export function richAzureRun(endpoint: string, trustedCaFile: string, runName: string): Doc {
  const run = richSimulatorRun("unused", "unused");
  run.runName = runName;
  run.backend = { azure: { endpoint, credential: "emulator", trustedCaFile, pollIntervalSeconds: { initial: 5, steady: 30 } } };
  run.members = run.members.map((m: Doc) => ({ ...m, clusterResourceId: `${CLUSTER_ID_PREFIX}${m.name}` }));
  run.managedClusterUpdate = { upgrade: { type: "NodeImageOnly" }, nodeImageSelection: { type: "Consistent" } };
  return run;
}

const strategy = strategyRules(["strategy"]);
const member = ["members", "*"];
const update = ["managedClusterUpdate"];
const selection = [...update, "nodeImageSelection"];
const simulator = ["backend", "simulator"];
const azure = ["backend", "azure"];

/** The rules of `richSimulatorRun` or `richAzureRun`'s inputs. */
export function runRules(backend: "simulator" | "azure"): FieldRules {
  return {
    required: [
      ...strategy.required,
      ["runName"],
      ["backend"],
      ["members"],
      ["managedClusterUpdate"],
      [...simulator, "fleetFile"],
      [...member, "name"],
      [...update, "upgrade"],
      [...update, "upgrade", "type"],
      // required for a Full upgrade (the simulator base); must be absent for NodeImageOnly (the Azure base)
      [...update, "upgrade", "kubernetesVersion"],
      // required when the type is Custom (the simulator base)
      [...selection, "customNodeImageVersions"],
      [...selection, "customNodeImageVersions", "*", "version"],
      ["skip", "*", "type"],
      ["skip", "*", "name"],
      [...azure, "pollIntervalSeconds", "initial"],
      [...azure, "pollIntervalSeconds", "steady"],
      // required with the Azure backend only
      ...(backend === "azure" ? [[...member, "clusterResourceId"]] : []),
    ],
    uniqueLists: [...strategy.uniqueLists, ["members"], [...selection, "customNodeImageVersions"]],
    badValues: [
      ...strategy.badValues,
      { at: ["runName"], kind: "empty", values: [""] },
      { at: ["backend"], kind: "not exactly one backend", values: [{}, { simulator: { fleetFile: "fleet.yaml" }, azure: {} }] },
      { at: [...simulator, "fleetFile"], kind: "empty", values: [""] },
      { at: [...simulator, "stateFile"], kind: "empty", values: [""] },
      { at: [...simulator, "timeScale"], kind: "out of range", values: [0, -1, 1_000_001, Number.NaN, Number.POSITIVE_INFINITY] },
      { at: [...azure, "endpoint"], kind: "not a URL", values: ["", "management.azure.com", "https://", "not a url"] },
      { at: [...azure, "credential"], kind: "wrong enum value", values: ["", "managed", "Default", "EMULATOR"] },
      { at: azure, kind: "emulator credential off localhost", values: [{ endpoint: "https://management.azure.com", credential: "emulator" }, { credential: "emulator" }] },
      { at: [...azure, "trustedCaFile"], kind: "empty", values: [""] },
      { at: [...azure, "pollIntervalSeconds", "initial"], kind: "out of range", values: [0, -1, Number.NaN] },
      { at: [...azure, "pollIntervalSeconds", "steady"], kind: "out of range", values: [0, -1, Number.POSITIVE_INFINITY] },
      { at: [...member, "name"], kind: "bad name", values: BAD_NAMES },
      { at: [...member, "group"], kind: "bad name", values: BAD_NAMES },
      {
        at: [...member, "clusterResourceId"],
        kind: "bad cluster id",
        values: [
          "",
          "aks-1",
          `${CLUSTER_ID_PREFIX}`,
          `${CLUSTER_ID_PREFIX}aks-1/`,
          "/subscriptions/not-a-guid/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks-1",
          "/subscriptions/00000000-1111-2222-3333-444444444444/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-1",
        ],
      },
      { at: [...update, "upgrade", "type"], kind: "wrong enum value", values: ["", "Partial", "full", "NodeImage", "FULL"] },
      { at: [...update, "upgrade", "kubernetesVersion"], kind: "bad version", values: ["", "1.32", "v1.32.0", "1.32.0-rc.1", "latest", " 1.32.0", "1.32.0.1", "1.32.x", 1.32] },
      { at: [...selection, "type"], kind: "wrong enum value", values: ["", "Newest", "latest", "CUSTOM"] },
      { at: [...selection, "customNodeImageVersions"], kind: "no versions", values: [[]] },
      {
        at: [...selection, "customNodeImageVersions", "*", "version"],
        kind: "bad node image version",
        values: ["", "AKSUbuntu", "202611.24.0", "AKSUbuntu-2204gen2containerd-", "-202611.24.0", "AKS Ubuntu-2204-202611.24.0", `${IMAGE_NEW} `, `AKSUbuntu-${"2204gen2containerd".repeat(16)}-202611.24.0`],
      },
      { at: ["state"], kind: "wrong enum value", values: ["", "Paused", "running", "Completed", "Failed"] },
      { at: ["skip", "*", "type"], kind: "wrong enum value", values: ["", "Cluster", "member", "Wait"] },
      { at: ["skip", "*", "name"], kind: "bad name", values: BAD_NAMES },
      { at: ["timeoutMinutes"], kind: "out of range", values: [0, -1, Number.NaN, Number.POSITIVE_INFINITY] },
    ],
    numbersAllowed: strategy.numbersAllowed,
    // Paths to files: any length the file system takes is theirs to refuse.
    unbounded: [[...simulator, "fleetFile"], [...simulator, "stateFile"], [...azure, "trustedCaFile"]],
    untouched: [["__provider"]],
    replaceRoot: false,
  };
}
