/**
 * A Stryker ignorer (https://stryker-mutator.io/docs/stryker-js/configuration/#ignorers) that reads the
 * list of equivalent mutants from `stryker.config.mjs` (`equivalentMutants`): a mutant inside a node
 * whose source is exactly `code`, in a file ending with `file`, is reported Ignored with `reason`.
 * An entry that matches nothing (the code changed) is named at the end of the run, so the list never
 * silently goes stale.
 */
import { PluginKind, declareValuePlugin } from "@stryker-mutator/api/plugin";
import { equivalentMutants } from "../stryker.config.mjs";

const matched = new Set();
const seenFiles = new Set();

process.on("exit", () => {
  const stale = equivalentMutants.filter((e) => seenFiles.has(e.file) && !matched.has(e));
  for (const e of stale) console.warn(`stryker.config.mjs: equivalent mutant entry matches nothing (the code changed?): ${e.file}: ${e.code}`);
});

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, "equivalent", {
    shouldIgnore(path) {
      const file = path.hub?.file?.opts?.filename?.replaceAll("\\", "/");
      if (file === undefined) return undefined;
      for (const entry of equivalentMutants) {
        if (!file.endsWith(`/${entry.file}`)) continue;
        seenFiles.add(entry.file);
        if (path.getSource() !== entry.code) continue;
        matched.add(entry);
        return `Equivalent: ${entry.reason}`;
      }
      return undefined;
    },
  }),
];
