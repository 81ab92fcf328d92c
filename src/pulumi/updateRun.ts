/**
 * `UpdateRun`: one staged update of a fleet's members. `pulumi up` executes it — stages in order,
 * groups in parallel, members one at a time, waits, maintenance windows — and stores the status tree
 * (Azure Fleet's `UpdateRunStatus`) as outputs.
 */
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { RunSummary } from "../engine/summary";
import type { ExcludedMember } from "../model/run";
import type { FailedMember } from "../engine/results";
import type { MemberDrift } from "../engine/drift";
import type { SkipTarget } from "../model/skip";
import type { UpdateRunStrategy } from "../model/strategy";
import type { NodeImageSelectionType, UpgradeType } from "../model/update";
import type { Plan } from "../plan/types";
import type { FleetRunRecord } from "../drivers/runDriver";
import { updateRunProvider } from "./providers";
import type { UpdateRunStatusOutput } from "./statusOutput";
import type { UpdateStrategyArgs } from "./updateStrategy";
import type { AzureBackendArgs, AzureFleetBackendArgs, SimulatorBackendArgs } from "./backendArgs";

export type { AzureBackendArgs, AzureFleetBackendArgs, SimulatorBackendArgs } from "./backendArgs";

/** Where the clusters are: exactly one of these. */
export interface BackendArgs {
  /**
   * Fleet Manager runs the update; the fleet's members are the run's (issue 12). Its `apiVersion`
   * (issue 21) says which strategy fields Fleet takes: "2026-06-01" (the default) `maxConcurrency`,
   * "2026-06-02-preview" also `maxAllowedFailures`.
   */
  azureFleet?: pulumi.Input<AzureFleetBackendArgs>;
  /** The embedded simulated fleet. */
  simulator?: pulumi.Input<SimulatorBackendArgs>;
  /** Real AKS clusters; members then need `clusterResourceId`. */
  azure?: pulumi.Input<AzureBackendArgs>;
}

/** A fleet member: one AKS cluster. */
export interface MemberArgs {
  /** Unique in the fleet (lowercase letters, digits, '-'). */
  name: pulumi.Input<string>;
  /** The update group the member belongs to. */
  group?: pulumi.Input<string>;
  /** Labels that stages and groups select members by (`memberSelector.byLabel`, docs/rules.md §16). */
  labels?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** ARM id of the managed cluster; optional for the simulator. */
  clusterResourceId?: pulumi.Input<string>;
  /** A probe that must answer 2xx after the member's upgrade before it counts as Completed. */
  healthCheck?: pulumi.Input<HealthCheckArgs>;
}

/** A member's health probe (issue 5). The URL is probed from where `pulumi up` runs. */
export interface HealthCheckArgs {
  /** HTTP(S) URL; any 2xx answer is healthy. A query string is never shown in statuses or logs. */
  url: pulumi.Input<string>;
  /** Seconds to let the cluster settle after its upgrade before the first probe; default 60. */
  settleSeconds?: pulumi.Input<number>;
  /** Probes after a failed one before the member fails; default 3. */
  retries?: pulumi.Input<number>;
  /** Seconds between probes; default 30. */
  intervalSeconds?: pulumi.Input<number>;
}

/**
 * The upgrade to apply to each member. The enums also accept any string, as azure-native's
 * `ManagedClusterUpgradeSpecArgs` does: the provider's check rejects anything but the values listed.
 */
export interface ManagedClusterUpgradeSpecArgs {
  /** Full, ControlPlaneOnly or NodeImageOnly. */
  type: pulumi.Input<UpgradeType | (string & {})>;
  /** `major.minor.patch`: required for Full and ControlPlaneOnly, absent for NodeImageOnly. */
  kubernetesVersion?: pulumi.Input<string | undefined>;
}

/** A node image version, e.g. `AKSUbuntu-2204gen2containerd-202611.24.0`. */
export interface NodeImageVersionArgs {
  version: pulumi.Input<string>;
}

/** Which node images the members get. */
export interface NodeImageSelectionArgs {
  /** Latest, Consistent or Custom (any other string fails the provider's check). */
  type: pulumi.Input<NodeImageSelectionType | (string & {})>;
  /** Custom only: at most one version per image family. */
  customNodeImageVersions?: pulumi.Input<pulumi.Input<NodeImageVersionArgs>[] | undefined>;
}

