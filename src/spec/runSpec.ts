/**
 * What `UpdateRun` sends its provider (plain JSON), and their validation: the same docs/rules.md §2 rules as
 * everywhere (`src/model/`), with field paths as Pulumi check failures. What a backend adds to these —
 * Fleet Manager's names and api-versions, ARM's cluster ids — is its driver's (`src/drivers/runInputs.ts`,
 * which callers parse a run's inputs with).
 */
import { z } from "zod";
import { MAX_CALL_MINUTES, MAX_POLL_SECONDS } from "../model/limits";
import { friendlyErrors, toFieldIssues, type FieldIssue } from "../model/issues";
import { MemberSchema } from "../model/member";
import { crossValidateRun, unknownSkipTargets } from "../model/run";
import { SkipTargetSchema } from "../model/skip";
import { UpdateRunStrategySchema, unknownApprovals } from "../model/strategy";
import { ManagedClusterUpdateSchema } from "../model/update";
import { AutoUpgradeProfileSchema, updateChoiceIssues, type UpdateChoice } from "../model/autoUpgrade";
import { AnalysisSchema } from "../model/analysis";
import { API_VERSION_WORDS, CLIENT_FLEET_API_VERSIONS, FleetIdSchema } from "./fleet";
import { containsUnknown } from "./unknowns";

export const RUN_STATES = ["Running", "Stopped", "NotStarted"] as const;
export const DEFAULT_TIMEOUT_MINUTES = 240;
export const MAX_RUN_NAME_LENGTH = 200;

/** Issue 19: seconds between polls, bounded (an hour) like every duration. */
function pollSeconds() {
  return z.number({ error: "must be a number of seconds" }).positive("must be greater than 0").max(MAX_POLL_SECONDS, `must be at most ${MAX_POLL_SECONDS} (an hour)`);
}

/** Issue 19: real minutes a call drives the run, bounded (a week): the deadline, scaled, stays a real instant. */
function callMinutes() {
  return z.number({ error: "must be a number of minutes" }).positive("must be greater than 0").max(MAX_CALL_MINUTES, `must be at most ${MAX_CALL_MINUTES} (a week)`);
}

export const SimulatorBackendSchema = z
  .strictObject({
    fleetFile: z
      .string()
      .min(1, "must name the fleet file")
      .meta({
        description:
          "The fleet description (a scenario's `regions` and `members`), relative to `projectDir` (the Pulumi project's folder, the one holding Pulumi.yaml; not the program's `main` folder, nor where `pulumi` was started).",
      }),
    stateFile: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "Where the simulated clusters' state is kept, relative to `projectDir`; default `<fleetFile>.state.json`. Delete it to reset the fleet." }),
    // At least a thousandth: slower, a simulated instant's real time (simulated / timeScale) leaves JS Date's range.
    timeScale: z
      .number()
      .positive("must be greater than 0")
      .max(1_000_000, "must be at most 1000000")
      .refine((v) => v <= 0 || v >= 0.001, "must be at least 0.001")
      .optional()
      .meta({ description: "Simulated time per real time; default 60 (a 10-minute upgrade takes 10 seconds)." }),
  })
  .meta({ objectType: { name: "SimulatorBackend", description: "The embedded simulated fleet: a fleet file describing regions and clusters, and a state file beside it." } });

const PollIntervalsSchema = z
  .strictObject({
    initial: pollSeconds().meta({ description: "Seconds between reads during an upgrade's first five minutes (default 15)." }),
    steady: pollSeconds().meta({ description: "Seconds between reads after that (default 60)." }),
  })
  .meta({ objectType: { name: "PollIntervals", description: "Seconds between reads of an upgrading cluster." } });

