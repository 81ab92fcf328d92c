/**
 * `node .build/bench/writeScenario.js SHAPE MEMBERS FILE [--windows] [--labels]`: write a generated
 * scenario (`bench/scenarioShapes.ts`) as JSON, to time `fleet-update simulate FILE --json` by hand.
 * `--windows` puts maintenance windows on half the members of any shape; `--labels` chooses the same
 * groups by label instead of by name (issue 22).
 */
import { writeFileSync } from "node:fs";
import { SHAPES, generateScenario, type Shape } from "./scenarioShapes";

const [shape, members, file, ...flags] = process.argv.slice(2);
if (!SHAPES.includes(shape as Shape) || members === undefined || !/^\d+$/.test(members) || file === undefined) {
  process.stderr.write(`usage: writeScenario.js ${SHAPES.join("|")} MEMBERS FILE [--windows] [--labels]\n`);
  process.exit(2);
}
writeFileSync(file, JSON.stringify(generateScenario(shape as Shape, Number(members), flags.includes("--windows") ? true : undefined, flags.includes("--labels"))));