/** Azure's `ManagedClusterUpdate`, as Pulumi inputs: azure-native's `containerservice.ManagedClusterUpdateArgs` fits. */
export interface ManagedClusterUpdateArgs {
  upgrade: pulumi.Input<ManagedClusterUpgradeSpecArgs>;
  /** Default: Latest. */
  nodeImageSelection?: pulumi.Input<NodeImageSelectionArgs | undefined>;
}

/** Fleet Manager's `AutoUpgradeProfileProperties` that shape a run (docs/rules.md §18). */
export interface AutoUpgradeProfileArgs {
  /** `Stable`, `Rapid`, `NodeImage` or `TargetKubernetesVersion`. */
  channel: pulumi.Input<"Stable" | "Rapid" | "NodeImage" | "TargetKubernetesVersion" | "SecurityPatch">;
  /** `major.minor` (e.g. "1.33"), with `TargetKubernetesVersion` only: the minor whose latest patch is taken. */
  targetKubernetesVersion?: pulumi.Input<string>;
  /** With `TargetKubernetesVersion` only: allow a minor older than N-2 that AKS supports long-term. */
  longTermSupport?: pulumi.Input<boolean>;
  /** `Latest` (default) or `Consistent`. */
  nodeImageSelection?: pulumi.Input<{ type: pulumi.Input<"Latest" | "Consistent"> }>;
}

/**
 * Where the run's events go as they happen (issue 24): each state change POSTed as JSON, in order,
 * retried with backoff, never holding up the run — what `fleet-update run --webhook` does.
 */
export interface WebhookArgs {
  /** http(s) URL. Messages name it by its origin only (its path and query may hold tokens). */
  url: pulumi.Input<string>;
  /** Sent as `Authorization: Bearer <token>` with every event. Give it as a secret (`pulumi config set --secret`). */
  token?: pulumi.Input<string>;
}

/** Issue 31: an HTTP header sent with each measurement (Argo's `{key, value}`); its value is never shown nor stored. */
export interface AnalysisHeaderArgs {
  key: pulumi.Input<string>;
  value: pulumi.Input<string>;
}

/** Issue 31: exactly one of `web` (an HTTP probe: any 2xx is Successful) and `prometheus` (a PromQL query). */
export interface AnalysisProviderArgs {
  web?: pulumi.Input<{ url: pulumi.Input<string>; headers?: pulumi.Input<pulumi.Input<AnalysisHeaderArgs>[]>; timeoutSeconds?: pulumi.Input<number> }>;
  prometheus?: pulumi.Input<{
    /** Base URL of a Prometheus-compatible HTTP API; `/api/v1/query` is appended. */
    address: pulumi.Input<string>;
    /** PromQL; may use `{{member.name}}` and `{{member.labels.<key>}}`. */
    query: pulumi.Input<string>;
    headers?: pulumi.Input<pulumi.Input<AnalysisHeaderArgs>[]>;
    timeoutSeconds?: pulumi.Input<number>;
    /** `{ azureIdentity: { scope? } }`: a bearer token from DefaultAzureCredential (an Azure Monitor workspace). */
    authentication?: pulumi.Input<{ azureIdentity: pulumi.Input<{ scope?: pulumi.Input<string> }> }>;
  }>;
}

/** Issue 31: one analysis template — an Argo Rollouts metric (docs/health-analysis.md). */
export interface AnalysisTemplateArgs {
  name: pulumi.Input<string>;
  provider: pulumi.Input<AnalysisProviderArgs>;
  /** Argo durations: `30s`, `5m`, `1h30m`. Defaults: 0s and 1m. */
  initialDelay?: pulumi.Input<string>;
  interval?: pulumi.Input<string>;
  count?: pulumi.Input<number>;
  failureLimit?: pulumi.Input<number>;
  inconclusiveLimit?: pulumi.Input<number>;
  consecutiveErrorLimit?: pulumi.Input<number>;
  /** prometheus: e.g. `result < 0.05` (every sample) or `result[0] >= 0.95`. */
  successCondition?: pulumi.Input<string>;
  failureCondition?: pulumi.Input<string>;
  /** prometheus: what a query with no sample is (default Inconclusive). */
  noData?: pulumi.Input<"Successful" | "Failed" | "Inconclusive">;
}

/** Issue 31: health analysis — templates declared once, used after each member, before a stage and through its soak. */
export interface AnalysisArgs {
  templates: pulumi.Input<pulumi.Input<AnalysisTemplateArgs>[]>;
  /** Templates measured after each member's upgrade; a failure fails the member. */
  afterMember?: pulumi.Input<pulumi.Input<string>[]>;
  /** Per stage (by name): `preCheck` before it starts, `soak` through its after-stage wait, its members' `afterMember`. */
  stages?: pulumi.Input<
    pulumi.Input<{ name: pulumi.Input<string>; preCheck?: pulumi.Input<pulumi.Input<string>[]>; soak?: pulumi.Input<pulumi.Input<string>[]>; afterMember?: pulumi.Input<pulumi.Input<string>[]> }>[]
  >;
}

