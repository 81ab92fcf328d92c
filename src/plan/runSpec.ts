/** What every run-spec world shares: the run, the controls it already carries, and what the plan assumes about them. */
import type { UpdateRunInputs } from "../spec/runSpec";
import { updateChoiceOf } from "../model/autoUpgrade";
import type { Finding } from "./types";
import type { PlanWorld } from "./world";

export function runSpecPart(inputs: UpdateRunInputs): Pick<PlanWorld, "run" | "controls"> {
  return {
    run: {
      members: inputs.members,
      ...(inputs.strategy === undefined ? {} : { strategy: inputs.strategy }),
      ...(inputs.analysis === undefined ? {} : { analysis: inputs.analysis }),
      ...updateChoiceOf(inputs),
    },
    controls: { skip: inputs.skip, approvals: inputs.approvals },
  };
}

export function runSpecNotes(inputs: UpdateRunInputs): Finding[] {
  if (inputs.state === "Running") return [];
  return [{ severity: "info", code: "PLAN_ASSUMPTION", message: `The run's state is ${inputs.state}: the plan shows the run as it goes once it is Running.` }];
}
