/** The ARM emulator as Fleet Manager, and `UpdateRun` inputs on `backend.azureFleet` pointing at it. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ArmEmulator } from "../../../src/emulator";
import { FLEET, RESOURCE_GROUP, SUBSCRIPTION } from "../../emulator/fleetHelpers";

export const FLEET_ID = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.ContainerService/fleets/${FLEET}`;

/** Writes the emulator's certificate to a temporary file (the backend takes a CA file). */
export function caFile(emulator: ArmEmulator): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-client-"));
  const file = path.join(dir, "emulator.pem");
  fs.writeFileSync(file, emulator.certificatePem);
  return file;
}

/** `backend.azureFleet` for the emulator, following every `pollSeconds` (compressed: the emulator's clock runs fast). */
export function fleetBackend(emulator: ArmEmulator, pollSeconds = 0.02): Record<string, unknown> {
  return { azureFleet: { fleetId: FLEET_ID, endpoint: emulator.url, trustedCaFile: caFile(emulator), credential: "emulator", pollIntervalSeconds: pollSeconds } };
}

/** Requests the emulator answered for this run (`/updateRuns/<name>` and its actions). */
export function runRequests(emulator: ArmEmulator, runName: string): Array<{ method: string; action: string }> {
  return emulator.requests
    .filter((r) => r.path.includes(`/updateRuns/${runName}`))
    .map((r) => ({ method: r.method, action: r.path.split(`/updateRuns/${runName}`)[1] ?? "" }));
}
