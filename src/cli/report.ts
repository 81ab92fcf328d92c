/**
 * `fleet-update report INPUT [-o FILE]`: the HTML report of a run, from `fleet-update simulate --json`
 * or `pulumi stack output --json` ('-' reads stdin; without -o the page goes to stdout). Bad input
 * exits 2 with one line per problem naming the field path.
 */
import { writeFileSync } from "node:fs";
import { generateReport } from "../report";
import { InputError, readInput, reportInputProblem } from "./input";
import type { CommandIO } from "./simulate";
import { printable } from "../runtime/printable";

export interface ReportOptions {
  output?: string;
}

export function reportCommand(file: string, options: ReportOptions, io: CommandIO): number {
  let html: string;
  try {
    html = generateReport(parseJson(readInput(file), file));
  } catch (e) {
    const code = reportInputProblem(e, file, io);
    if (code === undefined) throw e;
    return code;
  }
  if (options.output === undefined) {
    io.stdout(html);
    return 0;
  }
  try {
    writeFileSync(options.output, html);
  } catch (e) {
    io.stderr(`${printable(`${options.output}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)}\n`);
    return 1;
  }
  return 0;
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    // One line, as every other problem: the parser's message may quote the input, newlines and all.
    const reason = (e as Error).message.replace(/\s+/g, " ").slice(0, 160);
    throw new InputError(`${file}: not JSON (${reason})`);
  }
}
