/**
 * The members' clusters read through ARM without driving anything: what a plan of a run on Azure
 * reads (`PlanView` `reads: "clusters"`), for the engine driver on ARM and for the Fleet Manager
 * driver alike (Fleet's members are AKS clusters). Loaded only for a run on Azure (issue 13).
 */
import fs from "node:fs";
import path from "node:path";
import { AzureBackend } from "../backends/azure/azureBackend";
import { credentialFor } from "../backends/azure/credentials";
import { ValidationError } from "../model/issues";
import { customImageVersions, type ManagedClusterUpdate } from "../model/update";
import { RealClock } from "../runtime/realClock";
import type { AzureBackendConfig } from "../spec/runSpec";

/**
 * The Azure backend a plan reads the members' clusters through (read-only: nothing is started). A CA
 * file that cannot be read is a problem of the field `<field>.trustedCaFile`.
 */
export function readOnlyAzureBackend(config: Pick<AzureBackendConfig, "credential" | "endpoint" | "trustedCaFile">, baseDir: string, update: ManagedClusterUpdate | undefined, field: string): AzureBackend {
  return new AzureBackend({
    credential: credentialFor(config.credential),
    clock: new RealClock(),
    customNodeImageVersions: customImageVersions(update),
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
    ...(config.trustedCaFile === undefined ? {} : { trustedCaPem: readCaFile(path.resolve(baseDir, config.trustedCaFile), `${field}.trustedCaFile`) }),
  });
}

function readCaFile(file: string, field: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new ValidationError([{ path: field, message: `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` }]);
  }
}
