/** The benchmark's one table (and the same figures as JSON): every figure we track, with its target. */
import type { ArmFigures } from "./arm";
import type { EngineFigures } from "./engine";
import type { FleetFigures } from "./fleet";
import type { ProviderFigures } from "./provider";
import { SHAPE_LABELS, type LabelSelectionFigures, type SimulateFigures } from "./simulate";
import type { TestUnitFigures } from "./testUnit";

export interface BenchFigures {
  engine: EngineFigures[];
  simulate: SimulateFigures[];
  /** Issue 22: label-selected groups against name-selected ones. */
  labels: LabelSelectionFigures;
  provider: ProviderFigures;
  arm: ArmFigures;
  fleet: FleetFigures;
  /** Issue 32: `npm run test:unit`. */
  testUnit: TestUnitFigures;
  targets: typeof TARGETS;
}

/** What the figures must stay within (docs/bench.md). */
export const TARGETS = {
  engine10kWallSeconds: 5,
  engine10kPeakRssMb: 400,
  makespanOverLowerBound: 1.001,
  providerBytes: 2048,
  armWallSeconds: 60,
  simulate10kWallSeconds: 2,
  simulate100kWallSeconds: 10,
  simulate100kPeakRssMb: 1536,
  fleetPacedRequestsPerHour: 60,
  testUnitWallSeconds: 60,
} as const;

/** `perMember`: wall time divided by the members, flat when the cost grows linearly. */
type Row = [figure: string, measured: string, perMember: string, target: string];

const perMember = (seconds: number, members: number) => `${Math.round((seconds * 1e6) / members)} µs`;

const count = (n: number) => n.toLocaleString("en-US");

function engineRows(e: EngineFigures): Row[] {
  const size = `engine, ${count(e.members)} members`;
  const tracked = e.members === 10_000;
  const w = e.withWindows;
  const p = e.withoutWindows;
  return [
    [`${size}: wall time`, `${w.wallSeconds.toFixed(2)} s (${p.wallSeconds.toFixed(2)} s without windows)`, `${perMember(w.wallSeconds, e.members)} (${perMember(p.wallSeconds, e.members)})`, tracked ? `< ${TARGETS.engine10kWallSeconds} s` : ""],
    [`${size}: peak RSS`, `${w.peakRssMb} MB (${w.rssBeforeFleetMb} MB before the fleet is built)`, "", tracked ? `< ${TARGETS.engine10kPeakRssMb} MB` : ""],
    [`${size}: makespan ÷ lower bound`, `${p.makespanOverLowerBound.toFixed(5)} (${p.makespanHours} h / ${p.lowerBoundHours} h)`, "", `≤ ${TARGETS.makespanOverLowerBound}`],
  ];
}

const COMMAND_LABELS: Record<SimulateFigures["command"], string> = {
  simulate: "`simulate --json`",
  plan: "`plan --json`",
  report: "`report` of simulate's JSON",
};

function simulateRow(f: SimulateFigures): Row {
  const target =
    f.command !== "simulate"
      ? "same time class as simulate"
      : f.members === 10_000
        ? `< ${TARGETS.simulate10kWallSeconds} s`
        : f.members === 100_000
          ? `< ${TARGETS.simulate100kWallSeconds} s, < ${count(TARGETS.simulate100kPeakRssMb)} MB`
          : "";
  const b = f.baseline;
  const baseline = b === undefined ? "" : `; baseline ${b.wallSeconds.toFixed(2)} s (${b.wallSecondsRange[0].toFixed(2)}–${b.wallSecondsRange[1].toFixed(2)}), ${count(b.peakRssMb)} MB`;
  return [`${COMMAND_LABELS[f.command]}, ${SHAPE_LABELS[f.shape]}, ${count(f.members)} members`, `${f.wallSeconds.toFixed(2)} s (${f.wallSecondsRange[0].toFixed(2)}–${f.wallSecondsRange[1].toFixed(2)}), peak RSS ${count(f.peakRssMb)} MB${baseline}`, `${f.microsecondsPerMember} µs`, target];
}

