/**
 * Issue 24, 32: adopt an existing run by an import id (`pulumi import fleet-update:index:UpdateRun NAME
 * ID`, through the provider plugin: `src/pulumi/provider/importRun.ts`): which run the id names, what the
 * caller stores of it, and the inputs that describe it, so that a program declaring the same run shows
 * no diff. Two kinds of id (docs/behaviour.md "Importing a run"):
 *
 * - **A run of ours, by its journal**: the journal file `fleet-update run` named when it started the
 *   run (`journal: fleet.yaml.state.runs/NAME.json`), relative to the project folder or absolute. The
 *   journal keeps the inputs the run was started with (`journaledInputs`, `journal.ts`); paths in them
 *   are given back relative to the project folder, as a program writes them.
 * - **A Fleet Manager update run, by its ARM id**
 *   (`/subscriptions/…/fleets/F/updateRuns/NAME`). What the id cannot say — how to reach ARM — is
 *   added as a query, with the names of `backend.azureFleet`'s fields:
 *   `?endpoint=https://127.0.0.1:8443&credential=emulator&trustedCaFile=ca.pem`.
 *
 * The run keeps its name: the resource must be named as the run is (the name is its identity), and a
 * run imported under another name is refused, naming the one to use.
 */
import path from "node:path";
import { friendlyErrors, toFieldIssues } from "../model/issues";
import type { UpdateState } from "../model/status";
import { FLEET_CHILD_NAME } from "../backends/azureFleet/fleetId";
import { fromFleetManagedClusterUpdate, fromFleetStrategy } from "./fleet/toFleet";
import { BackendConfigSchema, type BackendConfig } from "../spec/runSpec";
import { RunJournal } from "./engine/journal";
import { openFleetClient } from "./fleet/openFleet";
import { RunRefusedError } from "./refusal";
import type { StoredRun } from "./runDriver";

type Props = Record<string, unknown>;

/** A run adopted: its id (the journal's run id, or the fleet run's ARM id), what the caller stores of it, and the inputs that describe it. */
export interface AdoptedRun {
  id: string;
  stored: StoredRun;
  inputs: Props;
}

function refuse(message: string): RunRefusedError {
  return new RunRefusedError([{ message }]);
}

/** A Fleet Manager update run's ARM id, with an optional query of `backend.azureFleet` fields. */
const FLEET_RUN_ID = /^(\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.ContainerService\/fleets\/[^/]+)\/updateRuns\/([^/?]+)(?:\?(.*))?$/i;

/** The `backend.azureFleet` fields an import id's query may carry (how to reach ARM), and their types. */
const FLEET_QUERY_FIELDS: Record<string, "string" | "number"> = { endpoint: "string", credential: "string", trustedCaFile: "string", apiVersion: "string", pollIntervalSeconds: "number" };

/** Adopt the run `id` names as the run `runName`, in the project folder `baseDir`. Refusals are `RunRefusedError`s. */
export async function adoptRun(id: string, runName: string, baseDir: string): Promise<AdoptedRun> {
  const fleetRun = FLEET_RUN_ID.exec(id);
  return fleetRun === null ? adoptJournalRun(id, runName, baseDir) : adoptFleetRun(fleetRun, runName, baseDir);
}

async function adoptJournalRun(id: string, runName: string, projectDir: string): Promise<AdoptedRun> {
  const file = path.resolve(projectDir, id);
  const entry = new RunJournal(file).read();
  const usage = "the import id of a run of ours is its journal file, as `fleet-update run` names it when it starts (e.g. fleet.yaml.state.runs/NAME.json), or a Fleet Manager update run's ARM id";
  if (entry === undefined) throw refuse(`cannot import ${id}: no run journal at ${file} (${usage})`);
  const journaledName = entry.engineState.name;
  if (journaledName !== runName) throw refuse(`cannot import ${id} as '${runName}': the journal's run is named '${journaledName}' (a run's name is part of what it is); import it as \`${journaledName}\``);
  if (entry.inputs === undefined) {
    throw refuse(`cannot import ${id}: this journal was written by a version of fleet-update that did not keep the run's inputs; run the same \`fleet-update run\` command once more (it takes the run up and records them), then import`);
  }
  const recorded = entry.inputs as Props;
  const backend = asProjectRelative(recorded.backend as BackendConfig, projectDir);
  const inputs: Props = { ...recorded, backend, state: controlStateOf(recorded.state, entry.engineState.state) };
  return { id: entry.runId, stored: { id: entry.runId, engineState: entry.engineState }, inputs };
}

