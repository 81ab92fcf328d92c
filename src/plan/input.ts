/**
 * What `fleet-update plan` reads: a scenario (docs/rules.md §7: the fleet is in the file), or a run spec with
 * its backend in the file — the fields of `UpdateRun`'s inputs (`backend`, `members`, `strategy`,
 * `managedClusterUpdate`, and optionally `skip`, `approvals`; `name` optional) — whose clusters are
 * read from that backend. YAML or JSON. A file with `backend` is such a run spec; any other is a
 * scenario: one run (docs/rules.md §7), or chained runs (`runs:`, each planned in turn: `fromChain.ts`).
 * (`fleet-update run`'s spec, whose backend is a flag, is read by `src/cli/runSpec.ts`.)
 */
import { ValidationError } from "../model/issues";
import { parseYamlMapping } from "../model/textInput";
import { validateScenario, type Scenario } from "../simulation/scenario";
import { validateChainScenario, type ChainScenario } from "../simulation/chain";
import type { UpdateRunInputs } from "../spec/runSpec";
import { parseRunInputs } from "../drivers/runInputs";

export type PlanSource = { kind: "scenario"; scenario: Scenario } | { kind: "chain"; chain: ChainScenario } | { kind: "runSpec"; inputs: UpdateRunInputs };

/** The run's name when a run spec gives none (it names nothing outside the plan). */
export const RUN_SPEC_DEFAULT_NAME = "plan";

/** Parse and validate; throws `ValidationError` naming every problem by field path. */
export function parsePlanInput(text: string): PlanSource {
  const record = parseYamlMapping(text, "a plan input is a scenario (start, regions, members, managedClusterUpdate) or a run spec (backend, members, managedClusterUpdate)");
  if (!("backend" in record)) {
    if (!("start" in record) && !("regions" in record) && "managedClusterUpdate" in record) {
      throw new ValidationError([{ path: "backend", message: "a run spec needs its backend: --backend simulator:FLEET_FILE or azure, or a backend field" }]);
    }
    // Issue 19: a chained scenario, as `simulate` reads it (`parseAnyScenario`).
    if ("runs" in record) return { kind: "chain", chain: validateChainScenario(record) };
    return { kind: "scenario", scenario: validateScenario(record) };
  }
  // `name` as in `fleet-update run`'s spec; the provider's field is `runName`.
  const { name, ...rest } = record;
  return { kind: "runSpec", inputs: parseRunInputs({ runName: name ?? RUN_SPEC_DEFAULT_NAME, ...rest }) };
}
