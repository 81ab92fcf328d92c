/**
 * pulumi-fleet-update: staged AKS fleet upgrades. The public API: the model (schemas and types), the
 * sequencing engine and its contracts, the simulated fleet, and scenario simulation.
 */
export * from "./model";
export * from "./engine";
export * from "./backends/simulator";
export { RealClock } from "./runtime/realClock";
export * from "./simulation/scenario";
export { simulateScenario, type SimulationReport, type SimulationResult } from "./simulation/simulateScenario";
export * from "./pulumi";