async function adoptFleetRun(match: RegExpExecArray, runName: string, projectDir: string): Promise<AdoptedRun> {
  const [, fleetId, name, query] = match as unknown as [string, string, string, string | undefined];
  if (!FLEET_CHILD_NAME.test(name)) throw refuse(`cannot import ${match[0]}: '${name}' is not a fleet update run's name`);
  if (name !== runName) throw refuse(`cannot import fleet update run '${name}' as '${runName}': an UpdateRun on Fleet Manager is the fleet's run of its own name; import it as \`${name}\``);
  const backend = fleetBackendOf(fleetId, query);
  const client = openFleetClient(backend.azureFleet!, projectDir);
  const run = await client.getRun(name);
  if (run === undefined) throw refuse(`cannot import: fleet '${client.fleet.fleetName}' has no update run '${name}'`);
  const properties = run.properties;
  const managedClusterUpdate = fromFleetManagedClusterUpdate(properties?.managedClusterUpdate);
  if (managedClusterUpdate === undefined) throw refuse(`cannot import fleet update run '${name}': its managedClusterUpdate is not one this provider knows`);
  const strategyId = properties?.updateStrategyId ?? undefined;
  const strategy = strategyId === undefined ? fromFleetStrategy(properties?.strategy ?? undefined) : undefined;
  const inputs: Props = {
    backend,
    // On Fleet Manager the run's members are the fleet's: a program lists none (examples/fleet-manager).
    members: [],
    ...(strategyId === undefined ? {} : { updateStrategyId: strategyId }),
    ...(strategy === undefined ? {} : { strategy }),
    managedClusterUpdate,
    state: controlStateOf("Running", (properties?.status?.status?.state ?? "NotStarted") as UpdateState),
  };
  const armId = client.runId(name);
  return { id: armId, stored: { id: armId, fleetRun: { id: armId, skipsSent: [] } }, inputs };
}

/**
 * The `state` input that describes the run as it stands: a run that was stopped (a Ctrl-C, `state:
 * Stopped`) or never started is imported so, and a program asking for `Running` then continues it;
 * otherwise what it was started with.
 */
function controlStateOf(given: unknown, runState: UpdateState): string {
  if (runState === "Stopped" || runState === "Stopping") return "Stopped";
  if (runState === "NotStarted") return "NotStarted";
  return typeof given === "string" ? given : "Running";
}

/** The backend's paths as a program in `projectDir` writes them: relative to it (`fleet-update run` recorded them absolute). */
function asProjectRelative(backend: BackendConfig, projectDir: string): BackendConfig {
  const relative = (file: string | undefined) => (file === undefined || !path.isAbsolute(file) ? file : path.relative(projectDir, file));
  const strip = <T extends object>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  if (backend.simulator !== undefined) return strip({ simulator: { ...backend.simulator, fleetFile: relative(backend.simulator.fleetFile)!, stateFile: relative(backend.simulator.stateFile) } });
  if (backend.azure !== undefined) return strip({ azure: { ...backend.azure, trustedCaFile: relative(backend.azure.trustedCaFile) } });
  return backend;
}

/** `backend.azureFleet` from the id's fleet and its query; a field that does not fit is named as the query gives it. */
function fleetBackendOf(fleetId: string, query: string | undefined): BackendConfig {
  const fields: Props = { fleetId };
  for (const [key, value] of new URLSearchParams(query ?? "")) {
    const type = FLEET_QUERY_FIELDS[key];
    if (type === undefined) throw refuse(`cannot import: the id's query names '${key}'; it may carry ${Object.keys(FLEET_QUERY_FIELDS).join(", ")} (backend.azureFleet's fields)`);
    fields[key] = type === "number" ? Number(value) : value;
  }
  const parsed = BackendConfigSchema.safeParse({ azureFleet: fields }, { error: friendlyErrors });
  if (!parsed.success) throw refuse(`cannot import: ${toFieldIssues(parsed.error).map((i) => `backend.${i.path}: ${i.message}`).join("; ")}`);
  // As given: defaults (the credential) stay out of the inputs, as a program leaves them out.
  return { azureFleet: fields } as unknown as BackendConfig;
}
