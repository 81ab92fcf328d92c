/**
 * What refused a command on a run (`src/drivers/refusal.ts`), told the user: one line per problem on
 * stderr, exit code 2 (`fleet-update run`, `gate`). Anything else is a bug, or a failure of the world,
 * and is thrown.
 */
import { refusalOf, type RefusalLine } from "../drivers/refusal";
import type { CommandIO } from "./commandIO";
import { EXIT_INVALID_INPUT, InputError, printable } from "./input";

export function refused(e: unknown, file: string, io: CommandIO): number {
  if (e instanceof InputError) {
    io.stderr(`${printable(e.message)}\n`);
    return EXIT_INVALID_INPUT;
  }
  const refusal = refusalOf(e);
  if (refusal === undefined) throw e;
  for (const line of refusal.lines) io.stderr(`${printable(lineSource(line, file))}${printable(line.message)}\n`);
  return EXIT_INVALID_INPUT;
}

/**
 * Where a line points: a flag as typed (`--backend: `), a spec problem by the file and field path
 * (`rollout.yaml: members[0].name: `), the spec as a whole by the file; nothing for a line that names
 * its own subject. The fleet file's problems come back under the provider's field
 * `backend.simulator.fleetFile`, which the user gave as `--backend`.
 */
function lineSource({ field }: RefusalLine, file: string): string {
  if (field === undefined) return "";
  if (field.startsWith("--")) return `${field}: `;
  if (field === "backend.simulator.fleetFile") return "--backend: ";
  return field === "" ? `${file}: ` : `${file}: ${field}: `;
}
