/** Reading the CLI's input files: a path, or `-` for standard input. */
import { readFileSync } from "node:fs";

export class InputError extends Error {}

export function readInput(file: string): string {
  try {
    return readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(code === "ENOENT" ? `${file}: no such file` : `${file}: cannot read (${code ?? (e as Error).message})`);
  }
}
