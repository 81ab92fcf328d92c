/**
 * Engine figures: for each size, the generated fleet (`bench/engineFleet.ts`) on the virtual clock,
 * once with maintenance windows (wall time, peak RSS) and once without (wall time, and the makespan
 * divided by the critical-path lower bound, which is exact only without windows). Every run is its
 * own child process (`bench/engineRun.ts`), one after another, so sizes neither share a heap nor
 * compete for the CPU.
 */
import { runChild } from "./child";
import type { EngineRunFigures } from "./engineRun";
import { GROUPS_PER_STAGE, STAGES, membersPerGroup } from "./engineFleet";
import { round } from "./round";

export interface EngineFigures {
  members: number;
  shape: string;
  withWindows: { wallSeconds: number; peakRssMb: number; rssBeforeFleetMb: number; state: string; makespanHours: number };
  withoutWindows: { wallSeconds: number; peakRssMb: number; state: string; makespanHours: number; lowerBoundHours: number; makespanOverLowerBound: number };
}

export async function engineFigures(sizes: readonly number[]): Promise<EngineFigures[]> {
  const figures: EngineFigures[] = [];
  for (const size of sizes) {
    const windowed = await runChild<EngineRunFigures>("engineRun", [String(size), "windows"]);
    const plain = await runChild<EngineRunFigures>("engineRun", [String(size), "plain"]);
    figures.push({
      members: windowed.members,
      shape: `${STAGES} stages × ${GROUPS_PER_STAGE} groups × ${membersPerGroup(size)} members`,
      withWindows: {
        wallSeconds: round(windowed.wallMs / 1000, 2),
        peakRssMb: round(windowed.peakRssMb, 0),
        rssBeforeFleetMb: round(windowed.rssBeforeFleetMb, 0),
        state: windowed.state,
        makespanHours: round(windowed.makespanMs / 3_600_000, 1),
      },
      withoutWindows: {
        wallSeconds: round(plain.wallMs / 1000, 2),
        peakRssMb: round(plain.peakRssMb, 0),
        state: plain.state,
        makespanHours: round(plain.makespanMs / 3_600_000, 1),
        lowerBoundHours: round(plain.lowerBoundMs / 3_600_000, 1),
        makespanOverLowerBound: round(plain.makespanMs / plain.lowerBoundMs, 5),
      },
    });
  }
  return figures;
}
