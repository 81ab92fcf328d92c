/**
 * `UpdateRun`: one staged update of a fleet's members. `pulumi up` executes it — stages in order,
 * groups in parallel, members one at a time, waits, maintenance windows — and stores the status tree
 * (Azure Fleet's `UpdateRunStatus`) as outputs.
 */
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { RunSummary } from "../../engine/summary";
import type { ExcludedMember } from "../../model/run";
import type { FailedMember } from "../../engine/results";
import type { MemberDrift } from "../../engine/drift";
import type { SkipTarget } from "../../model/skip";
import type { UpdateRunStrategy } from "../../model/strategy";
import type { NodeImageSelectionType, UpgradeType } from "../../model/update";
import type { Plan } from "../../plan/types";
import type { FleetRunRecord } from "../../drivers/runDriver";
import { updateRunProvider } from "./providers";
import { UPDATE_RUN_OUTPUTS, UPDATE_RUN_SECRET_OUTPUTS } from "../surface";
import type { UpdateRunStatusOutput } from "./statusOutput";
import type { UpdateStrategyArgs } from "./updateStrategy";
import type { AzureBackendArgs, AzureFleetBackendArgs, SimulatorBackendArgs } from "./backendArgs";

export type { AzureBackendArgs, AzureFleetBackendArgs, SimulatorBackendArgs } from "./backendArgs";

/** Where the clusters are: exactly one of `simulator`, `azure`, `azureFleet`. */
export interface BackendArgs {
  /** Fleet Manager runs the update; the fleet's members are the run's. */
  azureFleet?: pulumi.Input<AzureFleetBackendArgs>;
  /** The embedded simulated fleet. */
  simulator?: pulumi.Input<SimulatorBackendArgs>;
  /** Real AKS clusters through ARM; members then need `clusterResourceId`. */
  azure?: pulumi.Input<AzureBackendArgs>;
}

/** A fleet member: one AKS cluster. */
export interface MemberArgs {
  /** Unique in the fleet: lowercase letters, digits and '-', at most 50 characters. */
  name: pulumi.Input<string>;
  /** The update group the member belongs to. */
  group?: pulumi.Input<string>;
  /** Labels that stages and groups select members by (`memberSelector.byLabel`). */
  labels?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** ARM id of the managed cluster; optional on the simulated fleet. */
  clusterResourceId?: pulumi.Input<string>;
  /** A probe that must answer 2xx after the member's upgrade before it counts as Completed. */
  healthCheck?: pulumi.Input<HealthCheckArgs>;
}

/**
 * A probe that must answer 2xx after the member's upgrade before the member counts as Completed. Probed from
 * where `pulumi up` runs.
 */
export interface HealthCheckArgs {
  /**
   * HTTP(S) URL, probed with GET from where `pulumi up` runs; any 2xx answer is healthy. It may carry a
   * token: statuses, events and logs show it without its query and credentials, the run's journal and
   * `engineState` leave it out, and the provider plugin keeps it secret in the state (in TypeScript, pass
   * `pulumi.secret(...)`).
   */
  url: pulumi.Input<string>;
  /** Seconds to let the cluster settle after its upgrade before the first probe; default 60. */
  settleSeconds?: pulumi.Input<number>;
  /** Probes after a failed one before the member fails; default 3. */
  retries?: pulumi.Input<number>;
  /** Seconds between probes; default 30. */
  intervalSeconds?: pulumi.Input<number>;
}

// The enums also accept any string, as azure-native's `ManagedClusterUpgradeSpecArgs` does: the
// provider's check rejects anything but the values listed.
/** The upgrade: its type and the Kubernetes version. */
export interface ManagedClusterUpgradeSpecArgs {
  /** Full (control plane and node pools), ControlPlaneOnly, or NodeImageOnly. */
  type: pulumi.Input<UpgradeType | (string & {})>;
  /** `major.minor.patch`: required for Full and ControlPlaneOnly, absent for NodeImageOnly. */
  kubernetesVersion?: pulumi.Input<string | undefined>;
}

/** A node image version. */
export interface NodeImageVersionArgs {
  /** A node image version, e.g. `AKSUbuntu-2204gen2containerd-202611.24.0`. */
  version: pulumi.Input<string>;
}