function rows(f: BenchFigures): Row[] {
  const { provider: p, arm: a } = f;
  return [
    ...f.engine.flatMap(engineRows),
    ...f.simulate.map(simulateRow),
    [
      `\`simulate --json\`, ${SHAPE_LABELS.fixed}, ${count(f.labels.members)} members: groups by label ÷ by name`,
      `${f.labels.ratio.toFixed(2)} (${f.labels.byLabelSeconds.toFixed(2)} s / ${f.labels.byNameSeconds.toFixed(2)} s); ${f.labels.sameOutput ? "same output" : "OUTPUT DIFFERS"}`,
      "",
      "≤ 1.2",
    ],
    ["`__provider` size (UpdateRun / UpdateStrategy)", `${count(p.updateRunProviderBytes)} / ${count(p.updateStrategyProviderBytes)} bytes`, "", `≤ ${count(TARGETS.providerBytes)} bytes`],
    [`Check of a ${count(p.checkMembers)}-member run: simulator (validation + plan) / Azure (validation)`, `${p.simulatorCheckMs} ms / ${p.azureCheckMs} ms`, "", ""],
    [`status output of a completed ${count(p.runMembers)}-member run, per member`, `${count(p.statusBytesPerMember)} bytes (all outputs: ${count(p.outputsBytesPerMember)} bytes)`, "", ""],
    [`create of that run through the provider, simulator at time scale 10⁶: wall time`, `${p.runWallSeconds.toFixed(1)} s`, "", ""],
    [`ARM run: ${a.members} members against the emulator, throttling on`, `${a.upgraded}/${a.members} upgraded, ${a.state}, ${a.makespanMinutes} simulated min at ${a.msPerSimulatedMinute} ms/min`, "", "Completed"],
    ["ARM requests per upgraded member", `${a.requestsPerUpgradedMember} (${count(a.requests.GET)} GET / ${count(a.requests.PUT)} PUT / ${count(a.requests.POST)} POST)`, "", ""],
    ["ARM 429s seen (all retried by the SDK)", `${a.throttled}`, "", ""],
    ["ARM run wall time", `${(a.wallMs / 1000).toFixed(1)} s`, "", `< ${TARGETS.armWallSeconds} s`],
    ["ARM requests per simulated hour of the run (direct ARM)", `${Math.round((a.requests.GET + a.requests.PUT + a.requests.POST) / (a.makespanMinutes / 60))}`, "", ""],
    ...fleetRows(f.fleet),
    [
      `\`npm run test:unit\`: ${count(f.testUnit.files)} files, ${count(f.testUnit.tests)} tests`,
      `${f.testUnit.wallSeconds.toFixed(1)} s wall${f.testUnit.failed > 0 ? `; ${f.testUnit.failed} FAILED` : ""}`,
      "",
      `< ${TARGETS.testUnitWallSeconds} s`,
    ],
  ];
}

/** Issue 12: the same fleet on Fleet Manager, beside the direct-ARM figures. */
function fleetRows(fl: FleetFigures): Row[] {
  return [
    [`Fleet Manager run: ${fl.members} members (no maxConcurrency), throttling on`, `${fl.upgraded}/${fl.members} upgraded, ${fl.state}, ${fl.makespanMinutes} simulated min at ${fl.msPerSimulatedMinute} ms/min`, "", "Completed"],
    [`Fleet Manager: client requests per hour while following (a GET every ${fl.pollSeconds} s)`, `${fl.requestsPerHour} (${count(fl.requests.GET)} GET / ${count(fl.requests.PUT)} PUT / ${count(fl.requests.POST)} POST / ${count(fl.requests.PATCH)} PATCH; ${fl.requests.throttled} × 429)`, "", ""],
    ["Fleet Manager: client requests per upgraded member", `${fl.requestsPerUpgradedMember}`, "", ""],
    ["Fleet Manager run wall time", `${(fl.wallMs / 1000).toFixed(1)} s`, "", ""],
    [
      `Fleet Manager at ${fl.paced.apiVersion}: ${fl.paced.members} members, maxConcurrency "${fl.paced.maxConcurrency}": client requests per hour while following (a GET every ${fl.paced.pollSeconds} s)`,
      `${fl.paced.requestsPerHour} (${count(fl.paced.requests.GET)} GET / ${count(fl.paced.requests.PUT)} PUT / ${count(fl.paced.requests.POST)} POST / ${count(fl.paced.requests.PATCH)} PATCH; ${fl.paced.requests.throttled} × 429); ${fl.paced.upgraded}/${fl.paced.members} upgraded, ${fl.paced.state}, ${(fl.paced.wallMs / 1000).toFixed(1)} s wall`,
      "",
      `≤ ${TARGETS.fleetPacedRequestsPerHour}`,
    ],
    [
      `Fleet Manager at ${fl.paced.apiVersion}, the same run: makespan ÷ the in-process engine's`,
      `${fl.paced.makespanRatio} (${fl.paced.makespanMinutes} ÷ ${fl.paced.inProcessMakespanMinutes} simulated min)`,
      "",
      "",
    ],
    [
      `simulate --via fleet-emulator, ${fl.longHorizon.simulatedDays} days of weekly and monthly windows`,
      `${(fl.longHorizon.wallMs / 1000).toFixed(2)} s (in process ${fl.longHorizon.inProcessMs} ms); ${fl.longHorizon.endsAsInProcess ? "ends as in process" : "ENDS OTHERWISE THAN IN PROCESS"}`,
      "",
      "< 10 s",
    ],
  ];
}

/** A Markdown table, so the printed table can be pasted into docs/bench.md as it is. */
export function formatTable(figures: BenchFigures): string {
  const all: Row[] = [["figure", "measured", "per member", "target"], ...rows(figures)];
  const widths = [0, 1, 2, 3].map((c) => Math.max(...all.map((r) => r[c as 0 | 1 | 2 | 3].length)));
  const line = (r: readonly string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c] as number)).join(" | ")} |`;
  const [header, ...body] = all;
  return [line(header as Row), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}

export function formatJson(figures: BenchFigures): string {
  return JSON.stringify(figures, null, 2);
}
