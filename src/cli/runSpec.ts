/**
 * `fleet-update run`'s inputs: the run spec (YAML or JSON; the fields of `UpdateRun`'s inputs, with
 * `name` for `runName`, defaulting to the file's stem) and the backend flags. Both are validated by
 * the provider's own schemas (`src/spec/runSpec.ts`), so a spec and a Pulumi program accept the
 * same runs; problems are `ValidationError`s naming the spec's field path or the flag.
 */
import path from "node:path";
import { ValidationError, friendlyErrors, toFieldIssues, type FieldIssue } from "../model/issues";
import { parseYamlMapping } from "../model/textInput";
import { API_VERSION_FIELD } from "../spec/fleet";
import { BackendConfigSchema, UpdateRunInputsSchema, withFleetDefaults, type BackendConfig, type UpdateRunInputs } from "../spec/runSpec";
import { checkRunInputs } from "../drivers/runInputs";

export interface BackendFlags {
  /** `simulator:FLEET_FILE`, `azure` or `azure-fleet:FLEET_ID`. */
  backend?: string;
  /** azure-fleet: seconds between GETs of the run while following it; azure: between reads of a cluster being upgraded. */
  pollSeconds?: string;
  timeScale?: string;
  endpoint?: string;
  caFile?: string;
  credential?: string;
  /** azure-fleet: the Fleet Manager api-version (issue 21; default 2026-06-01). */
  apiVersion?: string;
}

const SIMULATOR_PREFIX = "simulator:";
/** Issue 12: `azure-fleet:/subscriptions/…/fleets/NAME`. */
const AZURE_FLEET_PREFIX = "azure-fleet:";

/** The backend the flags name, paths resolved against `baseDir`; problems are named by flag. */
export function backendFromFlags(flags: BackendFlags, baseDir: string): BackendConfig {
  const issues: FieldIssue[] = [];
  const azureOnly = (["endpoint", "caFile", "credential"] as const).filter((k) => flags[k] !== undefined);
  let raw: unknown;
  if (flags.pollSeconds !== undefined && flags.backend?.startsWith(AZURE_FLEET_PREFIX) !== true && flags.backend !== "azure") issues.push({ path: "--poll-seconds", message: "applies to --backend azure or azure-fleet:FLEET_ID only" });
  const poll = flags.pollSeconds === undefined ? undefined : Number(flags.pollSeconds);
  const pollOk = poll !== undefined && Number.isFinite(poll) && poll > 0;
  if (poll !== undefined && !pollOk && (flags.backend === "azure" || flags.backend?.startsWith(AZURE_FLEET_PREFIX) === true)) issues.push({ path: "--poll-seconds", message: "must be a number of seconds greater than 0" });
  if (flags.apiVersion !== undefined && flags.backend?.startsWith(AZURE_FLEET_PREFIX) !== true) issues.push({ path: "--api-version", message: "applies to --backend azure-fleet:FLEET_ID only" });
  if (flags.backend === undefined) {
    issues.push({ path: "--backend", message: "is required: simulator:FLEET_FILE, azure or azure-fleet:FLEET_ID" });
  } else if (flags.backend.startsWith(SIMULATOR_PREFIX)) {
    const fleetFile = flags.backend.slice(SIMULATOR_PREFIX.length);
    for (const key of azureOnly) issues.push({ path: flagName(key), message: "applies to --backend azure only" });
    const timeScale = flags.timeScale === undefined ? undefined : Number(flags.timeScale);
    if (timeScale !== undefined && !Number.isFinite(timeScale)) issues.push({ path: "--time-scale", message: "must be a number greater than 0" });
    raw = { simulator: { fleetFile: fleetFile === "" ? "" : path.resolve(baseDir, fleetFile), ...(timeScale === undefined || !Number.isFinite(timeScale) ? {} : { timeScale }) } };
  } else if (flags.backend.startsWith(AZURE_FLEET_PREFIX)) {
    if (flags.timeScale !== undefined) issues.push({ path: "--time-scale", message: "applies to --backend simulator:FLEET_FILE only" });
    raw = {
      azureFleet: {
        fleetId: flags.backend.slice(AZURE_FLEET_PREFIX.length),
        ...(flags.endpoint === undefined ? {} : { endpoint: flags.endpoint }),
        ...(flags.caFile === undefined ? {} : { trustedCaFile: path.resolve(baseDir, flags.caFile) }),
        ...(flags.credential === undefined ? {} : { credential: flags.credential }),
        ...(pollOk ? { pollIntervalSeconds: poll } : {}),
        ...(flags.apiVersion === undefined ? {} : { apiVersion: flags.apiVersion }),
      },
    };
  } else if (flags.backend === "azure") {
    if (flags.timeScale !== undefined) issues.push({ path: "--time-scale", message: "applies to --backend simulator:FLEET_FILE only" });
    raw = {
      azure: {
        ...(flags.endpoint === undefined ? {} : { endpoint: flags.endpoint }),
        ...(flags.caFile === undefined ? {} : { trustedCaFile: path.resolve(baseDir, flags.caFile) }),
        ...(flags.credential === undefined ? {} : { credential: flags.credential }),
        // One rate from start to end: an upgrade through ARM is read this often (default 15 s, then 60 s).
        ...(pollOk ? { pollIntervalSeconds: { initial: poll, steady: poll } } : {}),
      },
    };
  } else {
    issues.push({ path: "--backend", message: `must be simulator:FLEET_FILE, azure or azure-fleet:FLEET_ID, got '${flags.backend}'` });
  }
  const parsed = raw === undefined ? undefined : BackendConfigSchema.safeParse(raw, { error: friendlyErrors });
  if (parsed?.success === false) issues.push(...toFieldIssues(parsed.error).map((i) => ({ path: flagForBackendPath(i.path), message: i.message })));
  if (issues.length > 0 || parsed?.success !== true) throw new ValidationError(issues);
  return parsed.data;
}