/** Real AKS clusters through ARM. Credentials come from the environment, never from inputs. */
export const AzureBackendSchema = z
  .strictObject({
    endpoint: z.string().url("must be a URL such as https://management.azure.com").optional().meta({ description: "ARM endpoint; default the Azure public cloud." }),
    trustedCaFile: z.string().min(1).optional().meta({ description: "A PEM file of extra CA certificates to trust (the ARM emulator's), relative to `projectDir`." }),
    credential: z
      .enum(["default", "emulator"], { error: "must be default or emulator" })
      .default("default")
      .meta({
        description:
          '"default": DefaultAzureCredential (`az login`, environment, managed or workload identity). "emulator": a dummy token, accepted only with an endpoint on 127.0.0.1 or localhost. Tokens never reach inputs, outputs, state or logs.',
      }),
    pollIntervalSeconds: PollIntervalsSchema.optional().meta({ description: "Seconds between reads of an upgrading cluster, first minutes then steady (default 15, 60)." }),
  })
  .meta({
    objectType: {
      name: "AzureBackend",
      description: "Real AKS clusters through ARM; members then need `clusterResourceId`. Credentials come from the environment (DefaultAzureCredential), never from inputs.",
    },
  });

/**
 * Issue 12: Azure Kubernetes Fleet Manager runs the update server-side; the client creates (or
 * attaches to) the fleet's update run, starts, stops and skips it, and follows it with GETs.
 * Credentials exactly as the azure backend's.
 */
export const AzureFleetBackendSchema = z
  .strictObject({
    fleetId: FleetIdSchema.meta({ description: "ARM id of the `Microsoft.ContainerService/fleets` resource." }),
    endpoint: AzureBackendSchema.shape.endpoint,
    trustedCaFile: AzureBackendSchema.shape.trustedCaFile,
    credential: AzureBackendSchema.shape.credential.meta({ description: 'As `azure`\'s: "default" (DefaultAzureCredential) or "emulator" (loopback endpoints only).' }),
    // 60 reads an hour by default.
    pollIntervalSeconds: pollSeconds().optional().meta({ description: "Seconds between GETs of the run while following it (default 60)." }),
    // Issue 21: how the client speaks, not what the run is: a change attaches to the same fleet run (docs/behaviour.md FM14).
    apiVersion: z
      .enum(CLIENT_FLEET_API_VERSIONS, { error: API_VERSION_WORDS })
      .optional()
      .meta({
        description:
          'The Fleet Manager api-version every request speaks: "2026-06-01" (GA, the default: approval gates and `maxConcurrency`), "2026-06-02-preview" (also `maxAllowedFailures`, `memberSelector` and ScheduledStart gates), "2025-04-01-preview" (legacy: approval gates, neither limit). A field the version lacks is refused at `pulumi preview`, naming the version that has it. A change of it alone follows the same fleet run at the new version.',
      }),
  })
  .meta({
    objectType: {
      name: "AzureFleetBackend",
      description:
        "Azure Kubernetes Fleet Manager runs the update server-side; `pulumi up` creates (or attaches to) the fleet's update run named after the resource, steers it and follows it.",
    },
  });

const LOOPBACK_ENDPOINT = /^https:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/;

export const BackendConfigSchema = z
  .strictObject({
    simulator: SimulatorBackendSchema.optional().meta({ description: "The embedded simulated fleet." }),
    azure: AzureBackendSchema.optional().meta({ description: "Real AKS clusters through ARM; members then need `clusterResourceId`." }),
    azureFleet: AzureFleetBackendSchema.optional().meta({ description: "Fleet Manager runs the update; the fleet's members are the run's." }),
  })
  .meta({ objectType: { name: "Backend", description: "Where the clusters are: exactly one of `simulator`, `azure`, `azureFleet`." } })
  .superRefine((backend, ctx) => {
    const chosen = [backend.simulator, backend.azure, backend.azureFleet].filter((b) => b !== undefined).length;
    if (chosen !== 1) ctx.addIssue({ code: "custom", message: "set exactly one of simulator, azure, azureFleet" });
    for (const key of ["azure", "azureFleet"] as const) {
      const endpoint = backend[key]?.endpoint;
      if (backend[key]?.credential === "emulator" && (endpoint === undefined || !LOOPBACK_ENDPOINT.test(endpoint))) {
        ctx.addIssue({ code: "custom", path: [key, "credential"], message: "emulator credentials are only accepted with an endpoint on https://127.0.0.1 or https://localhost" });
      }
    }
  })
  // Exactly one backend is set (refused above otherwise): the parsed value is typed as the union, so
  // code narrows on the key it holds and needs no casts.
  .transform((backend) => backend as BackendConfig);