/** Which node images the members get. */
export interface NodeImageSelectionArgs {
  /**
   * Latest (each pool the region's newest image), Consistent (one image per family for the whole run), or
   * Custom (the versions given).
   */
  type: pulumi.Input<NodeImageSelectionType | (string & {})>;
  /** Custom only: at most one version per image family. */
  customNodeImageVersions?: pulumi.Input<pulumi.Input<NodeImageVersionArgs>[] | undefined>;
}

// azure-native's `containerservice.ManagedClusterUpdateArgs` fits (test/pulumi/program/azureNativeTypes.test.ts).
/** Azure's `ManagedClusterUpdate`: the upgrade to apply to each member and the node images it gets. */
export interface ManagedClusterUpdateArgs {
  /** The upgrade to apply. */
  upgrade: pulumi.Input<ManagedClusterUpgradeSpecArgs>;
  /** Which node images the members get; default Latest. */
  nodeImageSelection?: pulumi.Input<NodeImageSelectionArgs | undefined>;
}

/**
 * Fleet Manager's auto-upgrade profile fields that shape a run: the update is generated from the channel when
 * the run starts (docs/rules.md §18).
 */
export interface AutoUpgradeProfileArgs {
  /**
   * Stable, Rapid, NodeImage, TargetKubernetesVersion or SecurityPatch (a node-image update; on Fleet Manager
   * from api-version 2026-06-02-preview).
   */
  channel: pulumi.Input<"Stable" | "Rapid" | "NodeImage" | "TargetKubernetesVersion" | "SecurityPatch">;
  /** `major.minor` (e.g. 1.33), with TargetKubernetesVersion only: the minor whose latest patch is taken. */
  targetKubernetesVersion?: pulumi.Input<string>;
  /** With TargetKubernetesVersion only: allow a minor older than N-2 that AKS supports long-term. */
  longTermSupport?: pulumi.Input<boolean>;
  /** Which node images the generated update takes; default Latest. */
  nodeImageSelection?: pulumi.Input<{ type: pulumi.Input<"Latest" | "Consistent"> }>;
}

/**
 * Where a run's events are POSTed as they happen (what `fleet-update run --webhook` does), with an optional
 * bearer token.
 */
export interface WebhookArgs {
  /**
   * http(s) URL the events are POSTed to. Secret in the state (its path or query may hold a token); messages
   * name it by its origin only.
   */
  url: pulumi.Input<string>;
  /**
   * Sent as `Authorization: Bearer <token>` with every event. Secret: encrypted in the state, never in the
   * run's journal, outputs in plain text or logs. Give it as a secret (`pulumi config set --secret`).
   */
  token?: pulumi.Input<string>;
}

/** An HTTP header sent with each measurement (Argo's `{key, value}`). */
export interface AnalysisHeaderArgs {
  /** The header's name. */
  key: pulumi.Input<string>;
  /** The header's value; may be a secret: never shown, never stored. */
  value: pulumi.Input<string>;
}

/** An HTTP probe: GET `url`; any 2xx answer is a Successful measurement, anything else Failed. */
export interface WebAnalysisProviderArgs {
  /**
   * HTTP(S) URL to GET; any 2xx answer is Successful. May hold a token in its query or credentials: shown
   * without them.
   */
  url: pulumi.Input<string>;
  /** Headers sent with the request (values never shown). */
  headers?: pulumi.Input<pulumi.Input<AnalysisHeaderArgs>[]>;
  /** Seconds to wait for an answer; default 10. */
  timeoutSeconds?: pulumi.Input<number>;
}

/**
 * Send a bearer token from @azure/identity's DefaultAzureCredential (az login, environment, managed or
 * workload identity): an Azure Monitor workspace's query endpoint.
 */
export interface AzureIdentityAuthenticationArgs {
  /** Token scope; default https://prometheus.monitor.azure.com/.default. */
  scope?: pulumi.Input<string>;
}

/** How a query authenticates besides its `headers`. */
export interface PrometheusAuthenticationArgs {
  /** A bearer token from DefaultAzureCredential, for an Azure Monitor workspace's query endpoint. */
  azureIdentity: pulumi.Input<AzureIdentityAuthenticationArgs>;
}

