/**
 * Run one compiled bench script (`.build/bench/<script>.js`) in its own Node process and read the
 * JSON it prints: each measurement gets a fresh heap, so its peak RSS is its own and the runs before
 * it leave no garbage behind. The child's stderr (e.g. the run provider's progress lines) is shown
 * only if the child fails.
 */
import { execFile } from "node:child_process";
import path from "node:path";

export function runChild<T>(script: string, args: readonly string[]): Promise<T> {
  const file = path.join(__dirname, `${script}.js`);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--expose-gc", file, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null) {
        reject(new Error(`bench child ${script} ${args.join(" ")} failed: ${error.message}\n${stderr.slice(-4000)}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout) as T);
      } catch (e) {
        reject(new Error(`bench child ${script} printed no JSON: ${(e as Error).message}\n${stdout.slice(0, 2000)}`));
      }
    });
  });
}

/** In a child: the peak resident set size of this process so far, in MB (maxRSS is in KiB). */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** In a child: print the figures for the parent and end. */
export function reply(figures: unknown): void {
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}
