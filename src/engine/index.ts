export * from "./backend";
export * from "./clock";
export * from "./engine";
export * from "./drive";
export { SkipRefusedError } from "./control";
export type { EngineOptions } from "./context";
export type { RunState } from "./runState";
export { nextOpenInterval, windowStateAt, type WindowInterval, type WindowState } from "./maintenanceWindow";
export { summarize, type RunSummary, type RunOutcome } from "./summary";