/** A PromQL query to a Prometheus-compatible HTTP API; each sample of the answer is judged by the conditions. */
export interface PrometheusAnalysisProviderArgs {
  /**
   * Base URL of a Prometheus-compatible HTTP API, e.g. http://prometheus:9090 or an Azure Monitor workspace's
   * query endpoint; `/api/v1/query` is appended.
   */
  address: pulumi.Input<string>;
  /**
   * PromQL, evaluated at the measurement's instant. May use `{{member.name}}` and `{{member.labels.<key>}}`:
   * then it is evaluated once per member measured.
   */
  query: pulumi.Input<string>;
  /** Headers sent with each query, e.g. a bearer token (values never shown, never stored). */
  headers?: pulumi.Input<pulumi.Input<AnalysisHeaderArgs>[]>;
  /** Seconds to wait for an answer; default 10. */
  timeoutSeconds?: pulumi.Input<number>;
  /** How to authenticate besides `headers`. */
  authentication?: pulumi.Input<PrometheusAuthenticationArgs>;
}

/** What measures: exactly one of `web` (an HTTP probe) and `prometheus` (a PromQL query). */
export interface AnalysisProviderArgs {
  /** Measure with an HTTP probe. */
  web?: pulumi.Input<WebAnalysisProviderArgs>;
  /** Measure with a PromQL query. */
  prometheus?: pulumi.Input<PrometheusAnalysisProviderArgs>;
}

// One analysis template is an Argo Rollouts metric (docs/health-analysis.md).
/** One analysis (an Argo Rollouts metric): what is measured, when, and what passes. */
export interface AnalysisTemplateArgs {
  /** The template's name, unique in the run; uses refer to it. */
  name: pulumi.Input<string>;
  /** What measures: `web` or `prometheus`. */
  provider: pulumi.Input<AnalysisProviderArgs>;
  /** Wait this long before the first measurement (Argo duration: 30s, 5m, 1h); default 0s. */
  initialDelay?: pulumi.Input<string>;
  /** Time between measurements; default 1m. */
  interval?: pulumi.Input<string>;
  /**
   * Measurements to take; default 1 after a member and before a stage, and as many as fit in the after-stage
   * wait during a soak.
   */
  count?: pulumi.Input<number>;
  /** Failed measurements tolerated; one more fails the analysis. Default 0. */
  failureLimit?: pulumi.Input<number>;
  /**
   * Inconclusive measurements tolerated; one more ends the analysis Inconclusive, which counts as a failure.
   * Default 0.
   */
  inconclusiveLimit?: pulumi.Input<number>;
  /**
   * Measurements in a row that could not be taken (the server unreachable, a bad query) tolerated; one more
   * ends the analysis in Error, a failure. Default 4.
   */
  consecutiveErrorLimit?: pulumi.Input<number>;
  /**
   * prometheus: when a measurement is Successful, e.g. `result < 0.05` (every sample) or `result[0] >= 0.95`
   * (the first); comparisons joined by && or ||.
   */
  successCondition?: pulumi.Input<string>;
  /** prometheus: when a measurement is Failed. With both conditions, a measurement meeting neither is Inconclusive. */
  failureCondition?: pulumi.Input<string>;
  /** prometheus: what a measurement whose query returns no sample is; default Inconclusive. */
  noData?: pulumi.Input<"Successful" | "Failed" | "Inconclusive">;
}

