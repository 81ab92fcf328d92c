/**
 * Each api-version's generated wire module has that version's exact static types: checked by
 * `npm run typecheck` (a field a version lacks is a type error), not run by vitest.
 */
import type { v2025_03_01, v2026_06_01, v2026_06_02_preview } from "../../src/backends/azureFleet/wire";
const a: v2026_06_01.UpdateStage = { name: "s", maxConcurrency: "2" };
// @ts-expect-error maxAllowedFailures is not at 2026-06-01
const b: v2026_06_01.UpdateStage = { name: "s", maxAllowedFailures: "2" };
const c: v2026_06_02_preview.UpdateStage = { name: "s", maxAllowedFailures: "2", maxConcurrency: "1" };
// @ts-expect-error no gates at 2025-03-01
const d: v2025_03_01.UpdateStage = { name: "s", beforeGates: [] };
// @ts-expect-error ScheduledStart is not a GateType at 2026-06-01
const e: v2026_06_01.GateConfiguration = { type: "ScheduledStart" };
export { a, b, c, d, e };
