/**
 * One colour per state, used by the bars, the state column, the legend and the summary table alike,
 * so a reader matches them by eye (and the browser test matches them by computed colour).
 */
import { UPDATE_STATES, type UpdateState } from "../model/status";

export const STATE_COLOURS: Readonly<Record<UpdateState, string>> = {
  NotStarted: "#d0d5dc",
  Running: "#2f7fd8",
  Pending: "#e3a21a",
  Stopping: "#a66bd3",
  Stopped: "#596170",
  Skipped: "#97a6b8",
  Failed: "#d63a3a",
  Completed: "#2e9e5b",
};

export const WAIT_COLOUR = "#7e6bd6";
export const GATE_COLOUR = "#1f2328";

/** The CSS class of a state's colour. Gate states are free text: unknown ones get the neutral class. */
export function stateClass(state: string): string {
  return (UPDATE_STATES as readonly string[]).includes(state) ? `c-${state}` : "c-other";
}

/** The rules behind `stateClass`. */
export function stateColourRules(): string {
  return UPDATE_STATES.map((s) => `.c-${s}{background:${STATE_COLOURS[s]}}`).join("") + ".c-other{background:#8c959f}";
}
