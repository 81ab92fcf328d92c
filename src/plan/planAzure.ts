/** Plans of run specs on the Azure backends: direct ARM, and Fleet Manager (issue 12). Read-only. */
import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { customImageVersions } from "../model/update";
import { AzureBackend } from "../backends/azure/azureBackend";
import { credentialFor } from "../backends/azure/credentials";
import { ValidationError } from "../model/common";
import { RealClock } from "../runtime/realClock";
import type { AzureBackendSchema, UpdateRunInputs } from "../spec/runSpec";
import { checkMembersAgainstFleet } from "../backends/azureFleet/members";
import { openFleetClient } from "../drivers/openFleet";
import { buildPlan } from "./buildPlan";
import { worldFromBackend } from "./fromBackend";
import type { PlanSourceOptions } from "./types";
import type { Plan } from "./types";

/** A run on direct ARM: its members' clusters are read through the Azure backend, and the run predicted. */
export async function planAzureRun(inputs: UpdateRunInputs, options: PlanSourceOptions): Promise<Plan> {
  const backend = azureBackend(inputs.backend.azure as z.infer<typeof AzureBackendSchema>, options.baseDir, customImageVersions(inputs.managedClusterUpdate));
  const horizon = options.horizonDays === undefined ? {} : { horizonDays: options.horizonDays };
  return buildPlan(await worldFromBackend(backend, inputs, { now: options.now, ...horizon, ...(options.upgradeMinutes === undefined ? {} : { upgradeMinutes: options.upgradeMinutes }) }));
}

/**
 * Issue 12: a run on Fleet Manager is planned on the client (read-only, so safe): the fleet's members
 * are read and checked as the run's Check does, then their clusters are read through the Azure backend
 * with the same endpoint and credentials, and the run is predicted as on direct ARM. Fleet runs it
 * with the same stage and group order, so the schedule is Fleet's as far as docs/rules.md §3 decides it.
 */
export async function planFleetRun(inputs: UpdateRunInputs, options: PlanSourceOptions): Promise<Plan> {
  const fleet = inputs.backend.azureFleet as NonNullable<UpdateRunInputs["backend"]["azureFleet"]>;
  const client = openFleetClient(fleet, options.baseDir);
  const checked = checkMembersAgainstFleet(inputs.members, await client.listMembers(), client.fleet.fleetName, inputs.strategy);
  if (checked.issues.length > 0) throw new ValidationError(checked.issues);
  const { fleetId: _fleetId, pollIntervalSeconds: _poll, ...azure } = fleet;
  return planAzureRun({ ...inputs, members: checked.members, backend: { azure } }, options);
}

/** The Azure backend as `UpdateRun` opens it; the plan only reads through it. */
function azureBackend(config: z.infer<typeof AzureBackendSchema>, baseDir: string, customNodeImageVersions: readonly string[]): AzureBackend {
  return new AzureBackend({
    credential: credentialFor(config.credential),
    clock: new RealClock(),
    customNodeImageVersions,
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
    ...(config.trustedCaFile === undefined ? {} : { trustedCaPem: readCaFile(path.resolve(baseDir, config.trustedCaFile)) }),
  });
}

function readCaFile(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new ValidationError([{ path: "backend.azure.trustedCaFile", message: `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` }]);
  }
}
