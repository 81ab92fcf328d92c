/**
 * What `UpdateRun` sends its provider (plain JSON), and their validation: the same docs/rules.md §2 rules as
 * everywhere (`src/model/`), with field paths as Pulumi check failures.
 */
import { z } from "zod";
import { MAX_CALL_MINUTES, MAX_POLL_SECONDS, ValidationError, friendlyErrors, toFieldIssues, type FieldIssue } from "../model/common";
import { MemberSchema } from "../model/member";
import { crossValidateRun, unknownSkipTargets } from "../model/run";
import { SkipTargetSchema } from "../model/skip";
import { UpdateRunStrategySchema, unknownApprovals } from "../model/strategy";
import { ManagedClusterUpdateSchema } from "../model/update";
import { AutoUpgradeProfileSchema, updateChoiceIssues, type UpdateChoice } from "../model/autoUpgrade";
import { AnalysisSchema } from "../model/analysis";
import { FLEET_CHILD_NAME, FleetIdSchema, MAX_FLEET_CHILD_NAME } from "../backends/azureFleet/fleetId";
import { unsupportedInRun } from "../backends/azureFleet/unsupported";
import { reservedGateNames } from "../backends/azureFleet/analysisGates";
import { CLIENT_FLEET_API_VERSIONS } from "../backends/azureFleet/wire";
import { containsUnknown, dropIssuesUnderUnknowns } from "./unknowns";

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

export const SimulatorBackendSchema = z.strictObject({
  fleetFile: z.string().min(1, "must name the fleet file"),
  stateFile: z.string().min(1).optional(),
  // At least a thousandth: slower, a simulated instant's real time (simulated / timeScale) leaves JS Date's range.
  timeScale: z
    .number()
    .positive("must be greater than 0")
    .max(1_000_000, "must be at most 1000000")
    .refine((v) => v <= 0 || v >= 0.001, "must be at least 0.001")
    .optional(),
});

/** Real AKS clusters through ARM. Credentials come from the environment, never from inputs. */
export const AzureBackendSchema = z.strictObject({
  /** ARM endpoint; default the Azure public cloud. */
  endpoint: z.string().url("must be a URL such as https://management.azure.com").optional(),
  /** A PEM file of extra CA certificates to trust (the ARM emulator's). */
  trustedCaFile: z.string().min(1).optional(),
  /**
   * "default": DefaultAzureCredential (az login, environment, managed identity, workload identity).
   * "emulator": a dummy token, accepted only with an endpoint on 127.0.0.1 / localhost.
   */
  credential: z.enum(["default", "emulator"], { error: "must be default or emulator" }).default("default"),
  /** Seconds between reads of an upgrading cluster: first minutes, then steady (default 15, 60). */
  pollIntervalSeconds: z.strictObject({ initial: pollSeconds(), steady: pollSeconds() }).optional(),
});

export const API_VERSION_WORDS = `must be ${CLIENT_FLEET_API_VERSIONS[0]} (GA, the default), ${CLIENT_FLEET_API_VERSIONS[1]} or ${CLIENT_FLEET_API_VERSIONS[2]} (legacy)`;

/**
 * Issue 12: Azure Kubernetes Fleet Manager runs the update server-side; the client creates (or
 * attaches to) the fleet's update run, starts, stops and skips it, and follows it with GETs.
 * Credentials exactly as the azure backend's.
 */
export const AzureFleetBackendSchema = z.strictObject({
  /** ARM id of the `Microsoft.ContainerService/fleets` resource. */
  fleetId: FleetIdSchema,
  endpoint: AzureBackendSchema.shape.endpoint,
  trustedCaFile: AzureBackendSchema.shape.trustedCaFile,
  credential: AzureBackendSchema.shape.credential,
  /** Seconds between GETs of the run while following it (default 60: 60 reads an hour). */
  pollIntervalSeconds: pollSeconds().optional(),
  /**
   * Issue 21: the Fleet Manager api-version every request speaks (default 2026-06-01, GA:
   * `maxConcurrency`); 2026-06-02-preview adds `maxAllowedFailures`; 2025-04-01-preview is the legacy
   * one (neither limit). How the client speaks, not what the run is: a change attaches to the same
   * fleet run (docs/behaviour.md FM14).
   */
  apiVersion: z.enum(CLIENT_FLEET_API_VERSIONS, { error: API_VERSION_WORDS }).optional(),
});

const LOOPBACK_ENDPOINT = /^https:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/;

export const BackendConfigSchema = z
  .strictObject({
    simulator: SimulatorBackendSchema.optional(),
    azure: AzureBackendSchema.optional(),
    azureFleet: AzureFleetBackendSchema.optional(),
  })
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
export const WebhookSchema = z.strictObject({
  url: z
    .string({ error: "must be an http:// or https:// URL" })
    .min(1, "must be an http:// or https:// URL")
    .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), "must be an http:// or https:// URL"),
  /** Sent as `Authorization: Bearer <token>` with every event. */
  token: z.string({ error: "must be a string" }).min(1, "must not be empty").optional(),
});
export type WebhookConfig = z.infer<typeof WebhookSchema>;

