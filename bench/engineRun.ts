/**
 * Child process of the engine bench (`bench/engine.ts`): `engineRun.js MEMBERS windows|plain` runs
 * the engine once on the generated fleet (`bench/engineFleet.ts`) on the virtual clock, against the
 * in-process simulated fleet, and prints its figures as JSON. One size per process, so the peak RSS
 * is this size's alone.
 */
import { SimulatedFleet } from "../src/backends/simulator";
import { VirtualClock } from "../src/engine/clock";
import { drive } from "../src/engine/drive";
import { UpdateRunEngine } from "../src/engine/engine";
import { peakRssMb, reply } from "./child";
import { START, generateFleet, membersPerGroup } from "./engineFleet";

export interface EngineRunFigures {
  members: number;
  withWindows: boolean;
  /** Engine start to settled, on the virtual clock (fleet generation excluded). */
  wallMs: number;
  /** Peak RSS of this process: Node itself, the loaded modules, the generated fleet and the run. */
  peakRssMb: number;
  /** RSS of this process before the fleet was generated (Node and the loaded modules). */
  rssBeforeFleetMb: number;
  state: string;
  makespanMs: number;
  lowerBoundMs: number;
}

async function main(): Promise<void> {
  const [total, kind] = process.argv.slice(2);
  if (total === undefined || !/^\d+$/.test(total) || (kind !== "windows" && kind !== "plain")) throw new Error("usage: engineRun.js MEMBERS windows|plain");
  const rssBeforeFleetMb = process.memoryUsage().rss / 1024 / 1024;
  const withWindows = kind === "windows";
  const generated = generateFleet(membersPerGroup(Number(total)), withWindows);
  const clock = new VirtualClock(START);
  const backend = new SimulatedFleet(generated.fleet, clock);
  const engine = UpdateRunEngine.create(
    { name: "bench", members: generated.fleet.members, strategy: generated.strategy, managedClusterUpdate: { upgrade: { type: "Full", kubernetesVersion: "1.32.0" }, nodeImageSelection: { type: "Consistent" } } },
    backend,
  );
  // Leave the garbage of building the fleet out of the run's own allocations.
  global.gc?.();
  const began = performance.now();
  engine.start(START);
  await drive(engine, clock, { until: START + 365 * 86_400_000 });
  const wallMs = performance.now() - began;
  const status = engine.status();
  const end = Date.parse(status.status.completedTime ?? new Date(clock.now()).toISOString());
  const figures: EngineRunFigures = {
    members: generated.fleet.members.length,
    withWindows,
    wallMs,
    peakRssMb: peakRssMb(),
    rssBeforeFleetMb,
    state: status.status.state,
    makespanMs: end - START,
    lowerBoundMs: generated.lowerBoundMs,
  };
  reply(figures);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