export interface UpdateRunArgs {
  /** Where the clusters are. */
  backend: pulumi.Input<BackendArgs>;
  /** The members taking part. A member whose group is in no stage is left out (listed in `excludedMembers`). */
  members: pulumi.Input<pulumi.Input<MemberArgs>[]>;
  /** The sequence: an `UpdateStrategy`'s `strategy` output or inline stages. Omitted: one by one. */
  strategy?: pulumi.Input<UpdateStrategyArgs | undefined>;
  /**
   * azureFleet only (issue 12), instead of `strategy`: the ARM id of a strategy kept in Fleet Manager —
   * an `UpdateStrategy` with `backend.azureFleet`'s `updateStrategyId`. Fleet snapshots it at creation.
   */
  updateStrategyId?: pulumi.Input<string>;
  /** What to do to each member: upgrade type, Kubernetes version, node image selection. Exactly one of this and `autoUpgradeProfile`. */
  managedClusterUpdate?: pulumi.Input<ManagedClusterUpdateArgs>;
  /**
   * Instead of `managedClusterUpdate` (issue 22): the update is generated when the run starts, from the
   * versions AKS offers in the members' regions then — `Rapid`: the latest patch of the newest minor;
   * `Stable`: of the minor before it; `TargetKubernetesVersion`: of `targetKubernetesVersion`
   * (`major.minor`); `NodeImage`: the newest node images. The result is the `generatedUpdate` output.
   */
  autoUpgradeProfile?: pulumi.Input<AutoUpgradeProfileArgs>;
  /**
   * Issue 31: health analysis (docs/health-analysis.md): a failed analysis after a member fails it; a
   * failed pre-check or soak halts the run before the next stage. Secret as a whole (its headers may
   * hold tokens): kept encrypted in the stack, never in the run's journal or engine state. Part of what
   * the run is (a change is a new run), its headers' values aside (a rotated token steers the same run).
   */
  analysis?: pulumi.Input<AnalysisArgs>;
  /** "Running" (default) runs to the end; "Stopped" lets in-flight upgrades finish and starts no more; "NotStarted" holds a new run. */
  state?: pulumi.Input<"Running" | "Stopped" | "NotStarted">;
  /** Items to skip, all at once: Member, Group, Stage or AfterStageWait (by the stage's name). */
  skip?: pulumi.Input<pulumi.Input<SkipTarget>[]>;
  /** Our own deadline for one `pulumi up`, in minutes (default 240): the host ignores customTimeouts. */
  timeoutMinutes?: pulumi.Input<number>;
  /**
   * Approved gate ids (`canary/after/0`, `prod/prod-eu/before/0`; the status lists every gate's id).
   * A run reaching an unapproved gate returns successfully with the gate Pending; the next `pulumi up`
   * with the approval committed continues. Applied as a whole on every `pulumi up`.
   */
  approvals?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Return successfully when nothing is in flight and the next step (a wait, a window, a version) is
   * more than this many minutes away; the next `pulumi up` continues. Unset: wait in place.
   */
  returnAfterMinutes?: pulumi.Input<number>;
  /**
   * The folder relative paths (`fleetFile`, `stateFile`, `trustedCaFile`, the journal directory
   * `.fleet-update/runs`) are resolved against. Default: the Pulumi project's folder — the one holding
   * Pulumi.yaml, as `pulumi.runtime.getRootDirectory()` reports it when the program runs (the program's
   * working directory if the runtime does not say). The engine starts the provider in the `main`
   * folder, so its working directory cannot be used. A change of this alone (the same project run from
   * another checkout path) neither replaces nor updates the run.
   */
  projectDir?: pulumi.Input<string>;
  /**
   * POST each of the run's events to a URL, with an optional bearer token. Secret as a whole (its URL
   * may hold a token too): kept encrypted in the stack, never in the run's journal or engine state. A
   * change of it neither replaces nor restarts the run: the next `pulumi up` delivers to the new one.
   */
  webhook?: pulumi.Input<WebhookArgs>;
}

