/**
 * What ARM does to clusters besides upgrading them, which the simulated fleet does not model: tags
 * (`PATCH`, ManagedClusters_UpdateTags), deletion of a cluster or an agent pool (`DELETE`: 202, the
 * resource `Deleting` for a while, then 404), and aborting the operation in flight (`POST .../abort`:
 * 202, `Canceling` for a while, then `Canceled`). Deletions and aborts are long-running operations of
 * their own, with ids `delete-<cluster>-<n>` / `abort-<cluster>-<n>`, served at the same status and
 * result URLs as upgrades. An agent pool PUT that changes no version is one too (`update-<cluster>-<n>`):
 * AKS runs an operation for it (`Updating` → `Succeeded`), and a change of the pool's `powerState.code`
 * stops or starts it (`Stopping` → Stopped, `Starting` → Running). Durations are simulated time.
 */
import type { ArmLifecycle, LifecycleOperation } from "../ports";

/** A deletion takes this long (simulated), an abort's cancellation this long, an agent pool update (or stop, or start) this long. */
export const DELETE_MS = 5 * 60_000;
export const CANCEL_MS = 2 * 60_000;
export const POOL_UPDATE_MS = 3 * 60_000;

function key(member: string, pool?: string): string {
  return pool === undefined ? member.toLowerCase() : `${member.toLowerCase()}/${pool.toLowerCase()}`;
}

export class Lifecycle implements ArmLifecycle {
  private readonly tagsByCluster = new Map<string, Record<string, string>>();
  private readonly deletions = new Map<string, LifecycleOperation>();
  private readonly aborts = new Map<string, LifecycleOperation>();
  private readonly updates = new Map<string, LifecycleOperation>();
  private readonly aliases = new Map<string, string>();
  private readonly byId = new Map<string, LifecycleOperation>();
  private counter = 0;

  tags(member: string): Record<string, string> {
    return this.tagsByCluster.get(key(member)) ?? {};
  }

  setTags(member: string, tags: Record<string, string>): void {
    this.tagsByCluster.set(key(member), { ...tags });
  }

  start(op: Omit<LifecycleOperation, "operationId">): LifecycleOperation {
    const started: LifecycleOperation = { ...op, operationId: `${op.kind}-${op.member}-${++this.counter}` };
    this.byId.set(started.operationId.toLowerCase(), started);
    if (op.kind === "delete") this.deletions.set(key(op.member, op.pool), started);
    else if (op.kind === "update") this.updates.set(key(op.member, op.pool), started);
    else this.aborts.set(key(op.member), started);
    return started;
  }

  get(operationId: string): LifecycleOperation | undefined {
    return this.byId.get(operationId.toLowerCase());
  }

  /** The deletion of the cluster (no `pool`) or of one of its pools, started or done. */
  deletion(member: string, pool?: string): LifecycleOperation | undefined {
    return this.deletions.get(key(member, pool));
  }

  /** Pools of `member` whose deletion has been asked for. */
  poolDeletions(member: string): LifecycleOperation[] {
    const prefix = `${member.toLowerCase()}/`;
    return [...this.deletions].filter(([k]) => k.startsWith(prefix)).map(([, op]) => op);
  }

  /** The latest abort on the cluster (its cancellation may still be under way). */
  abort(member: string): LifecycleOperation | undefined {
    return this.aborts.get(key(member));
  }

  poolUpdates(member: string): LifecycleOperation[] {
    const prefix = `${member.toLowerCase()}/`;
    return [...this.updates].filter(([k]) => k.startsWith(prefix)).map(([, op]) => op);
  }

  versionAlias(member: string): string | undefined {
    return this.aliases.get(key(member));
  }

  setVersionAlias(member: string, alias: string | undefined): void {
    if (alias === undefined) this.aliases.delete(key(member));
    else this.aliases.set(key(member), alias);
  }
}
