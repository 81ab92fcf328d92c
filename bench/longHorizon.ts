/**
 * `npm run bench:long-horizon`: wall time of a weeks-long scenario (test/scenarios/long-horizon-windows.yaml:
 * weekly and monthly windows, a member waiting 20 days, a one-day soak) through the ARM emulator, whose
 * clock jumps over idle time (`CompressibleClock`), beside the same scenario in process; and whether
 * both end the same (every state and every cluster's versions). Prints one JSON object.
 */
import { readFileSync } from "node:fs";
import { parseScenario } from "../src/simulation/scenario";
import { simulateScenario } from "../src/simulation/simulateScenario";
import { simulateScenarioViaArm } from "../src/simulation/viaArmEmulator";
import { LONG_HORIZON_FILE, ending } from "./longHorizonScenario";

const FILE = LONG_HORIZON_FILE;


async function main(): Promise<void> {
  const scenario = parseScenario(readFileSync(FILE, "utf8"));
  let began = performance.now();
  const inProcess = await simulateScenario(scenario);
  const inProcessMs = performance.now() - began;
  began = performance.now();
  const viaArm = await simulateScenarioViaArm(scenario);
  const viaArmMs = performance.now() - began;
  const { GET, PUT, POST } = viaArm.requests;
  process.stdout.write(
    `${JSON.stringify(
      {
        scenario: "test/scenarios/long-horizon-windows.yaml",
        simulatedDays: Math.round((Date.parse(viaArm.result.status.status.completedTime ?? scenario.start) - Date.parse(scenario.start)) / 864e5 * 10) / 10,
        inProcessMs: Math.round(inProcessMs),
        viaArmEmulatorMs: Math.round(viaArmMs),
        targetMs: 30_000,
        viaArmState: viaArm.result.status.status.state,
        endsAsInProcess: ending(inProcess) === ending(viaArm),
        requests: GET + PUT + POST,
      },
      null,
      2,
    )}\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
