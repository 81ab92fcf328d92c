/**
 * Where an update strategy is kept besides the program: Fleet Manager's update strategies
 * (`fleets/{fleet}/updateStrategies/{name}`, issue 12). The one place that reads, writes and deletes
 * them — for an `UpdateStrategy` resource with `backend.azureFleet`, a run given an inline strategy and
 * an `autoUpgradeProfile` (docs/rules.md §18: the profile references the strategy kept under the run's
 * name), a run's `updateStrategyId`, and `simulate --via fleet-emulator` (a scenario's referenced
 * strategy, written as the resource writes it) — and the static checks of a strategy kept there.
 */
import { friendlyErrors, toFieldIssues, type FieldIssue } from "../../model/issues";
import type { UpdateRunStrategy } from "../../model/strategy";
import { FleetRequestError, type FleetClient } from "../../backends/azureFleet/fleetClient";
import { FLEET_CHILD_NAME, MAX_FLEET_CHILD_NAME } from "../../backends/azureFleet/fleetId";
import { fromFleetStrategy, toFleetStrategy } from "./toFleet";
import { unsupportedInStrategy } from "./unsupported";
import { reservedGateNames } from "./analysisGates";
import { StrategyBackendSchema, type AzureFleetBackendConfig } from "../../spec/runSpec";
import { canonicalJson } from "../../spec/identity";
import { openFleetClient } from "./openFleet";

/** A strategy as the fleet keeps it: its stages (normalized), and the version last written or read. */
export interface KeptStrategy {
  strategy: UpdateRunStrategy;
  eTag?: string;
}

/** What a write leaves: the strategy's ARM id and its new version. */
export interface WrittenStrategy {
  updateStrategyId: string;
  eTag?: string;
}

/** The strategy `name` was changed in the fleet since it was last read: nothing was written. */
export class StrategyChangedError extends Error {}

export class FleetStrategyStore {
  constructor(readonly client: FleetClient) {}

  /** The ARM id of the fleet's strategy `name`. */
  idOf(name: string): string {
    return this.client.strategyId(name);
  }

  /** The strategy `name`, or undefined when the fleet has none of that name. */
  async read(name: string): Promise<KeptStrategy | undefined> {
    const found = await this.client.getStrategy(name);
    if (found === undefined) return undefined;
    return { strategy: fromFleetStrategy(found.properties?.strategy) ?? { stages: [] }, ...(found.eTag === undefined ? {} : { eTag: found.eTag }) };
  }

  /**
   * Create (`If-None-Match: *`) without `eTag`, else update only the version read (`If-Match`): a
   * strategy changed outside since is not overwritten (`StrategyChangedError`). A create whose
   * strategy exists already (a create killed after Fleet took it) takes the one there and writes over
   * it with its eTag.
   */
  async write(name: string, strategy: UpdateRunStrategy, eTag: string | undefined): Promise<WrittenStrategy> {
    const body = toFleetStrategy(strategy);
    let kept;
    try {
      kept = await this.client.putStrategy(name, body, eTag);
    } catch (e) {
      if (!(e instanceof FleetRequestError && e.statusCode === 412)) throw e;
      if (eTag !== undefined) throw new StrategyChangedError(`update strategy '${name}' was changed in fleet '${this.client.fleet.fleetName}' since it was last read`);
      const there = await this.client.getStrategy(name);
      kept = await this.client.putStrategy(name, body, there?.eTag);
    }
    return { updateStrategyId: kept.id ?? this.idOf(name), ...(kept.eTag === undefined ? {} : { eTag: kept.eTag }) };
  }

  /**
   * Keep `strategy` as `name` unless the fleet has a strategy of that name already: the one there when
   * it has, which the caller compares (`asFleetKeeps`); undefined when this call created it.
   */
  async ensure(name: string, strategy: UpdateRunStrategy): Promise<KeptStrategy | undefined> {
    const there = await this.read(name);
    if (there !== undefined) return there;
    try {
      await this.client.putStrategy(name, toFleetStrategy(strategy));
      return undefined;
    } catch (e) {
      // Created meanwhile (a create killed after Fleet took it, or a second client): the one there.
      const now = e instanceof FleetRequestError && e.statusCode === 412 ? await this.read(name) : undefined;
      if (now === undefined) throw e;
      return now;
    }
  }

  /** Delete the strategy `name` (only the version read, with `eTag`); nothing when there is none. */
  async remove(name: string, eTag?: string): Promise<void> {
    await this.client.deleteStrategy(name, eTag);
  }
}

/** `strategy` as the fleet gives it back once written (its echo drops what Fleet does not keep): what a kept strategy is compared with. */
export function asFleetKeeps(strategy: UpdateRunStrategy): UpdateRunStrategy | undefined {
  return fromFleetStrategy(toFleetStrategy(strategy));
}

/** Whether the fleet's strategy is `strategy`, as Fleet keeps it. */
export function keepsSame(kept: UpdateRunStrategy | undefined, strategy: UpdateRunStrategy): boolean {
  return canonicalJson(kept) === canonicalJson(asFleetKeeps(strategy));
}

/** The store of the fleet `backend.azureFleet` names; relative paths resolve against `baseDir`. */
export function strategyStoreFor(backend: { azureFleet: AzureFleetBackendConfig }, baseDir?: string): FleetStrategyStore {
  return new FleetStrategyStore(openFleetClient(backend.azureFleet, baseDir));
}

/**
 * What a strategy kept in Fleet Manager refuses before anything is sent: the backend's own fields, the
 * strategy's name (the resource's: a fleet child resource name), and what its api-version lacks.
 */
export function keptStrategyIssues(backend: unknown, strategyName: unknown, strategy: UpdateRunStrategy | undefined): FieldIssue[] {
  const parsed = StrategyBackendSchema.safeParse(backend, { error: friendlyErrors });
  const issues = parsed.success ? [] : toFieldIssues(parsed.error, ["backend"]);
  if (typeof strategyName !== "string" || strategyName.length > MAX_FLEET_CHILD_NAME || !FLEET_CHILD_NAME.test(strategyName)) {
    issues.push({ path: "strategyName", message: `names the fleet's update strategy: lowercase letters, digits and '-', at most ${MAX_FLEET_CHILD_NAME} characters` });
  }
  const apiVersion = parsed.success ? parsed.data.azureFleet.apiVersion : undefined;
  issues.push(...unsupportedInStrategy(strategy, "", apiVersion), ...reservedGateNames(strategy, ""));
  return issues;
}
