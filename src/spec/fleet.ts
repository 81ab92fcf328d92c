/**
 * What a run spec says about Azure Kubernetes Fleet Manager (`backend.azureFleet`): the fleet's ARM id
 * and the api-versions the client may be asked to speak. The spec's words only; what Fleet does with
 * a run is the Fleet client's (`src/backends/azureFleet/`) and its driver's (`src/drivers/`).
 */
import { z } from "zod";
import { orRequired } from "../model/values";

/**
 * `/subscriptions/{guid}/resourceGroups/{rg}/providers/Microsoft.ContainerService/fleets/{name}`.
 * ARM treats the fixed segments case-insensitively, so do we.
 */
export const FLEET_ID_PATTERN =
  /^\/subscriptions\/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\/resourceGroups\/[-\w._()]{1,90}\/providers\/Microsoft\.ContainerService\/fleets\/[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/i;

export const FleetIdSchema = z
  .string({ error: orRequired("must be a string") })
  .regex(FLEET_ID_PATTERN, "must be an ARM fleet id: /subscriptions/<guid>/resourceGroups/<group>/providers/Microsoft.ContainerService/fleets/<name>");

/**
 * The api-versions the client speaks: 2026-06-01 (GA, the default: approval gates, `maxConcurrency`),
 * 2026-06-02-preview (also `maxAllowedFailures`, `failureCount`, `memberSelector`, ScheduledStart gates), and 2025-04-01-preview, the first
 * with approval gates, which the client spoke before (legacy: kept so that a program pinned to it
 * goes on working; it has neither limit). Every request of one client uses one version, so a run's
 * body, its controls and its gates are all read in that version's terms. Each is one of the versions
 * whose wire types the client has (`src/backends/azureFleet/wire.ts` checks it).
 */
export const CLIENT_FLEET_API_VERSIONS = ["2026-06-01", "2026-06-02-preview", "2025-04-01-preview"] as const;
export type ClientFleetApiVersion = (typeof CLIENT_FLEET_API_VERSIONS)[number];

export function isClientFleetApiVersion(value: string): value is ClientFleetApiVersion {
  return (CLIENT_FLEET_API_VERSIONS as readonly string[]).includes(value);
}

/** Where the api-version in use was chosen, as the refusals name it. */
export const API_VERSION_FIELD = "backend.azureFleet.apiVersion";

export const API_VERSION_WORDS = `must be ${CLIENT_FLEET_API_VERSIONS[0]} (GA, the default), ${CLIENT_FLEET_API_VERSIONS[1]} or ${CLIENT_FLEET_API_VERSIONS[2]} (legacy)`;
