/**
 * Our run definition in Fleet Manager's shapes (`wire.ts`). Only the fields Fleet has are sent:
 * `unsupported.ts` has refused the others at Check — and a field the chosen api-version lacks — so
 * nothing is dropped silently here. Our strategy uses Fleet's own names, so each field goes across as
 * it is: gates (`{ displayName?, type: "Approval" }`, or `type: "ScheduledStart"` with its
 * `scheduledStartConfiguration`), `memberSelector: { byLabel }`, and `maxConcurrency` and
 * `maxAllowedFailures` as the same strings ("N" or "P%").
 */
import type { Gate, UpdateRunStrategy } from "../../model/strategy";
import type { ManagedClusterUpdate } from "../../model/update";
import type { WireGateConfiguration, WireGates, WireLimits, WireManagedClusterUpdate as FleetManagedClusterUpdate, WireMemberSelector, WireStrategy as FleetStrategy } from "../../backends/azureFleet/wire";

type Gated = { beforeGates?: Gate[]; afterGates?: Gate[] };

function gatesTo(item: Gated): WireGates {
  const copy = (gates: Gate[]): WireGateConfiguration[] =>
    gates.map((g) => ({
      type: g.type,
      ...(g.displayName === undefined ? {} : { displayName: g.displayName }),
      ...(g.scheduledStartConfiguration === undefined ? {} : { scheduledStartConfiguration: { ...g.scheduledStartConfiguration } }),
    }));
  return { ...(item.beforeGates === undefined ? {} : { beforeGates: copy(item.beforeGates) }), ...(item.afterGates === undefined ? {} : { afterGates: copy(item.afterGates) }) };
}

function gatesFrom(item: WireGates): Gated {
  const copy = (gates: WireGateConfiguration[]): Gate[] =>
    gates.map((g) => ({
      type: g.type,
      ...(g.displayName === undefined || g.displayName === null ? {} : { displayName: g.displayName }),
      ...(g.scheduledStartConfiguration === undefined || g.scheduledStartConfiguration === null ? {} : { scheduledStartConfiguration: { ...g.scheduledStartConfiguration } }),
    }));
  return {
    ...(item.beforeGates === undefined || item.beforeGates === null || item.beforeGates.length === 0 ? {} : { beforeGates: copy(item.beforeGates) }),
    ...(item.afterGates === undefined || item.afterGates === null || item.afterGates.length === 0 ? {} : { afterGates: copy(item.afterGates) }),
  };
}

/** The limits an item sets, as they are (both sides take "N" or "P%"); read back, an empty one is none. */
function limits(item: WireLimits): WireLimits {
  const set = (v: string | null | undefined): v is string => v !== undefined && v !== null && v !== "";
  return { ...(set(item.maxConcurrency) ? { maxConcurrency: item.maxConcurrency } : {}), ...(set(item.maxAllowedFailures) ? { maxAllowedFailures: item.maxAllowedFailures } : {}) };
}

/** A stage's or group's `memberSelector`, as it is on both sides; read back, an empty one is none. */
function selector(item: { memberSelector?: WireMemberSelector | null }): { memberSelector?: WireMemberSelector } {
  const found = item.memberSelector;
  return found === undefined || found === null || typeof found.byLabel !== "string" ? {} : { memberSelector: { byLabel: found.byLabel } };
}

/**
 * A stage with a selector and no groups is sent with the implicit group our model wrote out for it
 * (docs/rules.md §16: named after the stage, with the stage's selector): under Fleet's rules that group
 * holds the same members, and the strategy reads back as it went, which `attachable()` compares.
 */
export function toFleetStrategy(strategy: UpdateRunStrategy): FleetStrategy {
  return {
    stages: strategy.stages.map((stage) => ({
      name: stage.name,
      ...selector(stage),
      groups: stage.groups.map((group) => ({ name: group.name, ...selector(group), ...limits(group), ...gatesTo(group) })),
      ...(stage.afterStageWaitInSeconds === undefined ? {} : { afterStageWaitInSeconds: stage.afterStageWaitInSeconds }),
      ...limits(stage),
      ...gatesTo(stage),
    })),
  };
}

/** Fleet's strategy back in ours (the snapshot a run took), e.g. for `strategySnapshot`. */
export function fromFleetStrategy(strategy: FleetStrategy | undefined): UpdateRunStrategy | undefined {
  if (strategy === undefined) return undefined;
  return {
    stages: strategy.stages.map((stage) => ({
      name: stage.name,
      ...selector(stage),
      groups:
        (stage.groups ?? []).length === 0 && selector(stage).memberSelector !== undefined
          ? // Written in Fleet with a selector and no groups: the implicit group our model writes out (docs/rules.md §16).
            [{ name: stage.name, ...selector(stage), ...(limits(stage).maxConcurrency === undefined ? {} : { maxConcurrency: limits(stage).maxConcurrency }) }]
          : (stage.groups ?? []).map((group) => ({ name: group.name, ...selector(group), ...limits(group), ...gatesFrom(group) })),
      ...(stage.afterStageWaitInSeconds === undefined || stage.afterStageWaitInSeconds === null ? {} : { afterStageWaitInSeconds: stage.afterStageWaitInSeconds }),
      ...limits(stage),
      ...gatesFrom(stage),
    })),
  };
}

export function toFleetManagedClusterUpdate(update: ManagedClusterUpdate): FleetManagedClusterUpdate {
  const { type, kubernetesVersion } = update.upgrade;
  const selection = update.nodeImageSelection;
  return {
    upgrade: { type, ...(kubernetesVersion === undefined ? {} : { kubernetesVersion }) },
    ...(selection === undefined
      ? {}
      : {
          nodeImageSelection: {
            type: selection.type,
            ...(selection.customNodeImageVersions === undefined ? {} : { customNodeImageVersions: selection.customNodeImageVersions.map((v) => ({ version: v.version })) }),
          },
        }),
  };
}

/**
 * A generated run's update as Fleet returns it, in our model (docs/rules.md §18): the upgrade and a
 * Latest or Consistent selection (a profile generates no Custom one); undefined when there is none.
 */
export function fromFleetManagedClusterUpdate(update: FleetManagedClusterUpdate | undefined): ManagedClusterUpdate | undefined {
  const type = update?.upgrade?.type;
  if (type !== "Full" && type !== "ControlPlaneOnly" && type !== "NodeImageOnly") return undefined;
  const version = update?.upgrade.kubernetesVersion ?? undefined;
  const selection = update?.nodeImageSelection?.type;
  return {
    upgrade: { type, ...(version === undefined ? {} : { kubernetesVersion: version }) },
    ...(selection === "Latest" || selection === "Consistent" ? { nodeImageSelection: { type: selection } } : {}),
  };
}

/**
 * Whether a run found in the fleet does what ours asks (same upgrade and node image selection): an
 * existing run of the same name with another target is refused, never attached to.
 */
export function sameManagedClusterUpdate(found: FleetManagedClusterUpdate | undefined, ours: ManagedClusterUpdate): boolean {
  if (found === undefined) return false;
  const want = toFleetManagedClusterUpdate(ours);
  const norm = (u: FleetManagedClusterUpdate) =>
    JSON.stringify({
      type: u.upgrade.type,
      kubernetesVersion: u.upgrade.kubernetesVersion ?? null,
      selection: u.nodeImageSelection?.type ?? "Latest",
      custom: (u.nodeImageSelection?.customNodeImageVersions ?? []).map((v) => v.version ?? "").sort(),
    });
  return norm(found) === norm(want);
}