/** The analyses one stage uses. */
export interface StageAnalysisArgs {
  /** The stage of the strategy these uses belong to. */
  name: pulumi.Input<string>;
  /**
   * Templates measured over the stage's members about to be upgraded, before any starts; a failure halts the
   * run, nothing of the stage touched.
   */
  preCheck?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Templates measured over the stage's upgraded members through its after-stage wait; a failure halts the
   * run before the next stage.
   */
  soak?: pulumi.Input<pulumi.Input<string>[]>;
  /** Templates measured after each of the stage's members is upgraded (besides the run's `afterMember`). */
  afterMember?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * Health analysis: templates declared once, used after each member, before a stage and through its soak
 * (docs/health-analysis.md).
 */
export interface AnalysisArgs {
  /** The analyses, declared once; each use names one. */
  templates: pulumi.Input<pulumi.Input<AnalysisTemplateArgs>[]>;
  /**
   * Templates measured after each member's upgrade, before it counts as Completed; a failure fails the member
   * (tolerance applies).
   */
  afterMember?: pulumi.Input<pulumi.Input<string>[]>;
  /** Per stage: pre-checks, soak analyses, and afterMember analyses for its members. */
  stages?: pulumi.Input<pulumi.Input<StageAnalysisArgs>[]>;
}

export interface UpdateRunArgs {
  /** Where the clusters are: the simulated fleet, real AKS through ARM, or Fleet Manager. */
  backend: pulumi.Input<BackendArgs>;
  /**
   * The members taking part. A member no group takes — its group is in no stage, or no group's
   * `memberSelector` selects it — is left out and listed in `excludedMembers`. On `azureFleet` the fleet's
   * members; listed ones are checked against the fleet.
   */
  members: pulumi.Input<pulumi.Input<MemberArgs>[]>;
  /** The sequence: an `UpdateStrategy`'s `strategy` output or inline stages. Omitted: members one by one. */
  strategy?: pulumi.Input<UpdateStrategyArgs | undefined>;
  /**
   * `azureFleet` only, instead of `strategy`: the ARM id of a strategy kept in Fleet Manager (an
   * `UpdateStrategy`'s `updateStrategyId`). Fleet snapshots it when the run is created.
   */
  updateStrategyId?: pulumi.Input<string>;
  /** What to do to each member: upgrade type, Kubernetes version, node image selection. Exactly one of this and `autoUpgradeProfile`. */
  managedClusterUpdate?: pulumi.Input<ManagedClusterUpdateArgs>;
  /**
   * Instead of `managedClusterUpdate`: the update is generated when the run starts, from the versions AKS
   * offers in the members' regions then — Rapid: the latest patch of the newest minor; Stable: of the minor
   * before it; TargetKubernetesVersion: of `targetKubernetesVersion`; NodeImage and SecurityPatch (Fleet
   * Manager from api-version 2026-06-02-preview): the newest node images. The result is the `generatedUpdate`
   * output.
   */
  autoUpgradeProfile?: pulumi.Input<AutoUpgradeProfileArgs>;
  /**
   * Health analysis, declared once and used after each member's upgrade, before a stage starts and through
   * its soak (docs/health-analysis.md). Secret as a whole (its headers may hold tokens); part of what the run
   * is, its headers' values aside.
   */
  analysis?: pulumi.Input<AnalysisArgs>;
  /**
   * "Running" (default) runs to the end; "Stopped" lets upgrades in flight finish and starts no more;
   * "NotStarted" holds a new run.
   */
  state?: pulumi.Input<"Running" | "Stopped" | "NotStarted">;
  /**
   * Items to skip, applied as a whole on every `pulumi up`: a Member, Group, Stage or AfterStageWait (named
   * by its stage). Only items not yet started are skipped; naming a running item, or one the run does not
   * have, fails the update and changes nothing. The exception: an AfterStageWait counting down ends at once
   * (a soak cut short).
   */
  skip?: pulumi.Input<pulumi.Input<SkipTarget>[]>;
  /**
   * Our own deadline for one `pulumi up`, in minutes (default 240; Pulumi's `customTimeouts` are not used): a
   * run not finished by then fails the update, and the next `pulumi up` continues it.
   */
  timeoutMinutes?: pulumi.Input<number>;
  /**
   * Approved gate ids (`canary/after/0`, `prod/prod-eu/before/0`; the status lists every gate's id), applied
   * as a whole on every `pulumi up`. A run reaching an unapproved gate returns successfully with the gate
   * Pending; the next `pulumi up` with the approval continues.
   */
  approvals?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Return successfully when nothing is in flight and the next step (a wait, a window, a version) is
   * more than this many minutes away; the next `pulumi up` continues. Unset: wait in place.
   */
  returnAfterMinutes?: pulumi.Input<number>;
  /**
   * The folder relative paths (`fleetFile`, `stateFile`, `trustedCaFile`, the journal directory
   * `.fleet-update/runs`) are resolved against. Default: the Pulumi project's folder, the one holding
   * Pulumi.yaml (the TypeScript classes record it when the program runs; the provider plugin takes the folder
   * it was started in, which for a program without `main` is the project's). A change of this alone neither
   * replaces nor updates the run.
   */
  projectDir?: pulumi.Input<string>;
  /**
   * POST each of the run's events (every state change, as JSON) to a URL, in order, retried with backoff,
   * never holding up the run. Secret in the run's outputs; kept out of the run's journal and engine state. A
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

// Outputs the engine stores as secrets whatever the inputs (issue 11): the properties `surface.ts`
// marks `secret` (the engine's state; `webhook`, `analysis`: tokens). The dynamic-provider host accepts
// no secrets, so the engine marks an output secret only when it sits under the same key as a secret
// input, or is in `additionalSecretOutputs`. Health-check URLs are kept out of every output besides
// (`src/drivers/engine/healthChecks.ts`).
export { UPDATE_RUN_SECRET_OUTPUTS } from "../surface";

/**
 * One staged update of a fleet's members: `pulumi up` executes it — stages in order, groups in parallel,
 * members one at a time (or `maxConcurrency` at a time), waits, gates and maintenance windows — and stores
 * the run's status (Azure Fleet's `UpdateRunStatus` shape) as outputs. Changing the target, the members, the
 * strategy or the backend makes a new run; `state`, `skip`, `approvals` and the time limits steer the same
 * run. Destroying it forgets the run; clusters are never touched.
 */
export class UpdateRun extends pulumi.dynamic.Resource {
  /** The run's name in events, progress lines and its journal: the resource's name. */
  declare readonly runName: pulumi.Output<string>;
  /**
   * The run's status tree in Azure Fleet's `UpdateRunStatus` shape (docs/rules.md §5): the run's, each
   * stage's, group's and member's state and times, gates, waits, operation ids and errors; fields without a
   * value are absent, as in Azure's responses.
   */
  declare readonly status: pulumi.Output<UpdateRunStatusOutput>;
  /**
   * Counts of members per state, start, end, duration, and the outcome (`Succeeded`, `CompletedWithFailures`,
   * `Failed`, `Stopped`, `Pending`).
   */
  declare readonly summary: pulumi.Output<RunSummary>;
  /** The strategy the run snapshotted when it was created. */
  declare readonly strategySnapshot: pulumi.Output<UpdateRunStrategy>;
  /** Node image versions picked for the run (Consistent) or given (Custom). */
  declare readonly selectedNodeImageVersions: pulumi.Output<string[]>;
  /**
   * Members left out of the run, each with why: its group is in no stage, or no group's label selector
   * (`memberSelector.byLabel`) selects it.
   */
  declare readonly excludedMembers: pulumi.Output<ExcludedMember[]>;
  /** Members that failed (name, group, cluster): pass them as `members` of a retry run. */
  declare readonly failedMembers: pulumi.Output<FailedMember[]>;
  /**
   * One node image per family that the run actually applied: pass them as `nodeImageSelection: { type:
   * Custom, customNodeImageVersions }` to retry or promote with exactly these images.
   */
  declare readonly appliedNodeImageVersions: pulumi.Output<Array<{ version: string }>>;
  /**
   * The run as predicted when it was created (simulated fleet, up to 2,000 members): each member's stage,
   * group, priority class, predicted start and end, Pending periods, and the pre-flight findings —
   * `fleet-update plan --json`'s object. Absent on Azure (run `fleet-update plan`).
   */
  declare readonly plan: pulumi.Output<Plan | undefined>;
  /**
   * Members the run Completed whose clusters no longer report what it applied (rolled back, changed by hand),
   * as the last `pulumi refresh` found them, each with what the cluster reports. The run is not re-run: a new
   * run puts them right.
   */
  declare readonly drift: pulumi.Output<MemberDrift[]>;
  /**
   * The engine's state to resume the run from (engine driver), without the members' health checks. Secret: it
   * copies the inputs that define the run. Absent on Fleet Manager, which holds the run.
   */
  declare readonly engineState: pulumi.Output<unknown>;
  /**
   * `azureFleet` only: the ARM id of the fleet's update run, the skip entries already sent to it (each is
   * sent once), the analyses measured at the gates the client added (`analysis`) and, when one failed, why
   * the client stopped the run (`halt`).
   */
  declare readonly fleetRun: pulumi.Output<FleetRunRecord | undefined>;
  /**
   * With `autoUpgradeProfile`: the `managedClusterUpdate` the channel generated when the run started. Absent
   * otherwise.
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
        // The outputs, unknown until the provider returns them (`UpdateRunOutputsSchema`).
        ...Object.fromEntries(UPDATE_RUN_OUTPUTS.map((name) => [name, undefined])),
      },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...UPDATE_RUN_SECRET_OUTPUTS] },
    );
  }
}