/** Where an `UpdateStrategy` is kept besides the stack: only Fleet Manager (issue 12). */
export const StrategyBackendSchema = z
  .strictObject({ azureFleet: AzureFleetBackendSchema.meta({ description: "The fleet to keep the strategy in." }) })
  .meta({ objectType: { name: "StrategyBackend", description: "Keep the strategy in Fleet Manager too, as `fleets/{fleet}/updateStrategies/{resource name}`." } });

export type SimulatorBackendConfig = z.infer<typeof SimulatorBackendSchema>;
export type AzureBackendConfig = z.infer<typeof AzureBackendSchema>;
export type AzureFleetBackendConfig = z.infer<typeof AzureFleetBackendSchema>;
/** The backend a run is on: exactly one of the three (a tagged union keyed by the backend's name). */
export type BackendConfig =
  | { simulator: SimulatorBackendConfig; azure?: undefined; azureFleet?: undefined }
  | { azure: AzureBackendConfig; simulator?: undefined; azureFleet?: undefined }
  | { azureFleet: AzureFleetBackendConfig; simulator?: undefined; azure?: undefined };

/**
 * Where a run's events are POSTed as they happen (the same delivery as `fleet-update run --webhook`:
 * `src/events/webhook.ts`). Neither field is stored anywhere but the stack's inputs and the
 * resource's `webhook` output (secret): not the engine's state, not the run's journal.
 */
export const WebhookSchema = z
  .strictObject({
    url: z
      .string({ error: "must be an http:// or https:// URL" })
      .min(1, "must be an http:// or https:// URL")
      .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), "must be an http:// or https:// URL")
      .meta({ description: "http(s) URL the events are POSTed to. Secret in the state (its path or query may hold a token); messages name it by its origin only.", secret: true }),
    token: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .optional()
      .meta({
        description:
          "Sent as `Authorization: Bearer <token>` with every event. Secret: encrypted in the state, never in the run's journal, outputs in plain text or logs. Give it as a secret (`pulumi config set --secret`).",
        secret: true,
      }),
  })
  .meta({ objectType: { name: "Webhook", description: "Where a run's events are POSTed as they happen (what `fleet-update run --webhook` does), with an optional bearer token." } });
export type WebhookConfig = z.infer<typeof WebhookSchema>;

/**
 * `UpdateRun`'s inputs (the Pulumi resources', `fleet-update run`'s spec, a plan's run spec), each
 * described once here or on the model's schema it takes (docs/architecture.md "Describing a field").
 */
