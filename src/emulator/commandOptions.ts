/**
 * The `fleet-update emulator` command's flags, apart from the command itself (`command.ts`), so the
 * CLI can declare them without loading the emulator at every start (issue 13: start-up time).
 */
export interface EmulatorFlags {
  port?: string;
  msPerSimulatedMinute?: string;
  startAt?: string;
  seed?: string;
  /** `--no-throttling` sets it to false. */
  throttling?: boolean;
  serverErrorRate?: string;
  throttleRate?: string;
  resetRate?: string;
  lostResponseRate?: string;
  /** `MIN-MAX` or `MS`. */
  latencyMs?: string;
  subscription?: string;
  resourceGroup?: string;
  certFile?: string;
}

/** For the CLI wiring: `for (const o of EMULATOR_COMMAND_OPTIONS) command.option(o.flags, o.description)`. */
export const EMULATOR_COMMAND_OPTIONS: ReadonlyArray<{ flags: string; description: string }> = [
  { flags: "--port <port>", description: "port on 127.0.0.1 (default: any free port)" },
  { flags: "--ms-per-simulated-minute <ms>", description: "real milliseconds per simulated minute (default 1000)" },
  { flags: "--start-at <instant>", description: "simulated time at start, ISO 8601 (default: now)" },
  { flags: "--seed <n>", description: "seed of the fault injection (default 1)" },
  { flags: "--no-throttling", description: "turn off ARM's subscription throttling (250 reads / 200 writes burst)" },
  { flags: "--server-error-rate <rate>", description: "share of requests answered 500/503, 0..1" },
  { flags: "--throttle-rate <rate>", description: "share of requests answered 429, 0..1" },
  { flags: "--reset-rate <rate>", description: "share of connections reset, 0..1" },
  { flags: "--lost-response-rate <rate>", description: "share of writes (PUT/POST/PATCH/DELETE) applied, then answered with a connection reset, 0..1" },
  { flags: "--latency-ms <min-max>", description: "latency added to every request, e.g. 20-200" },
  { flags: "--subscription <id>", description: "serve only this subscription" },
  { flags: "--resource-group <name>", description: "serve only this resource group" },
  { flags: "--cert-file <file>", description: "where to write the PEM certificate (default: a file in the temp directory)" },
];