/** The Pulumi project's folder as the running program sees it (see `UpdateRunArgs.projectDir`). */
function currentProjectDir(): string {
  // Unset, the runtime reports a placeholder ("rootDirectory" under mocks), never an absolute path.
  const root = pulumi.runtime.getRootDirectory();
  return path.isAbsolute(root) ? root : process.cwd();
}

/**
 * Outputs the engine stores as secrets whatever the inputs (issue 11). The dynamic-provider host does
 * not accept secrets, so the engine marks an output secret only when it sits under the same key as a
 * secret input; `engineState` copies every input that defines the run (members, strategy, target), so
 * it is always secret; `webhook` (issue 24) holds a bearer token and a URL that may hold one; `analysis`
 * (issue 31) headers that may hold tokens. Health-check URLs are kept out of every output besides
 * (`src/drivers/healthChecks.ts`).
 */
export const UPDATE_RUN_SECRET_OUTPUTS: readonly string[] = ["engineState", "webhook", "analysis"];

export class UpdateRun extends pulumi.dynamic.Resource {
  /**
   * docs/rules.md §5: the run's status tree in Azure's `UpdateRunStatus` shape, typed like azure-native's
   * `UpdateRunStatusResponse` (fields without a value are absent, as in Azure's; see statusOutput.ts).
   */
  declare readonly status: pulumi.Output<UpdateRunStatusOutput>;
  /** Counts per state, start, end, duration and outcome. */
  declare readonly summary: pulumi.Output<RunSummary>;
  /** The strategy the run snapshotted when it was created. */
  declare readonly strategySnapshot: pulumi.Output<UpdateRunStrategy>;
  /** Node image versions picked for the run (Consistent) or given (Custom). */
  declare readonly selectedNodeImageVersions: pulumi.Output<string[]>;
  /** Members left out because their group is in no stage. */
  declare readonly excludedMembers: pulumi.Output<ExcludedMember[]>;
  /** Members that failed (name, group, cluster): pass as `members` of a retry run. */
  declare readonly failedMembers: pulumi.Output<FailedMember[]>;
  /**
   * One node image per family that the run actually applied: pass as `nodeImageSelection:
   * { type: "Custom", customNodeImageVersions }` to retry or promote with exactly these images.
   */
  declare readonly appliedNodeImageVersions: pulumi.Output<Array<{ version: string }>>;
  /**
   * The run as predicted when it was created (simulated fleet, up to 2,000 members): each member's
   * stage, group, priority class, predicted start and end, Pending periods, and the pre-flight
   * findings — `fleet-update plan --json`'s object. Absent on Azure (use `fleet-update plan`).
   */
  declare readonly plan: pulumi.Output<Plan | undefined>;
  /**
   * Members the run Completed whose clusters no longer report what it applied (rolled back, changed by
   * hand), as the last `pulumi refresh` found them; each with what the cluster reports. Empty until a
   * refresh finds drift. The run is not re-run: a new run puts them right.
   */
  declare readonly drift: pulumi.Output<MemberDrift[]>;
  /**
   * Issue 12, `backend.azureFleet` only: the ARM id of the fleet's update run, and the skip entries
   * already sent to it (so each is sent once); issue 31: the analyses measured at the client's gates
   * (`analysis`) and, when one failed, why the client stopped the run (`halt`). Absent on the other backends.
   */
  declare readonly fleetRun: pulumi.Output<FleetRunRecord | undefined>;
  /**
   * With `autoUpgradeProfile`: the `managedClusterUpdate` the channel generated when the run started
   * (upgrade type, the Kubernetes version it chose, node image selection). Absent otherwise.
   */
  declare readonly generatedUpdate: pulumi.Output<ManagedClusterUpdateArgs | undefined>;

  constructor(name: string, args: UpdateRunArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      updateRunProvider,
      name,
      {
        ...args,
        // The host accepts no secrets: a secret input reaches the state encrypted only as one (issue 11).
        webhook: args.webhook === undefined ? undefined : pulumi.secret(args.webhook),
        analysis: args.analysis === undefined ? undefined : pulumi.secret(args.analysis),
        runName: name,
        projectDir: args.projectDir ?? currentProjectDir(),
        status: undefined,
        summary: undefined,
        strategySnapshot: undefined,
        selectedNodeImageVersions: undefined,
        excludedMembers: undefined,
        failedMembers: undefined,
        appliedNodeImageVersions: undefined,
        plan: undefined,
        drift: undefined,
        engineState: undefined,
        fleetRun: undefined,
        generatedUpdate: undefined,
      },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...UPDATE_RUN_SECRET_OUTPUTS] },
    );
  }
}
