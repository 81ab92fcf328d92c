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

export async function check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: Array<{ property: string; reason: string }> }> {
  const parsed = UpdateRunStrategySchema.safeParse(strategyOf(news), { error: friendlyErrors });
  const issues = parsed.success ? [] : dropIssuesUnderUnknowns(strategyOf(news), toFieldIssues(parsed.error));
  return { inputs: news, failures: issues.map((i) => ({ property: i.path, reason: i.message })) };
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
  return { id, props };
}

export async function remove(): Promise<void> {}
