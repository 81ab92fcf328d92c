/**
 * `UpdateStrategy`'s dynamic provider: a strategy is data, validated (SPEC §2) and normalized into
 * Azure's `UpdateRunStrategy` shape. Changing it never touches a run already started: runs snapshot
 * their strategy (SPEC §1).
 */
import { friendlyErrors, toFieldIssues } from "../model/common";
import { UpdateRunStrategySchema, type UpdateRunStrategy } from "../model/strategy";
import { canonicalJson, identityHash } from "./journal";
import { dropIssuesUnderUnknowns } from "./unknowns";

type Props = Record<string, unknown>;

function strategyOf(props: Props): unknown {
  return { stages: props.stages };
}

/** What the resource's props may hold besides inputs: the serialized provider and the output. */
const KNOWN_PROPS = new Set(["stages", "strategy", "__provider"]);

export async function check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: Array<{ property: string; reason: string }> }> {
  const parsed = UpdateRunStrategySchema.safeParse(strategyOf(news), { error: friendlyErrors });
  const issues = parsed.success ? [] : dropIssuesUnderUnknowns(strategyOf(news), toFieldIssues(parsed.error));
  // A misspelt input (`stagess` from a YAML program, say) must not be ignored silently.
  const unknown = Object.keys(news).filter((key) => !KNOWN_PROPS.has(key));
  const failures = [...unknown.map((key) => ({ property: key, reason: "unknown field (UpdateStrategy takes stages)" })), ...issues.map((i) => ({ property: i.path, reason: i.message }))];
  // The normalized strategy is known from the inputs alone: giving it here makes `strategy` known at
  // preview (the engine previews a create with its checked inputs), so the run's Check can plan it.
  if (failures.length === 0 && parsed.success) return { inputs: { ...news, strategy: JSON.parse(JSON.stringify(parsed.data)) }, failures };
  return { inputs: news, failures };
}

export async function diff(_id: string, olds: Props, news: Props): Promise<{ changes: boolean }> {
  return { changes: canonicalJson(olds.stages ?? null) !== canonicalJson(news.stages ?? null) };
}

function normalized(props: Props): UpdateRunStrategy {
  const strategy = UpdateRunStrategySchema.parse(strategyOf(props));
  return JSON.parse(JSON.stringify(strategy)) as UpdateRunStrategy;
}

export async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  return { id: `strategy-${identityHash(inputs.stages)}`, outs: { ...inputs, strategy: normalized(inputs) } };
}

export async function update(_id: string, _olds: Props, news: Props): Promise<{ outs: Props }> {
  return { outs: { ...news, strategy: normalized(news) } };
}

export async function read(id: string, props: Props): Promise<{ id: string; props: Props }> {
  // Issue 11: nothing to read a strategy from but its stored inputs (an import has none).
  if (props.stages === undefined) throw new Error("an UpdateStrategy cannot be imported (`pulumi import` or the `import` option): declare it in the program and `pulumi up` (it only validates its stages)");
  return { id, props };
}

export async function remove(): Promise<void> {}
