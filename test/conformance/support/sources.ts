/**
 * A fixture directory's SOURCES.md names each stored file with its sha256 (docs/emulator-conformance.md,
 * "Adding a recording"): the files a test replays are the ones the page says were copied.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** The files of `dir` that SOURCES.md does not list in a table row, or lists with another sha256. */
export function filesNotAsSourced(dir: string, files: readonly string[]): string[] {
  const sources = fs.readFileSync(path.join(dir, "SOURCES.md"), "utf8");
  return files.filter((file) => {
    const digest = crypto.createHash("sha256").update(fs.readFileSync(path.join(dir, file))).digest("hex");
    return !sources.split("\n").some((line) => line.startsWith(`| \`${file}\` |`) && line.includes(digest));
  });
}
