/**
 * A Stryker ignorer (https://stryker-mutator.io/docs/stryker-js/configuration/#ignorers) that reads the
 * list of equivalent mutants from `stryker.config.mjs` (`equivalentMutants`): every mutant inside a
 * node whose source text is exactly `code` (and, when `within` is given, that lies inside a node whose
 * source starts with `within`), in the file `file`, is reported Ignored with `reason`. An entry that
 * matches nothing in a file being mutated (the code changed) is named at the end of the run, so the
 * list cannot silently go stale.
 */
import { PluginKind, declareValuePlugin } from "@stryker-mutator/api/plugin";
import { equivalentMutants } from "../stryker.config.mjs";

const matched = new Set();
const seenFiles = new Set();

process.on("exit", () => {
  for (const e of equivalentMutants) {
    if (seenFiles.has(e.file) && !matched.has(e)) console.warn(`stryker.config.mjs: an equivalent-mutant entry matches nothing (did the code change?): ${e.file}: ${e.code}`);
  }
});

function inside(path, source) {
  for (let p = path.parentPath; p !== null; p = p.parentPath) if (p.getSource().startsWith(source)) return true;
  return false;
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, "equivalent", {
    shouldIgnore(path) {
      const file = path.hub?.file?.opts?.filename?.replaceAll("\\", "/");
      if (file === undefined) return undefined;
      for (const entry of equivalentMutants) {
        if (!file.endsWith(`/${entry.file}`)) continue;
        seenFiles.add(entry.file);
        if (path.getSource() !== entry.code || (entry.within !== undefined && !inside(path, entry.within))) continue;
        matched.add(entry);
        return `Equivalent: ${entry.reason}`;
      }
      return undefined;
    },
  }),
];