export const UpdateRunInputsSchema = z.strictObject({
  // Bounded: the run's journal is a file named after it (file names stop at 255 bytes).
  runName: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .max(MAX_RUN_NAME_LENGTH, `must be at most ${MAX_RUN_NAME_LENGTH} characters`)
    .meta({ description: "The run's name in events, progress lines and its journal: the resource's name." }),
  backend: BackendConfigSchema.meta({ description: "Where the clusters are: the simulated fleet, real AKS through ARM, or Fleet Manager." }),
  members: z.array(MemberSchema).meta({
    description:
      "The members taking part. A member no group takes — its group is in no stage, or no group's `memberSelector` selects it — is left out and listed in `excludedMembers`. On `azureFleet` the fleet's members; listed ones are checked against the fleet.",
  }),
  strategy: UpdateRunStrategySchema.optional().meta({ description: "The sequence: an `UpdateStrategy`'s `strategy` output or inline stages. Omitted: members one by one." }),
  // Issue 12.
  updateStrategyId: z
    .string({ error: "must be the ARM id of a fleet update strategy" })
    .min(1, "must not be empty")
    .optional()
    .meta({
      description:
        "`azureFleet` only, instead of `strategy`: the ARM id of a strategy kept in Fleet Manager (an `UpdateStrategy`'s `updateStrategyId`). Fleet snapshots it when the run is created.",
    }),
  managedClusterUpdate: ManagedClusterUpdateSchema.optional().meta({
    description: "What to do to each member: upgrade type, Kubernetes version, node image selection. Exactly one of this and `autoUpgradeProfile`.",
  }),
  // Issue 22, docs/rules.md §18.
  autoUpgradeProfile: AutoUpgradeProfileSchema.optional().meta({
    description:
      "Instead of `managedClusterUpdate`: the update is generated when the run starts, from the versions AKS offers in the members' regions then — Rapid: the latest patch of the newest minor; Stable: of the minor before it; TargetKubernetesVersion: of `targetKubernetesVersion`; NodeImage and SecurityPatch (Fleet Manager from api-version 2026-06-02-preview): the newest node images. The result is the `generatedUpdate` output.",
  }),
  // Issue 31 (docs/health-analysis.md).
  analysis: AnalysisSchema.optional().meta({
    description:
      "Health analysis, declared once and used after each member's upgrade, before a stage starts and through its soak (docs/health-analysis.md). Secret as a whole (its headers may hold tokens); part of what the run is, its headers' values aside.",
    secret: true,
  }),
  state: z
    .enum(RUN_STATES, { error: `must be one of ${RUN_STATES.join(", ")}` })
    .default("Running")
    .meta({ description: '"Running" (default) runs to the end; "Stopped" lets upgrades in flight finish and starts no more; "NotStarted" holds a new run.' }),
  skip: z
    .array(SkipTargetSchema)
    .default([])
    .meta({
      description:
        "Items to skip, applied as a whole on every `pulumi up`: a Member, Group, Stage or AfterStageWait (named by its stage). Only items not yet started are skipped; naming a running item, or one the run does not have, fails the update and changes nothing. The exception: an AfterStageWait counting down ends at once (a soak cut short).",
    }),
  timeoutMinutes: callMinutes()
    .default(DEFAULT_TIMEOUT_MINUTES)
    .meta({
      description: "Our own deadline for one `pulumi up`, in minutes (default 240; Pulumi's `customTimeouts` are not used): a run not finished by then fails the update, and the next `pulumi up` continues it.",
    }),
  // Issue 5.
  approvals: z
    .array(z.string({ error: "must be a gate id" }).min(1, "must be a gate id"))
    .default([])
    .meta({
      description:
        "Approved gate ids (`canary/after/0`, `prod/prod-eu/before/0`; the status lists every gate's id), applied as a whole on every `pulumi up`. A run reaching an unapproved gate returns successfully with the gate Pending; the next `pulumi up` with the approval continues.",
    }),
  // Issue 5.
  returnAfterMinutes: callMinutes()
    .optional()
    .meta({
      description:
        "Return successfully when nothing is in flight and the next step (a wait, a window, a version) is more than this many minutes away; the next `pulumi up` continues. Unset: wait in place.",
    }),
  // Issue 24.
  webhook: WebhookSchema.optional().meta({
    description:
      "POST each of the run's events (every state change, as JSON) to a URL, in order, retried with backoff, never holding up the run. Secret in the run's outputs; kept out of the run's journal and engine state. A change of it neither replaces nor restarts the run: the next `pulumi up` delivers to the new one.",
    secret: true,
  }),
});
/** A run's inputs, parsed: the update is the tagged `UpdateChoice` (exactly one of the two is set). */
export type UpdateRunInputs = Omit<z.infer<typeof UpdateRunInputsSchema>, "managedClusterUpdate" | "autoUpgradeProfile"> & UpdateChoice;

/** Inputs that change what the run is: a change of any of them is a new run (replace). */
export const RUN_IDENTITY_FIELDS = ["runName", "backend", "members", "strategy", "updateStrategyId", "managedClusterUpdate", "autoUpgradeProfile", "analysis"] as const;
/**
 * Inputs applied to the same run in place. `webhook` is where the next calls deliver events: not what
 * the run is, so a new URL or token neither replaces the run nor reaches its identity or journal.
 */
