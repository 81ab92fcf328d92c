/**
 * `UpdateRun`'s provider: loaded at run time by the dynamic resource's serialized stub (`providers.ts`),
 * and called by the provider plugin (`plugin/provider.ts`, issue 24) — one implementation for both.
 * Pulumi CRUD → the engine:
 * - check: docs/rules.md §2 validation as check failures whose `property` is the field path;
 * - diff: a new target, member list, strategy or backend is a new run (replace); `state`, `skip`,
 *   `approvals`, `timeoutMinutes`, `returnAfterMinutes` and Fleet's `apiVersion` are applied in place; a run left waiting
 *   (a gate, a long wait) is an update even with no change, so the next `pulumi up` continues it;
 * - create / update: run to a terminal state, the state asked for, or the deadline;
 * - read: recompute statuses from the backend, starting nothing;
 * - delete: forget the run; clusters are never touched.
 * Relative paths are resolved against the recorded `projectDir` (projectDir.ts), never this process's
 * working directory, which the engine sets to the project's `main` folder.
 */
import { ValidationError } from "../../model/issues";
import type { StoredRun } from "../../drivers/runDriver";
import { printPlanSummary } from "../../plan/forRun";
import { canonicalJson, identityValue } from "../../spec/identity";
import { RUN_CONTROL_FIELDS, RUN_IDENTITY_FIELDS, UpdateRunInputsSchema, withFleetDefaults, type UpdateRunInputs } from "../../spec/runSpec";
import { checkRunInputs, parseRunInputs } from "../../drivers/runInputs";
import { containsUnknown } from "../../spec/unknowns";
import { driverFor } from "../../drivers/driverFor";
import { BackendConfigSchema } from "../../spec/runSpec";
import { RunNotFinishedError, forgetRun, observeRun, runSession, tellOnStderr, type SessionOptions, type Tell, type UpdateRunOutputs } from "./runSession";
import { projectDirIssues, projectDirOf, withoutProjectDir } from "./projectDir";

type Props = Record<string, unknown>;

export async function check(olds: Props, news: Props, tell: Tell = tellOnStderr): Promise<{ inputs: Props; failures: Array<{ property: string; reason: string }> }> {
  const issues = [...checkRunInputs(withoutProjectDir(news)), ...projectDirIssues(news)];
  const failures = issues.map((issue) => ({ property: issue.path, reason: issue.message }));
  if (failures.length > 0 || containsUnknown(pickInputs(news))) return { inputs: news, failures };
  // What only the world can say (issue 12: on Fleet Manager, a listed member not in the fleet, or in
  // another group, is a failure naming it), through the run's driver.
  const inputs = parseRunInputs(pickInputs(news));
  const driver = await driverFor(inputs.backend, { baseDir: projectDirOf(news) });
  failures.push(...(await driver.check(inputs)).map((i) => ({ property: i.path, reason: i.message })));
  // Issue 6: `pulumi preview` shows the plan (stage ETAs, findings) of valid, fully known inputs —
  // for a run about to be created (or replaced); an existing run's plan is its `plan` output.
  if (failures.length === 0 && RUN_IDENTITY_FIELDS.some(identityChangedBetween(olds, news))) await printPlanSummary(driver, inputs, (text) => tell(text.replace(/\n$/, "")));
  return { inputs: news, failures };
}

export async function diff(_id: string, olds: Props, news: Props): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }> {
  // `projectDir` is in neither list: the same project run from another checkout path is the same run.
  const changed = changedBetween(olds, news);
  const replaces = RUN_IDENTITY_FIELDS.filter(identityChangedBetween(olds, news));
  // Issue 21: `backend.azureFleet.apiVersion` is not identity (the fleet keeps the run by name at
  // every version): a change of it alone is an update, which attaches to the same fleet run.
  const updates = [...RUN_CONTROL_FIELDS.filter(changed), ...(changed("backend") && !replaces.includes("backend") ? ["backend"] : [])];
  // Issue 5: a run that returned while waiting (a gate, a long wait) is continued by the next
  // `pulumi up` even when nothing in the program changed.
  const outcome = (olds.summary as { outcome?: string } | undefined)?.outcome;
  const waiting = outcome === "Pending" && (news.state ?? "Running") === "Running";
  // Issue 12: a Fleet Manager run is named after the resource, so the old one goes first.
  return { changes: replaces.length > 0 || updates.length > 0 || waiting, replaces, deleteBeforeReplace: await deletesBeforeReplace(news, projectDirOf(news)) };
}

export async function create(inputs: Props, options: SessionOptions = {}): Promise<{ id: string; outs: Props }> {
  const parsed = parseInputsOrThrow(inputs);
  const { id, outputs } = await runSession(parsed, projectDirOf(inputs), undefined, options).catch(keepInputs(inputs));
  return { id, outs: { ...inputs, ...outputs } };
}

