/**
 * Issue 24: what the package schema (`schema.ts`) says of each resource, type and property — its
 * structure comes from the zod schemas, its words from here. Keyed `Owner.property`, where Owner is a
 * resource (`UpdateRun`) or a type (`Member`); `schema.ts` refuses to write a schema with a property
 * that has no entry, naming it, so a field added to a zod schema cannot reach the schema undescribed.
 * The wording follows the TypeScript Args' comments (`updateRun.ts`, `updateStrategy.ts`,
 * `backendArgs.ts`) and docs/rules.md.
 */

import type { z } from "zod";
import { AnalysisHeaderSchema, AnalysisProviderSchema, AnalysisSchema, AnalysisTemplateSchema, PrometheusProviderSchema, StageAnalysisSchema, WebProviderSchema } from "../../model/analysis";

/** The name (`fleet-update:index:<Name>`) of the object type at `Owner.property`, else at `property`. */
export const TYPE_NAMES: Record<string, string> = {
  "UpdateRun.backend": "Backend",
  "UpdateStrategy.backend": "StrategyBackend",
  simulator: "SimulatorBackend",
  azure: "AzureBackend",
  azureFleet: "AzureFleetBackend",
  "AzureBackend.pollIntervalSeconds": "PollIntervals",
  members: "Member",
  healthCheck: "HealthCheck",
  strategy: "UpdateRunStrategy",
  strategySnapshot: "UpdateRunStrategy",
  stages: "UpdateStage",
  groups: "UpdateGroup",
  beforeGates: "Gate",
  afterGates: "Gate",
  scheduledStartConfiguration: "ScheduledStartConfiguration",
  memberSelector: "MemberSelector",
  managedClusterUpdate: "ManagedClusterUpdate",
  autoUpgradeProfile: "AutoUpgradeProfile",
  "AutoUpgradeProfile.nodeImageSelection": "AutoUpgradeNodeImageSelection",
  upgrade: "ManagedClusterUpgradeSpec",
  nodeImageSelection: "NodeImageSelection",
  customNodeImageVersions: "NodeImageVersion",
  appliedNodeImageVersions: "NodeImageVersion",
  skip: "SkipTarget",
  webhook: "Webhook",
  // Issue 31: health analysis.
  analysis: "Analysis",
  templates: "AnalysisTemplate",
  "AnalysisTemplate.provider": "AnalysisProvider",
  "AnalysisProvider.web": "WebAnalysisProvider",
  "AnalysisProvider.prometheus": "PrometheusAnalysisProvider",
  headers: "AnalysisHeader",
  "PrometheusAnalysisProvider.authentication": "PrometheusAuthentication",
  "PrometheusAuthentication.azureIdentity": "AzureIdentityAuthentication",
  "Analysis.stages": "StageAnalysis",
};

/**
 * Issue 31: the analysis types are described once, in their zod schemas (`.meta({ description })`,
 * `src/model/analysis.ts`); their entries here are read from there.
 */
const ANALYSIS_TYPES: ReadonlyArray<[string, z.ZodType]> = [
  ["Analysis", AnalysisSchema],
  ["AnalysisTemplate", AnalysisTemplateSchema],
  ["AnalysisProvider", AnalysisProviderSchema],
  ["WebAnalysisProvider", WebProviderSchema],
  ["PrometheusAnalysisProvider", PrometheusProviderSchema],
  ["AnalysisHeader", AnalysisHeaderSchema],
  ["PrometheusAuthentication", PrometheusProviderSchema.shape.authentication],
  ["AzureIdentityAuthentication", PrometheusProviderSchema.shape.authentication.unwrap().shape.azureIdentity],
  ["StageAnalysis", StageAnalysisSchema],
];

/** The schema's own description, else (an optional field) its inner schema's. */
function described(schema: z.ZodType): string {
  const own = schema.meta()?.description as string | undefined;
  if (own !== undefined) return own;
  const inner = (schema as { unwrap?: () => z.ZodType }).unwrap;
  return typeof inner === "function" ? described(inner.call(schema)) : "";
}

/** The object schema itself, an optional one unwrapped. */
function objectOf(schema: z.ZodType): z.ZodObject {
  const inner = (schema as { unwrap?: () => z.ZodType }).unwrap;
  return "shape" in schema ? (schema as z.ZodObject) : objectOf((inner as () => z.ZodType).call(schema));
}