/** The run the spec describes, on `backend`. `file` names the spec (its stem is the default name; `-` is stdin). */
export function parseRunSpec(text: string, file: string, backend: BackendConfig): UpdateRunInputs {
  const raw = parseYamlMapping(text, "a run spec is a mapping with members and managedClusterUpdate (and name, strategy, skip, approvals, ...)");
  const { name, ...rest } = raw;
  const issues: FieldIssue[] = [];
  // The provider's own fields that a spec does not take: the name is `name`, the backend a flag.
  if ("runName" in rest) issues.push({ path: "runName", message: "unknown field (the run's name is `name`)" });
  if ("backend" in rest) issues.push({ path: "backend", message: "unknown field (the backend is chosen with --backend)" });
  const stem = file === "-" ? undefined : path.basename(file).replace(/\.(ya?ml|json)$/i, "");
  const runName = name ?? stem;
  if (runName === undefined) issues.push({ path: "name", message: "is required when the spec is read from standard input" });
  const inputs = { ...rest, runName, backend };
  issues.push(...checkRunInputs(inputs).map((i) => ({ path: i.path.replace(/^runName\b/, "name"), message: i.message.replace(API_VERSION_FIELD, "--api-version") })));
  if (issues.length > 0) throw new ValidationError(issues);
  return UpdateRunInputsSchema.parse(withFleetDefaults(inputs)) as UpdateRunInputs;
}

function flagName(key: keyof BackendFlags): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** `azure.credential` → `--credential`: what the user typed, not the provider's field. */
function flagForBackendPath(fieldPath: string): string {
  if (fieldPath.startsWith("simulator.timeScale")) return "--time-scale";
  if (fieldPath.startsWith("azureFleet.pollIntervalSeconds")) return "--poll-seconds";
  if (fieldPath.startsWith("azureFleet.apiVersion")) return "--api-version";
  if (/^azure(Fleet)?\.endpoint/.test(fieldPath)) return "--endpoint";
  if (/^azure(Fleet)?\.trustedCaFile/.test(fieldPath)) return "--ca-file";
  if (/^azure(Fleet)?\.credential/.test(fieldPath)) return "--credential";
  return "--backend";
}
