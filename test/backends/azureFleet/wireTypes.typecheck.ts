/**
 * Each api-version's generated wire module has that version's exact static types: checked by
 * `npm run typecheck` (a field a version lacks is a type error), not run by vitest.
 */
import type { v2025_03_01, v2026_06_01, v2026_06_02_preview } from "../../../src/backends/azureFleet/wire";
const a: v2026_06_01.UpdateStage = { name: "s", maxConcurrency: "2" };
// @ts-expect-error maxAllowedFailures is not at 2026-06-01
const b: v2026_06_01.UpdateStage = { name: "s", maxAllowedFailures: "2" };
const c: v2026_06_02_preview.UpdateStage = { name: "s", maxAllowedFailures: "2", maxConcurrency: "1" };
// @ts-expect-error no gates at 2025-03-01
const d: v2025_03_01.UpdateStage = { name: "s", beforeGates: [] };
// @ts-expect-error ScheduledStart is not a GateType at 2026-06-01
const e: v2026_06_01.GateConfiguration = { type: "ScheduledStart" };
export { a, b, c, d, e };

// The client's own wire types (`wire.ts`: what it reads and writes at CLIENT_FLEET_API_VERSIONS) name only
// fields of the newest it speaks, 2026-06-02-preview (a field older versions lack is sent only at a
// version that has it: test/backends/azureFleet/wireBodies.test.ts); a gate's target has one shape at every version.
import type * as client from "../../../src/backends/azureFleet/wire";
import type { v2025_04_01_preview as legacy, v2026_06_02_preview as speaks } from "../../../src/backends/azureFleet/wire";
type Only<A, B> = Exclude<keyof A, keyof B> extends never ? true : false;
type Item<T> = T extends ReadonlyArray<infer I> ? I : never;
type Props<T> = NonNullable<T extends { properties?: infer P } ? P : never>;
export const clientNamesOnlyItsVersionsFields: Array<true> = [
  true satisfies Only<client.WireUpdateGroup, speaks.UpdateGroup>,
  true satisfies Only<client.WireUpdateStage, speaks.UpdateStage>,
  true satisfies Only<client.WireStrategy, speaks.UpdateRunStrategy>,
  true satisfies Only<client.WireGateConfiguration, speaks.GateConfiguration>,
  true satisfies Only<client.WireManagedClusterUpdate, speaks.ManagedClusterUpdate>,
  true satisfies Only<client.WireUpdateStatus, speaks.UpdateStatus>,
  true satisfies Only<client.WireGateStatus, speaks.UpdateRunGateStatus>,
  true satisfies Only<client.WireMemberStatus, speaks.MemberUpdateStatus>,
  true satisfies Only<client.WireGroupStatus, speaks.UpdateGroupStatus>,
  true satisfies Only<client.WireStageStatus, speaks.UpdateStageStatus>,
  true satisfies Only<client.WireRunStatus, speaks.UpdateRunStatus>,
  true satisfies Only<client.WireUpdateRun, speaks.UpdateRun>,
  true satisfies Only<Props<client.WireUpdateRun>, speaks.UpdateRunProperties>,
  true satisfies Only<client.WireUpdateStrategy, speaks.FleetUpdateStrategy>,
  true satisfies Only<client.WireGate, speaks.Gate>,
  true satisfies Only<Props<client.WireGate>, speaks.GateProperties>,
  true satisfies Only<NonNullable<Props<client.WireGate>["target"]>, speaks.GateTarget>,
  true satisfies Only<NonNullable<Props<client.WireGate>["target"]>, legacy.GateTarget>,
  true satisfies Only<client.WireGateTargetRun, speaks.UpdateRunGateTargetProperties>,
  true satisfies Only<client.WireGateTargetRun, legacy.UpdateRunGateTargetProperties>,
  true satisfies Only<Props<client.WireFleetMember>, legacy.FleetMemberProperties>,
  true satisfies Only<Item<NonNullable<client.WireStageStatus["groups"]>>, speaks.UpdateGroupStatus>,
];