const ANALYSIS_TYPE_DESCRIPTIONS = Object.fromEntries(ANALYSIS_TYPES.map(([name, schema]) => [name, described(schema)]));
const ANALYSIS_PROPERTY_DESCRIPTIONS = Object.fromEntries(
  ANALYSIS_TYPES.flatMap(([name, schema]) => Object.entries(objectOf(schema).shape).map(([key, field]) => [`${name}.${key}`, described(field as z.ZodType)])),
);

export const RESOURCE_DESCRIPTIONS: Record<string, string> = {
  UpdateRun:
    "One staged update of a fleet's members: `pulumi up` executes it — stages in order, groups in parallel, members one at a time (or `maxConcurrency` at a time), waits, gates and maintenance windows — and stores the run's status (Azure Fleet's `UpdateRunStatus` shape) as outputs. Changing the target, the members, the strategy or the backend makes a new run; `state`, `skip`, `approvals` and the time limits steer the same run. Destroying it forgets the run; clusters are never touched.",
  UpdateStrategy:
    "A reusable, validated update sequence in Azure's `UpdateRunStrategy` shape: pass its `strategy` output to an `UpdateRun`. With `backend.azureFleet` it is also kept in Fleet Manager as the fleet's update strategy named after the resource.",
};

export const TYPE_DESCRIPTIONS: Record<string, string> = {
  ...ANALYSIS_TYPE_DESCRIPTIONS,
  Backend: "Where the clusters are: exactly one of `simulator`, `azure`, `azureFleet`.",
  StrategyBackend: "Keep the strategy in Fleet Manager too, as `fleets/{fleet}/updateStrategies/{resource name}`.",
  SimulatorBackend: "The embedded simulated fleet: a fleet file describing regions and clusters, and a state file beside it.",
  AzureBackend: "Real AKS clusters through ARM; members then need `clusterResourceId`. Credentials come from the environment (DefaultAzureCredential), never from inputs.",
  AzureFleetBackend: "Azure Kubernetes Fleet Manager runs the update server-side; `pulumi up` creates (or attaches to) the fleet's update run named after the resource, steers it and follows it.",
  PollIntervals: "Seconds between reads of an upgrading cluster.",
  Member: "A fleet member: one AKS cluster.",
  Webhook: "Where a run's events are POSTed as they happen (what `fleet-update run --webhook` does), with an optional bearer token.",
  HealthCheck: "A probe that must answer 2xx after the member's upgrade before the member counts as Completed. Probed from where `pulumi up` runs.",
  UpdateRunStrategy: "Azure's `UpdateRunStrategy`: the stages, in order.",
  UpdateStage: "One stage: its groups run in parallel; stages run in order.",
  UpdateGroup: "One group of a stage: its members are updated one at a time, or `maxConcurrency` at a time.",
  Gate: "A gate (Azure Fleet's gate configuration): an approval, or a scheduled start.",
  ScheduledStartConfiguration: "When a ScheduledStart gate opens, e.g. production on Tuesday at 09:00 +01:00.",
  MemberSelector: "A Kubernetes label selector over the members' `labels` (docs/rules.md §16).",
  ManagedClusterUpdate: "Azure's `ManagedClusterUpdate`: the upgrade to apply to each member and the node images it gets.",
  ManagedClusterUpgradeSpec: "The upgrade: its type and the Kubernetes version.",
  AutoUpgradeProfile: "Fleet Manager's auto-upgrade profile fields that shape a run: the update is generated from the channel when the run starts (docs/rules.md §18).",
  AutoUpgradeNodeImageSelection: "Which node images a generated update takes: Latest or Consistent.",
  NodeImageSelection: "Which node images the members get.",
  NodeImageVersion: "A node image version.",
  SkipTarget: "An item of the run to skip.",
};

