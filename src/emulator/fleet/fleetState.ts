/**
 * Azure Kubernetes Fleet Manager's resources as the emulator keeps them: fleets, their members (the
 * emulated clusters), update strategies and update runs. Plain records; the ARM bodies are made in
 * `fleetResources.ts`, and a started run is driven by `fleetRuns.ts`. Names are case-insensitive, as
 * in ARM.
 */
import type { Fleet } from "../../model/fleet";
import type { UpdateRunStrategy } from "../../model/strategy";
import type { ManagedClusterUpdate } from "../../model/update";
import type { UpdateRunEngine } from "../../engine";
import type { RunEvent } from "../../model/status";
import type { ArmScope } from "../ports";
import type { RunDriver } from "./fleetRuns";
import type { ResourceOperation } from "./resourceOperations";

/** How `startArmEmulator` declares a fleet (option `fleets`). */
export interface FleetDeclaration {
  name: string;
  /** ARM `location` of the fleet resource; default the first member's region. */
  location?: string;
  /** Default: every emulated cluster, named as the cluster, in its declared `group`, with its declared `labels`. */
  members?: Array<{ name: string; /** The emulated cluster; default `name`. */ cluster?: string; group?: string; labels?: Record<string, string> }>;
}

export interface FleetMemberRecord {
  name: string;
  /** The emulated cluster's name (the simulated fleet's member). */
  cluster: string;
  group?: string;
  /** The fleet member's labels (issue 22), which a run's `memberSelector` selects by. */
  labels?: Record<string, string>;
  /** Declared (by the cluster or by a PUT); else derived from the scope the fleet is addressed in. */
  clusterResourceId?: string;
  /** The cluster's region (the `fleet.azure.com/location` label). */
  location: string;
  /** Its last join, update or leave (`resourceOperations.ts`): `provisioningState`, `status.lastOperationId`. */
  lastOperation: ResourceOperation;
  /** Simulated instants of the creation and of the last write (`systemData`). */
  createdAt: number;
  modifiedAt: number;
}

export interface StrategyRecord {
  name: string;
  strategy: UpdateRunStrategy;
  /** Simulated instants of the creation and of the last write (`systemData`). */
  createdAt: number;
  modifiedAt: number;
}

/** What the run resolved from its strategy when it was created (docs/rules.md §8, §10), shown in its status. */
export interface RunLimits {
  stages: Array<{ maxConcurrency?: number; maxAllowedFailures?: number; groups: Array<{ maxConcurrency: number; maxAllowedFailures?: number }> }>;
}

export interface RunRecord {
  name: string;
  /** As the PUT gave it (a full ARM id, or absent). */
  updateStrategyId?: string;
  /** The auto-upgrade profile whose `generateUpdateRun` made the run (its ARM id; read-only on the wire). */
  autoUpgradeProfileId?: string;
  /** The strategy the run uses: inline, or copied from the referenced strategy at creation. */
  strategy?: UpdateRunStrategy;
  managedClusterUpdate: ManagedClusterUpdate;
  /** The request body's properties as accepted, to tell a retried PUT from a changed one. */
  specDigest: string;
  scope: ArmScope;
  engine: UpdateRunEngine;
  driver: RunDriver;
  /** Every state change of the run (docs/rules.md §7 `events`): not served by ARM, kept for tests and parity checks. */
  events: RunEvent[];
  /** Resolved `maxConcurrency` / `maxAllowedFailures` of each stage and group. */
  limits: RunLimits;
  /**
   * The gates reached so far (our gate id → the instant first reached): Fleet makes a gate resource
   * when the run reaches the gate, so only these are `fleets/{f}/gates` resources.
   */
  gatesReached: Map<string, string>;
  /**
   * The gates a user PATCHed (our gate id → the simulated instant): Fleet makes a gate resource itself,
   * with no `systemData`, and shows `systemData` once a user wrote it (test_fleet_hubless).
   */
  gatesPatchedAt: Map<string, number>;
  /** Simulated instants of the creation and of the last PUT (`systemData`). */
  createdAt: number;
  modifiedAt: number;
}

