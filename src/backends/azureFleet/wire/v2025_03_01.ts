/**
 * Fleet Manager api-version 2025-03-01: the update-run, update-strategy and gate definitions of its
 * `fleets.json` as zod schemas (`schemas.ts`, built from this version's entry in `versions.ts`),
 * checked field by field against the official swagger by `test/azureFleet/wireSwagger.test.ts`.
 */
import type { z } from "zod";
import { fleetWireSchemas } from "./schemas";
import { FLEET_API_FEATURES } from "./versions";

export const API_VERSION = "2025-03-01";
export const schemas = fleetWireSchemas(FLEET_API_FEATURES[API_VERSION]);

export type UpdateRun = z.infer<typeof schemas.UpdateRun>;
export type UpdateRunStatus = z.infer<typeof schemas.UpdateRunStatus>;
export type FleetUpdateStrategy = z.infer<typeof schemas.FleetUpdateStrategy>;
export type SkipProperties = z.infer<typeof schemas.SkipProperties>;
export type Gate = z.infer<typeof schemas.Gate>;
