/** The ARM emulator: the part of Azure Resource Manager the Azure backend uses, over the simulated fleet. */
export { startArmEmulator, DEFAULT_MS_PER_SIMULATED_MINUTE, type ArmEmulator, type ArmEmulatorOptions } from "./emulator";
export { EMULATOR_COMMAND_OPTIONS, parseEmulatorFlags, readFleetFile, runEmulatorCommand, stopOnSignals, type EmulatorFlags, type EmulatorIO, type ParsedEmulatorFlags } from "./command";
export { createSelfSignedCertificate, type SelfSignedCertificate } from "./core/certificate";
export type { FaultOptions } from "./core/faults";
export type { BucketLimits, ThrottlingOptions } from "./core/throttling";
export type { RequestCounters, RequestLogEntry } from "./core/requestLog";
export { API_VERSION } from "./core/context";
