/**
 * The Fleet Manager api-versions the emulator serves (`src/backends/azureFleet/wire/versions.ts`:
 * 2025-03-01, 2025-04-01-preview, 2026-06-01, 2026-06-02-preview), each with exactly its own fields.
 * Any other api-version on a Fleet route, or one a resource type does not have (gates before
 * 2025-04-01-preview), is answered as ARM answers it: 400 `NoRegisteredProviderFound`, listing the
 * supported ones.
 */
import { FLEET_API_FEATURES, isFleetApiVersion, supportedApiVersions, WIRE_SCHEMAS, type FleetApiFeatures, type FleetApiVersion, type FleetWireSchemas } from "../../backends/azureFleet/wire/index";
import { ArmError } from "../core/armErrors";
import type { ArmRequest } from "../ports";

export type FleetResourceType = Parameters<typeof supportedApiVersions>[0];

/** What a Fleet route answers in: the request's api-version, its features and its schemas. */
export interface FleetApi {
  version: FleetApiVersion;
  features: FleetApiFeatures;
  schemas: FleetWireSchemas;
}

/** The request's api-version, if `type` has it; else ARM's 400 `NoRegisteredProviderFound`. */
export function fleetApi(request: ArmRequest, type: FleetResourceType): FleetApi {
  const version = request.query.get("api-version") ?? "";
  const supported = supportedApiVersions(type);
  if (!isFleetApiVersion(version) || !supported.includes(version)) {
    throw new ArmError(
      400,
      "NoRegisteredProviderFound",
      `No registered resource provider found for API version '${version}' and type '${type}'. The supported api-versions are '${supported.join(", ")}'.`,
    );
  }
  return { version, features: FLEET_API_FEATURES[version], schemas: WIRE_SCHEMAS[version] };
}
