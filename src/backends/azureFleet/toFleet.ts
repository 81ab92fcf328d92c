/**
 * Our run definition in Fleet Manager's shapes (`@azure/arm-containerservicefleet` models). Only the
 * fields Fleet has are sent: `unsupported.ts` has refused the others at Check, so nothing is dropped
 * silently here.
 */
import type { ManagedClusterUpdate as FleetManagedClusterUpdate, UpdateRunStrategy as FleetStrategy } from "@azure/arm-containerservicefleet";
import type { UpdateRunStrategy } from "../../model/strategy";
import type { ManagedClusterUpdate } from "../../model/update";

export function toFleetStrategy(strategy: UpdateRunStrategy): FleetStrategy {
  return {
    stages: strategy.stages.map((stage) => ({
      name: stage.name,
      groups: stage.groups.map((group) => ({ name: group.name })),
      ...(stage.afterStageWaitInSeconds === undefined ? {} : { afterStageWaitInSeconds: stage.afterStageWaitInSeconds }),
    })),
  };
}

/** Fleet's strategy back in ours (the snapshot a run took), e.g. for `strategySnapshot`. */
export function fromFleetStrategy(strategy: FleetStrategy | undefined): UpdateRunStrategy | undefined {
  if (strategy === undefined) return undefined;
  return {
    stages: strategy.stages.map((stage) => ({
      name: stage.name,
      groups: (stage.groups ?? []).map((group) => ({ name: group.name })),
      ...(stage.afterStageWaitInSeconds === undefined || stage.afterStageWaitInSeconds === null ? {} : { afterStageWaitInSeconds: stage.afterStageWaitInSeconds }),
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
