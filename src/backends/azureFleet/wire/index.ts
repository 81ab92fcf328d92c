/**
 * The Fleet Manager wire definitions, one module per api-version (`versions.ts` lists them), generated
 * from the official swagger (`scripts/gen-fleet-wire.js`, `test/fixtures/fleet-swagger/`).
 */
import type { FleetWireSchemas } from "./runtime";
import * as v2025_03_01 from "./v2025_03_01";
import * as v2025_04_01_preview from "./v2025_04_01_preview";
import * as v2026_06_01 from "./v2026_06_01";
import * as v2026_06_02_preview from "./v2026_06_02_preview";
import type { FleetApiVersion } from "./versions";

export { v2025_03_01, v2025_04_01_preview, v2026_06_01, v2026_06_02_preview };
export * from "./versions";
export { wireIssues, type FleetWireSchemas, type WireIssue } from "./runtime";

/** Each api-version's schemas. */
export const WIRE_SCHEMAS: Readonly<Record<FleetApiVersion, FleetWireSchemas>> = {
  "2025-03-01": v2025_03_01.schemas,
  "2025-04-01-preview": v2025_04_01_preview.schemas,
  "2026-06-01": v2026_06_01.schemas,
  "2026-06-02-preview": v2026_06_02_preview.schemas,
};