export const RUN_CONTROL_FIELDS = ["state", "skip", "timeoutMinutes", "approvals", "returnAfterMinutes", "webhook"] as const;

const PROVIDER_KEY = "__provider";

function withoutProvider(raw: Record<string, unknown>): Record<string, unknown> {
  const { [PROVIDER_KEY]: _ignored, ...rest } = raw;
  return rest;
}

/** Issue 12: on azureFleet the members are the fleet's, so `members` may be left out (= none listed). */
export function withFleetDefaults(inputs: Record<string, unknown>): Record<string, unknown> {
  const backend = inputs.backend as { azureFleet?: unknown } | undefined;
  const onFleet = backend !== null && typeof backend === "object" && backend.azureFleet !== undefined;
  return onFleet && inputs.members === undefined ? { ...inputs, members: [] } : inputs;
}

/** The inputs as checked: without `__provider`, with Fleet's default members. */
export function specInputsOf(raw: Record<string, unknown>): Record<string, unknown> {
  return withFleetDefaults(withoutProvider(raw));
}

/**
 * The spec's own problems with the inputs, by field path, and the parsed inputs when they are valid
 * and fully known (for the backend's checks, `src/drivers/runInputs.ts`). Issues under values unknown
 * at preview are not dropped yet: the caller drops them once, over every check.
 */
export function inspectRunInputs(raw: Record<string, unknown>): { inputs: Record<string, unknown>; issues: FieldIssue[]; known?: UpdateRunInputs } {
  const inputs = specInputsOf(raw);
  const parsed = UpdateRunInputsSchema.safeParse(inputs, { error: friendlyErrors });
  const issues = parsed.success ? [] : toFieldIssues(parsed.error);
  if (!containsUnknown(inputs)) issues.push(...updateChoiceIssues(inputs));
  if (!parsed.success || containsUnknown(inputs)) return { inputs, issues };
  const { strategy, members, backend, analysis } = parsed.data;
  // On azureFleet the run's members are the fleet's (a program may list none): the strategy is
  // checked against them when they are read (`checkFleetRun`); here only the list itself.
  const { issues: cross, excluded } = crossValidateRun({ members, ...(strategy === undefined ? {} : { strategy }), ...(analysis === undefined ? {} : { analysis }) });
  // An analysis's stages are the inline strategy's (a referenced one's are checked once it is read).
  const checkedNow = (path: string) => path.startsWith("members") || (strategy !== undefined && path.startsWith("analysis"));
  issues.push(...(backend.azureFleet === undefined ? cross : cross.filter((i) => checkedNow(i.path))));
  // Issue 19: a skip naming nothing in the run is refused here, before the run opens its backend
  // or journal (a refused run touches no file). On azureFleet the fleet's members and strategy are
  // read later, and Fleet Manager names what it cannot skip.
  if (backend.azureFleet === undefined) issues.push(...unknownSkipTargets(members, strategy, excluded, parsed.data.skip, "skip"));
  // A strategy kept in Fleet (`updateStrategyId`) is read at the run's Check, which names unknown approvals then.
  const approvalsKnownLater = strategy === undefined && parsed.data.updateStrategyId !== undefined && backend.azureFleet !== undefined;
  if (!approvalsKnownLater) issues.push(...unknownApprovals(parsed.data.approvals, strategy, { strategy: "this run", noGates: "the strategy has no gates" }));
  if (parsed.data.updateStrategyId !== undefined) {
    if (backend.azureFleet === undefined) issues.push({ path: "updateStrategyId", message: "is taken with the azureFleet backend only (a strategy kept in Fleet Manager); pass the stages as `strategy`" });
    else if (strategy !== undefined) issues.push({ path: "updateStrategyId", message: "give either an inline strategy or a strategy reference, not both" });
  }
  return { inputs, issues, known: parsed.data as UpdateRunInputs };
}
