/** ARM's `systemData` on the emulator's Fleet resources: who created and last changed them, and when (simulated instants). */
import { isoInstant } from "../../model/instants";

/** Who the emulator says created and changed its Fleet resources. */
const EMULATOR_IDENTITY = "fleet-update-emulator";

export function systemData(createdAt: number, modifiedAt: number): Record<string, string> {
  return {
    createdBy: EMULATOR_IDENTITY,
    createdByType: "Application",
    createdAt: isoInstant(createdAt),
    lastModifiedBy: EMULATOR_IDENTITY,
    lastModifiedByType: "Application",
    lastModifiedAt: isoInstant(modifiedAt),
  };
}
