/**
 * `UpdateStrategy`'s provider, for the dynamic resource's stub (`providers.ts`) and the provider plugin
 * (`plugin/provider.ts`, issue 24) alike: a strategy is data, validated (docs/rules.md §2) and normalized into
 * Azure's `UpdateRunStrategy` shape. Changing it never touches a run already started: runs snapshot
 * their strategy (docs/rules.md §1).
 */
import { friendlyErrors, toFieldIssues } from "../../model/issues";
import { StrategyChangedError, keptStrategyIssues, strategyStoreFor, type FleetStrategyStore } from "../../drivers/fleet/strategyStore";
import { AzureFleetBackendSchema } from "../../spec/runSpec";
import { UpdateRunStrategySchema, type UpdateRunStrategy } from "../../model/strategy";
import { canonicalJson, identityHash, withoutApiVersion } from "../../spec/identity";
import { dropIssuesUnderUnknowns } from "../../spec/unknowns";

type Props = Record<string, unknown>;

function strategyOf(props: Props): unknown {
  return { stages: props.stages };
}

/** What the resource's props may hold besides inputs: the serialized provider and the outputs. */
const KNOWN_PROPS = new Set(["stages", "strategy", "__provider", "backend", "strategyName", "updateStrategyId", "eTag"]);

export async function check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: Array<{ property: string; reason: string }> }> {
  const parsed = UpdateRunStrategySchema.safeParse(strategyOf(news), { error: friendlyErrors });
  const issues = parsed.success ? [] : dropIssuesUnderUnknowns(strategyOf(news), toFieldIssues(parsed.error));
  // Issue 12: a strategy kept in Fleet Manager (`backend.azureFleet`).
  if (news.backend !== undefined) issues.push(...dropIssuesUnderUnknowns(news, keptStrategyIssues(news.backend, news.strategyName, parsed.success ? parsed.data : undefined)));
  // A misspelt input (`stagess` from a YAML program, say) must not be ignored silently.
  const unknown = Object.keys(news).filter((key) => !KNOWN_PROPS.has(key));
  const failures = [...unknown.map((key) => ({ property: key, reason: "unknown field (UpdateStrategy takes stages)" })), ...issues.map((i) => ({ property: i.path, reason: i.message }))];
  // The normalized strategy is known from the inputs alone: giving it here makes `strategy` known at
  // preview (the engine previews a create with its checked inputs), so the run's Check can plan it.
  if (failures.length === 0 && parsed.success) return { inputs: { ...news, strategy: JSON.parse(JSON.stringify(parsed.data)) }, failures };
  return { inputs: news, failures };
}

export async function diff(_id: string, olds: Props, news: Props): Promise<{ changes: boolean; replaces?: string[]; deleteBeforeReplace?: boolean }> {
  const stages = canonicalJson(olds.stages ?? null) !== canonicalJson(news.stages ?? null);
  // Issue 12: another fleet (or none) is another resource; the same name goes first. Issue 21: the
  // api-version is how the client speaks, not where the strategy is: a change of it alone is an
  // update (the same strategy written again at the new version).
  const moved = canonicalJson(withoutApiVersion(olds.backend) ?? null) !== canonicalJson(withoutApiVersion(news.backend) ?? null) || canonicalJson(olds.strategyName ?? null) !== canonicalJson(news.strategyName ?? null);
  const respoken = canonicalJson(olds.backend ?? null) !== canonicalJson(news.backend ?? null);
  return moved ? { changes: true, replaces: ["backend"], deleteBeforeReplace: true } : { changes: stages || respoken };
}

function normalized(props: Props): UpdateRunStrategy {
  const strategy = UpdateRunStrategySchema.parse(strategyOf(props));
  return JSON.parse(JSON.stringify(strategy)) as UpdateRunStrategy;
}

export async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const strategy = normalized(inputs);
  const fleet = fleetOf(inputs);
  if (fleet !== undefined) {
    const kept = await write(fleet, strategy, undefined);
    return { id: kept.updateStrategyId, outs: { ...inputs, strategy, ...kept } };
  }
  return { id: `strategy-${identityHash(inputs.stages)}`, outs: { ...inputs, strategy } };
}

export async function update(_id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const strategy = normalized(news);
  const fleet = fleetOf(news);
  if (fleet !== undefined) return { outs: { ...news, strategy, ...(await write(fleet, strategy, olds.eTag as string | undefined)) } };
  return { outs: { ...news, strategy } };
}

export async function read(id: string, props: Props): Promise<{ id: string; props: Props }> {
  // Issue 11: nothing to read a strategy from but its stored inputs (an import has none).
  if (props.stages === undefined) throw new Error("an UpdateStrategy cannot be imported (`pulumi import` or the `import` option): declare it in the program and `pulumi up` (it only validates its stages)");
  const fleet = fleetOf(props);
  if (fleet === undefined) return { id, props };
  const found = await fleet.store.read(fleet.name);
  if (found === undefined) return { id: "", props: {} };
  return { id, props: { ...props, stages: found.strategy.stages, strategy: found.strategy, ...(found.eTag === undefined ? {} : { eTag: found.eTag }) } };
}

/** Issue 12: a strategy kept in Fleet Manager is deleted there (runs already created keep their snapshot). */
export async function remove(_id?: string, props?: Props): Promise<void> {
  const fleet = props === undefined ? undefined : fleetOf(props);
  if (fleet !== undefined) await fleet.store.remove(fleet.name, props?.eTag as string | undefined);
}

function fleetOf(props: Props): { store: FleetStrategyStore; name: string } | undefined {
  const backend = props.backend as { azureFleet?: unknown } | undefined;
  if (backend?.azureFleet === undefined) return undefined;
  return { store: strategyStoreFor({ azureFleet: AzureFleetBackendSchema.parse(backend.azureFleet) }), name: props.strategyName as string };
}

/** Written with the eTag read last (`FleetStrategyStore.write`); one changed outside Pulumi since says what to do. */
async function write(fleet: { store: FleetStrategyStore; name: string }, strategy: UpdateRunStrategy, eTag: string | undefined) {
  try {
    return await fleet.store.write(fleet.name, strategy, eTag);
  } catch (e) {
    if (!(e instanceof StrategyChangedError)) throw e;
    throw new Error(`update strategy '${fleet.name}' was changed in fleet '${fleet.store.client.fleet.fleetName}' outside Pulumi: run \`pulumi refresh\`, then \`pulumi up\``);
  }
}