export async function update(id: string, olds: Props, news: Props, options: SessionOptions = {}): Promise<{ outs: Props }> {
  const parsed = parseInputsOrThrow(news);
  const { plan } = olds as Partial<UpdateRunOutputs>;
  const { outputs } = await runSession(parsed, projectDirOf(news), { ...storedRun(id, olds), ...(plan === undefined ? {} : { plan }) }, options).catch(keepInputs(news));
  return { outs: { ...news, ...outputs } };
}

/**
 * Issue 11: `pulumi import` cannot adopt a run. It calls Read with the id alone; the dynamic-provider
 * host needs the resource's stored `__provider` to find this code at all, so it fails before reaching
 * here (`code must be a string, not undefined`). Should a Read arrive with no run in it, it fails with
 * what to do instead (docs/behaviour.md "The Pulumi resources").
 */
export const CANNOT_IMPORT =
  "an UpdateRun cannot be imported (`pulumi import` or the `import` option): a dynamic resource has no provider to read it with. " +
  "Declare the run in the program and `pulumi up`: a run of the same name and inputs whose journal is still there is taken up, not started again";

export async function read(id: string, props: Props, tell: Tell = tellOnStderr): Promise<{ id: string; props: Props }> {
  if (props.runName === undefined) throw new Error(CANNOT_IMPORT);
  const stored = storedRun(id, props);
  if (stored.engineState === undefined && stored.fleetRun === undefined) return { id, props };
  const outputs = await observeRun(parseInputsOrThrow(props), projectDirOf(props), stored, tell);
  return { id, props: { ...props, ...outputs } };
}

/** Forget the run. Clusters are never touched: an upgrade in flight is left to finish. */
export async function remove(id: string, props: Props): Promise<void> {
  // The journal goes too, so a run created again later with the same inputs is a new run.
  const parsed = UpdateRunInputsSchema.safeParse(pickInputs(props));
  if (parsed.success) await forgetRun(parsed.data as UpdateRunInputs, storedRun(id, props), projectDirOf(props));
}

/** A run that did not finish is kept by Pulumi with its inputs (and `__provider`) and its status. */
function keepInputs(inputs: Props): (e: unknown) => never {
  return (e) => {
    throw e instanceof RunNotFinishedError ? e.withInputs(inputs) : e;
  };
}

function parseInputsOrThrow(raw: Props) {
  try {
    return parseRunInputs(pickInputs(raw));
  } catch (e) {
    if (e instanceof ValidationError) throw new Error(`invalid UpdateRun inputs:\n${e.message}`);
    throw e;
  }
}

function changedBetween(olds: Props, news: Props): (field: string) => boolean {
  return (field) => canonicalJson(asParsed(field, olds) ?? null) !== canonicalJson(asParsed(field, news) ?? null);
}

/** A change of what the run is (`identityValue`: the backend without its api-version). */
function identityChangedBetween(olds: Props, news: Props): (field: string) => boolean {
  return (field) => canonicalJson(identityValue(field, asParsed(field, olds)) ?? null) !== canonicalJson(identityValue(field, asParsed(field, news)) ?? null);
}

/**
 * A field as the provider takes it — defaults filled in (`state: Running`, `skip: []`, an azureFleet
 * run's `members: []`, the backend's `credential`) — so that leaving a default out and writing it are
 * the same run with the same controls (an imported run's inputs are written out whole, importRun.ts);
 * as given when it does not parse (unknown at preview, or invalid: check said so).
 */
function asParsed(field: string, props: Props): unknown {
  const schema = (UpdateRunInputsSchema.shape as Record<string, { safeParse: (v: unknown) => { success: boolean; data?: unknown } }>)[field];
  const value = field === "members" ? withFleetDefaults(props).members : props[field];
  if (schema === undefined || containsUnknown(value)) return value;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : value;
}

/** What the stack stored of the run: its id and its driver's record. */
function storedRun(id: string, props: Props): StoredRun {
  const { engineState, fleetRun } = props as Partial<UpdateRunOutputs>;
  return { id, ...(engineState === undefined ? {} : { engineState }), ...(fleetRun === undefined ? {} : { fleetRun }) };
}

async function deletesBeforeReplace(news: Props, projectDir: string): Promise<boolean> {
  const backend = BackendConfigSchema.safeParse(news.backend);
  return backend.success && (await driverFor(backend.data, { baseDir: projectDir })).deleteBeforeReplace;
}

/** Stored properties hold inputs and outputs together; the inputs are these. */
function pickInputs(raw: Props): Props {
  const keys = [...RUN_IDENTITY_FIELDS, ...RUN_CONTROL_FIELDS];
  return Object.fromEntries(keys.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]));
}