export interface FleetRecord {
  name: string;
  location: string;
  tags: Record<string, string>;
  /** The managed identity the last write gave (`identity`), shown as given. */
  identity?: Record<string, unknown>;
  /** Where it was created or first addressed: what a subscription-wide list shows it under. */
  homeScope?: ArmScope;
  /** Its last create, update or delete (`resourceOperations.ts`). */
  lastOperation: ResourceOperation;
  createdAt: number;
  modifiedAt: number;
  members: Map<string, FleetMemberRecord>;
  strategies: Map<string, StrategyRecord>;
  runs: Map<string, RunRecord>;
}

export const FLEETS = "Microsoft.ContainerService/fleets";

/** A fleet's ARM id in the scope it is addressed in (the prefix of its members', strategies', runs' and gates' ids). */
export function fleetId(scope: ArmScope, fleet: string): string {
  return `/subscriptions/${scope.subscriptionId}/resourceGroups/${scope.resourceGroup}/providers/${FLEETS}/${fleet}`;
}

export function key(name: string): string {
  return name.toLowerCase();
}

/** Every fleet the emulator serves, by name. */
export class FleetStore {
  readonly fleets = new Map<string, FleetRecord>();

  /**
   * `operation` makes the (instant, already over) operation that created each declared fleet and
   * member, so that every resource names a last operation, as on Fleet.
   */
  constructor(world: Fleet, declarations: readonly FleetDeclaration[] | undefined, operation: () => ResourceOperation, now: number) {
    for (const declaration of declarations ?? [{ name: "fleet" }]) {
      // A scenario's member labels become the fleet members' labels: on Fleet that is where they live.
      const members =
        declaration.members ??
        world.members.map((m) => ({ name: m.name, cluster: m.name, ...(m.group === undefined ? {} : { group: m.group }), ...(m.labels === undefined ? {} : { labels: { ...m.labels } }) }));
      const record = this.create(declaration.name, declaration.location ?? firstRegion(world, members[0]?.cluster ?? members[0]?.name), operation(), now);
      for (const m of members) {
        const cluster = world.members.find((c) => key(c.name) === key(m.cluster ?? m.name));
        if (cluster === undefined) throw new RangeError(`fleet '${declaration.name}': member '${m.name}' names no emulated cluster ('${m.cluster ?? m.name}')`);
        record.members.set(key(m.name), {
          name: m.name,
          cluster: cluster.name,
          ...(m.group === undefined ? {} : { group: m.group }),
          ...(m.labels === undefined ? {} : { labels: { ...m.labels } }),
          ...(cluster.clusterResourceId === undefined ? {} : { clusterResourceId: cluster.clusterResourceId }),
          location: cluster.region,
          lastOperation: operation(),
          createdAt: now,
          modifiedAt: now,
        });
      }
    }
  }

  get(name: string): FleetRecord | undefined {
    return this.fleets.get(key(name));
  }

  create(name: string, location: string, lastOperation: ResourceOperation, now: number): FleetRecord {
    const record: FleetRecord = { name, location, tags: {}, lastOperation, createdAt: now, modifiedAt: now, members: new Map(), strategies: new Map(), runs: new Map() };
    this.fleets.set(key(name), record);
    return record;
  }

  /** Forget the fleets and members whose deletion is over at `now` (they answer 404 from then on). */
  purge(now: number): void {
    for (const [name, fleet] of this.fleets) {
      if (isGone(fleet, now)) {
        for (const run of fleet.runs.values()) run.driver.close();
        this.fleets.delete(name);
        continue;
      }
      for (const [memberName, member] of fleet.members) if (isGone(member, now)) fleet.members.delete(memberName);
    }
  }

  /** Every run of every fleet. */
  *runs(): Generator<RunRecord> {
    for (const fleet of this.fleets.values()) yield* fleet.runs.values();
  }

  /** Stop driving every run (the emulator is closing). */
  close(): void {
    for (const run of this.runs()) run.driver.close();
  }
}

/** Its deletion was accepted and is over. */
export function isGone(resource: { lastOperation: ResourceOperation }, now: number): boolean {
  return resource.lastOperation.kind === "delete" && now >= resource.lastOperation.endAt;
}

/** Its deletion was accepted (it may still show, `Deleting` / `Leaving`, until the operation ends). */
export function isLeaving(resource: { lastOperation: ResourceOperation }): boolean {
  return resource.lastOperation.kind === "delete";
}

function firstRegion(world: Fleet, cluster: string | undefined): string {
  const found = cluster === undefined ? undefined : world.members.find((c) => key(c.name) === key(cluster));
  return found?.region ?? Object.keys(world.regions)[0] ?? "westeurope";
}