export const PROPERTY_DESCRIPTIONS: Record<string, string> = {
  // UpdateRun's inputs.
  "UpdateRun.backend": "Where the clusters are: the simulated fleet, real AKS through ARM, or Fleet Manager.",
  "UpdateRun.members": "The members taking part. A member whose group is in no stage is left out (listed in `excludedMembers`). On `azureFleet` the fleet's members; listed ones are checked against the fleet.",
  "UpdateRun.strategy": "The sequence: an `UpdateStrategy`'s `strategy` output or inline stages. Omitted: members one by one.",
  "UpdateRun.updateStrategyId": "`azureFleet` only, instead of `strategy`: the ARM id of a strategy kept in Fleet Manager (an `UpdateStrategy`'s `updateStrategyId`). Fleet snapshots it when the run is created.",
  "UpdateRun.managedClusterUpdate": "What to do to each member: upgrade type, Kubernetes version, node image selection. Exactly one of this and `autoUpgradeProfile`.",
  "UpdateRun.state": "\"Running\" (default) runs to the end; \"Stopped\" lets upgrades in flight finish and starts no more; \"NotStarted\" holds a new run.",
  "UpdateRun.skip": "Items to skip, all at once: a Member, Group, Stage or AfterStageWait (by the stage's name). Only items not yet started are skipped, except an AfterStageWait counting down, which ends at once.",
  "UpdateRun.timeoutMinutes": "Our own deadline for one `pulumi up`, in minutes (default 240): a run not finished by then fails the update, and the next `pulumi up` continues it.",
  "UpdateRun.approvals": "Approved gate ids (`canary/after/0`, `prod/prod-eu/before/0`; the status lists every gate's id). A run reaching an unapproved gate returns successfully with the gate Pending; the next `pulumi up` with the approval continues.",
  "UpdateRun.returnAfterMinutes": "Return successfully when nothing is in flight and the next step (a wait, a window, a version) is more than this many minutes away; the next `pulumi up` continues. Unset: wait in place.",
  "UpdateRun.webhook": "POST each of the run's events (every state change, as JSON) to a URL, in order, retried with backoff, never holding up the run. Secret in the run's outputs; kept out of the run's journal and engine state. A change of it neither replaces nor restarts the run: the next `pulumi up` delivers to the new one.",
  "Webhook.url": "http(s) URL the events are POSTed to. Secret in the state (its path or query may hold a token); messages name it by its origin only.",
  "Webhook.token": "Sent as `Authorization: Bearer <token>` with every event. Secret: encrypted in the state, never in the run's journal, outputs in plain text or logs.",
  "UpdateRun.projectDir": "The folder relative paths (`fleetFile`, `stateFile`, `trustedCaFile`, the journal directory `.fleet-update/runs`) are resolved against. Default: the folder the provider was started in, which for a program without `main` is the Pulumi project's (the one holding Pulumi.yaml). A change of this alone neither replaces nor updates the run.",
  // UpdateRun's outputs.
  "UpdateRun.runName": "The run's name in events, progress lines and its journal: the resource's name.",
  "UpdateRun.status": "The run's status tree in Azure Fleet's `UpdateRunStatus` shape (docs/rules.md §5): the run's, each stage's, group's and member's state and times, gates, waits, operation ids and errors; fields without a value are absent, as in Azure's responses.",
  "UpdateRun.summary": "Counts of members per state, start, end, duration, and the outcome (`Succeeded`, `CompletedWithFailures`, `Failed`, `Stopped`, `Pending`).",
  "UpdateRun.strategySnapshot": "The strategy the run snapshotted when it was created.",
  "UpdateRun.selectedNodeImageVersions": "Node image versions picked for the run (Consistent) or given (Custom).",
  "UpdateRun.excludedMembers": "Members left out because their group is in no stage (or no group selects them), each with why.",
  "UpdateRun.failedMembers": "Members that failed (name, group, cluster): pass them as `members` of a retry run.",
  "UpdateRun.appliedNodeImageVersions": "One node image per family that the run actually applied: pass them as `nodeImageSelection: { type: Custom, customNodeImageVersions }` to retry or promote with exactly these images.",
  "UpdateRun.plan": "The run as predicted when it was created (simulated fleet, up to 2,000 members): each member's stage, group, priority class, predicted start and end, Pending periods, and the pre-flight findings — `fleet-update plan --json`'s object. Absent on Azure.",
  "UpdateRun.drift": "Members the run Completed whose clusters no longer report what it applied (rolled back, changed by hand), as the last `pulumi refresh` found them, each with what the cluster reports.",
  "UpdateRun.engineState": "The engine's state to resume the run from (engine driver), without the members' health checks. Secret: it copies the inputs that define the run. Absent on Fleet Manager, which holds the run.",
  "UpdateRun.autoUpgradeProfile": "Instead of `managedClusterUpdate`: the update is generated when the run starts, from the versions AKS offers in the members' regions then — Rapid: the latest patch of the newest minor; Stable: of the minor before it; TargetKubernetesVersion: of `targetKubernetesVersion`; NodeImage and SecurityPatch (Fleet Manager from api-version 2026-06-02-preview): the newest node images. The result is the `generatedUpdate` output.",
  "UpdateRun.generatedUpdate": "With `autoUpgradeProfile`: the `managedClusterUpdate` the channel generated when the run started. Absent otherwise.",
  "AutoUpgradeProfile.channel": "Stable, Rapid, NodeImage, TargetKubernetesVersion or SecurityPatch (a node-image update; on Fleet Manager from api-version 2026-06-02-preview).",
  "AutoUpgradeProfile.targetKubernetesVersion": "`major.minor` (e.g. 1.33), with TargetKubernetesVersion only: the minor whose latest patch is taken.",
  "AutoUpgradeProfile.longTermSupport": "With TargetKubernetesVersion only: allow a minor older than N-2 that AKS supports long-term.",
  "AutoUpgradeProfile.nodeImageSelection": "Which node images the generated update takes; default Latest.",
  "AutoUpgradeNodeImageSelection.type": "Latest or Consistent.",
  "UpdateRun.fleetRun": "`azureFleet` only: the ARM id of the fleet's update run, the skip entries already sent to it (each is sent once), the analyses measured at the gates the client added (`analysis`) and, when one failed, why the client stopped the run (`halt`).",
  // UpdateStrategy.
  "UpdateStrategy.stages": "The stages, in order.",
  "UpdateStrategy.backend": "Keep the strategy in Fleet Manager too (created, updated with its eTag, deleted on destroy).",
  "UpdateStrategy.strategy": "The validated strategy, normalized: pass it to an `UpdateRun`'s `strategy`.",
  "UpdateStrategy.strategyName": "With `backend.azureFleet`: the name of the fleet's update strategy, the resource's name.",
  "UpdateStrategy.updateStrategyId": "With `backend.azureFleet`: the ARM id of the fleet's update strategy; pass it to an `UpdateRun`'s `updateStrategyId`.",
  "UpdateStrategy.eTag": "With `backend.azureFleet`: the fleet strategy's eTag as last written or read; an update writes only over that version.",

  "Backend.simulator": "The embedded simulated fleet.",
  "Backend.azure": "Real AKS clusters through ARM; members then need `clusterResourceId`.",
  "Backend.azureFleet": "Fleet Manager runs the update; the fleet's members are the run's.",
  "StrategyBackend.azureFleet": "The fleet to keep the strategy in.",
  "SimulatorBackend.fleetFile": "The fleet description (a scenario's `regions` and `members`), relative to `projectDir`.",
  "SimulatorBackend.stateFile": "Where the simulated clusters' state is kept, relative to `projectDir`; default `<fleetFile>.state.json`. Delete it to reset the fleet.",
  "SimulatorBackend.timeScale": "Simulated time per real time; default 60 (a 10-minute upgrade takes 10 seconds).",
  "AzureBackend.endpoint": "ARM endpoint; default the Azure public cloud.",
  "AzureBackend.trustedCaFile": "A PEM file of extra CA certificates to trust (the ARM emulator's), relative to `projectDir`.",
  "AzureBackend.credential": "\"default\": DefaultAzureCredential (`az login`, environment, managed or workload identity). \"emulator\": a dummy token, accepted only with an endpoint on 127.0.0.1 or localhost. Tokens never reach inputs, outputs, state or logs.",
  "AzureBackend.pollIntervalSeconds": "Seconds between reads of an upgrading cluster, first minutes then steady (default 15, 60).",
  "PollIntervals.initial": "Seconds between reads during an upgrade's first five minutes (default 15).",
  "PollIntervals.steady": "Seconds between reads after that (default 60).",
  "AzureFleetBackend.fleetId": "ARM id of the `Microsoft.ContainerService/fleets` resource.",
  "AzureFleetBackend.endpoint": "ARM endpoint; default the Azure public cloud.",
  "AzureFleetBackend.trustedCaFile": "A PEM file of extra CA certificates to trust (the ARM emulator's), relative to `projectDir`.",
  "AzureFleetBackend.credential": "As `azure`'s: \"default\" (DefaultAzureCredential) or \"emulator\" (loopback endpoints only).",
  "AzureFleetBackend.pollIntervalSeconds": "Seconds between GETs of the run while following it (default 60).",
  "AzureFleetBackend.apiVersion": "The Fleet Manager api-version every request speaks: \"2026-06-01\" (GA, the default: approval gates and `maxConcurrency`), \"2026-06-02-preview\" (also `maxAllowedFailures`), \"2025-04-01-preview\" (legacy: neither limit). A change of it alone follows the same fleet run at the new version.",
  "Member.name": "Unique in the fleet: lowercase letters, digits and '-', at most 50 characters.",
  "Member.group": "The update group the member belongs to.",
  "Member.labels": "Labels that stages and groups select members by (`memberSelector.byLabel`).",
  "Member.clusterResourceId": "ARM id of the managed cluster; optional on the simulated fleet.",
  "Member.healthCheck": "A probe that must answer 2xx after the member's upgrade before it counts as Completed.",
  "HealthCheck.url": "HTTP(S) URL; any 2xx answer is healthy. May carry a token: it is kept out of statuses, logs and the run's journal (shown without query and credentials).",
  "HealthCheck.settleSeconds": "Seconds to let the cluster settle after its upgrade before the first probe; default 60.",
  "HealthCheck.retries": "Probes after a failed one before the member fails; default 3.",
  "HealthCheck.intervalSeconds": "Seconds between probes; default 30.",
  "UpdateRunStrategy.stages": "The stages, in order.",
  "UpdateStage.name": "Stage name, unique in the strategy.",
  "UpdateStage.groups": "1 to 50 groups, run in parallel. A stage with a `memberSelector` and no groups has one implicit group of every member it selects.",
  "UpdateStage.afterStageWaitInSeconds": "Seconds to wait after the stage ends before the next one starts; default 0.",
  "UpdateStage.maxConcurrency": "Cap on members updated at once over the whole stage: \"N\" or \"P%\". Default: no cap.",
  "UpdateStage.beforeGates": "Gates that must all open before the stage starts.",
  "UpdateStage.afterGates": "Gates that must all open before the stage counts as done (beside its wait).",
  "UpdateStage.maxAllowedFailures": "Failures tolerated in the stage before it fails: \"N\" or \"P%\" of its members (rounded up). Default: no extra limit.",
  "UpdateStage.memberSelector": "Filters the members before the stage's groups choose (by label).",
  "UpdateGroup.name": "Group name: lowercase letters, digits and '-', 1–50 characters, unique in the strategy.",
  "UpdateGroup.maxConcurrency": "Members of the group updated at once: \"N\" or \"P%\" (rounded down, at least 1). Default \"1\".",
  "UpdateGroup.beforeGates": "Gates that must all open before the group starts.",
  "UpdateGroup.afterGates": "Gates that must all open before the group counts as done.",
  "UpdateGroup.maxAllowedFailures": "Failures tolerated in the group before it fails: \"N\" or \"P%\" of its members (rounded up). Default: none.",
  "UpdateGroup.memberSelector": "Chooses the group's members by label instead of by their `group`.",
  "Gate.displayName": "Shown in the status; default \"Approval\" (or \"Scheduled start\").",
  "Gate.type": "\"Approval\": opened by listing its id in an `UpdateRun`'s `approvals`. \"ScheduledStart\" (before-gates only): opens at the next occurrence of `scheduledStartConfiguration`'s weekday and time; an approval opens it early.",
  "Gate.scheduledStartConfiguration": "ScheduledStart only: when the gate opens.",
  "ScheduledStartConfiguration.startDay": "Monday to Sunday.",
  "ScheduledStartConfiguration.startTime": "`HH:mm`, local to `utcOffset`.",
  "ScheduledStartConfiguration.utcOffset": "`+HH:mm` or `-HH:mm`, from -14:00 to +14:00.",
  "MemberSelector.byLabel": "A label selector such as `env=prod,ring in (1,2),!legacy`; at most 512 characters.",
  "ManagedClusterUpdate.upgrade": "The upgrade to apply.",
  "ManagedClusterUpdate.nodeImageSelection": "Which node images the members get; default Latest.",
  "ManagedClusterUpgradeSpec.type": "Full (control plane and node pools), ControlPlaneOnly, or NodeImageOnly.",
  "ManagedClusterUpgradeSpec.kubernetesVersion": "`major.minor.patch`: required for Full and ControlPlaneOnly, absent for NodeImageOnly.",
  "NodeImageSelection.type": "Latest (each pool the region's newest image), Consistent (one image per family for the whole run), or Custom (the versions given).",
  "NodeImageSelection.customNodeImageVersions": "Custom only: at most one version per image family.",
  "NodeImageVersion.version": "A node image version, e.g. `AKSUbuntu-2204gen2containerd-202611.24.0`.",
  "SkipTarget.type": "Member, Group, Stage, or AfterStageWait (named by its stage).",
  "SkipTarget.name": "The name of the member, group or stage.",
  ...ANALYSIS_PROPERTY_DESCRIPTIONS,
  "UpdateRun.analysis": `${described(AnalysisSchema)} Secret as a whole (its headers may hold tokens); part of what the run is, its headers' values aside.`,
};