export const UpdateRunInputsSchema = z.strictObject({
  /** The run's name in events and progress lines: the Pulumi resource name. */
  // Bounded: the run's journal is a file named after it (file names stop at 255 bytes).
  runName: z.string({ error: "must be a string" }).min(1, "must not be empty").max(MAX_RUN_NAME_LENGTH, `must be at most ${MAX_RUN_NAME_LENGTH} characters`),
  backend: BackendConfigSchema,
  members: z.array(MemberSchema),
  strategy: UpdateRunStrategySchema.optional(),
  /** Issue 12, azureFleet only: the ARM id of a fleet update strategy (an `UpdateStrategy`'s `updateStrategyId`), instead of `strategy`. */
  updateStrategyId: z.string({ error: "must be the ARM id of a fleet update strategy" }).min(1, "must not be empty").optional(),
  /** What the run does to each member. Exactly one of this and `autoUpgradeProfile`. */
  managedClusterUpdate: ManagedClusterUpdateSchema.optional(),
  /** Issue 22: generate `managedClusterUpdate` at the run's start from an upgrade channel (docs/rules.md §18). */
  autoUpgradeProfile: AutoUpgradeProfileSchema.optional(),
  /** Issue 31: health analysis after members, before stages and through their soaks (docs/health-analysis.md). */
  analysis: AnalysisSchema.optional(),
  state: z.enum(RUN_STATES, { error: `must be one of ${RUN_STATES.join(", ")}` }).default("Running"),
  skip: z.array(SkipTargetSchema).default([]),
  timeoutMinutes: callMinutes().default(DEFAULT_TIMEOUT_MINUTES),
  /** Issue 5: approved gate ids (`<stage>/before/0`, ...); applied as a whole on every call. */
  approvals: z.array(z.string({ error: "must be a gate id" }).min(1, "must be a gate id")).default([]),
  /** Issue 5: return successfully when the next step is further away than this; unset = wait in place. */
  returnAfterMinutes: callMinutes().optional(),
  /** Issue 24: POST each of the run's events to this URL, with an optional bearer token. */
  webhook: WebhookSchema.optional(),
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

/** Every problem with the inputs, by field path; values unknown at preview are accepted. */
export function checkRunInputs(raw: Record<string, unknown>): FieldIssue[] {
  const inputs = withFleetDefaults(withoutProvider(raw));
  const parsed = UpdateRunInputsSchema.safeParse(inputs, { error: friendlyErrors });
  const issues = parsed.success ? [] : toFieldIssues(parsed.error);
  if (!containsUnknown(inputs)) issues.push(...updateChoiceIssues(inputs));
  if (parsed.success && !containsUnknown(inputs)) {
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
    // Issue 31: a display name kept for the gates the client adds for analysis on Fleet Manager.
    issues.push(...reservedGateNames(strategy, "strategy."));
    if (backend.azureFleet === undefined) issues.push(...unknownSkipTargets(members, strategy, excluded, parsed.data.skip, "skip"));
    // A strategy kept in Fleet (`updateStrategyId`) is read at the run's Check, which names unknown approvals then.
    const approvalsKnownLater = strategy === undefined && parsed.data.updateStrategyId !== undefined && backend.azureFleet !== undefined;
    if (!approvalsKnownLater) issues.push(...unknownApprovals(parsed.data.approvals, strategy, { strategy: "this run", noGates: "the strategy has no gates" }));
    const strategyId = parsed.data.updateStrategyId;
    if (strategyId !== undefined) {
      const prefix = `${backend.azureFleet?.fleetId ?? ""}/updateStrategies/`;
      const name = strategyId.slice(prefix.length);
      if (backend.azureFleet === undefined) issues.push({ path: "updateStrategyId", message: "is taken with the azureFleet backend only (a strategy kept in Fleet Manager); pass the stages as `strategy`" });
      else if (strategy !== undefined) issues.push({ path: "updateStrategyId", message: "give either an inline strategy or a strategy reference, not both" });
      else if (strategyId.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase() || !FLEET_CHILD_NAME.test(name) || name.length > MAX_FLEET_CHILD_NAME) {
        issues.push({ path: "updateStrategyId", message: `must be the ARM id of an update strategy of the run's fleet: ${prefix}<name>` });
      }
    }
    if (backend.azureFleet !== undefined) {
      // Issue 12: the run's name is the fleet's update run's name (an ARM child resource name).
      const name = parsed.data.runName;
      if (name.length > MAX_FLEET_CHILD_NAME || !FLEET_CHILD_NAME.test(name)) {
        issues.push({ path: "runName", message: `names the fleet's update run: lowercase letters, digits and '-', at most ${MAX_FLEET_CHILD_NAME} characters, got '${name}'` });
      }
      const { apiVersion } = backend.azureFleet;
      issues.push(
        ...unsupportedInRun({
          members,
          ...(strategy === undefined ? {} : { strategy }),
          ...(strategyId === undefined ? {} : { updateStrategyId: strategyId }),
          ...(apiVersion === undefined ? {} : { apiVersion }),
          autoUpgradeProfile: parsed.data.autoUpgradeProfile,
          ...(analysis === undefined ? {} : { analysis }),
        }),
      );
    }
    if (backend.azure !== undefined) {
      members.forEach((m, i) => {
        if (m.clusterResourceId === undefined) issues.push({ path: `members[${i}].clusterResourceId`, message: "is required with the Azure backend" });
      });
    }
  }
  return dropIssuesUnderUnknowns(inputs, issues);
}

/** Parse inputs that must be whole (create, update): throws `ValidationError` naming every field. */
export function parseRunInputs(raw: Record<string, unknown>): UpdateRunInputs {
  const issues = checkRunInputs(raw);
  if (containsUnknown(withoutProvider(raw))) issues.push({ path: "(inputs)", message: "values are still unknown" });
  if (issues.length > 0) throw new ValidationError(issues);
  return UpdateRunInputsSchema.parse(withFleetDefaults(withoutProvider(raw))) as UpdateRunInputs;
}
