/**
 * `fleet-update emulator --fleet fleet.yaml [flags]`: serve a fleet description as ARM. This file
 * holds the command's option list, their parsing and the run; the CLI wiring only has to declare
 * `EMULATOR_COMMAND_OPTIONS` (commander hands them back camelCased, as `EmulatorFlags`), call
 * `runEmulatorCommand`, set the exit code, and `stopOnSignals` to close cleanly on Ctrl-C.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { ValidationError, parseOrThrow } from "../model/issues";
import { FleetSchema, type Fleet } from "../model/fleet";
import { startArmEmulator, type ArmEmulator, type ArmEmulatorOptions } from "./emulator";
import type { EmulatorFlags } from "./commandOptions";

export { EMULATOR_COMMAND_OPTIONS, type EmulatorFlags } from "./commandOptions";

const intFrom = (min: number) => z.coerce.number().int("must be a whole number").min(min, `must be at least ${min}`);
const rate = z.coerce.number().min(0, "must be from 0 to 1").max(1, "must be from 0 to 1");

const FlagsSchema = z.strictObject({
  port: intFrom(0).max(65535, "must be at most 65535").optional(),
  msPerSimulatedMinute: z.coerce.number().positive("must be greater than 0").optional(),
  startAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO 8601 instant such as 2026-12-05T00:00:00Z").optional(),
  seed: intFrom(0).optional(),
  throttling: z.boolean().optional(),
  serverErrorRate: rate.optional(),
  throttleRate: rate.optional(),
  resetRate: rate.optional(),
  lostResponseRate: rate.optional(),
  latencyMs: z
    .string()
    .regex(/^\d+(-\d+)?$/, "must be MS or MIN-MAX in milliseconds, e.g. 20-200")
    .transform((s) => {
      const [min = 0, max = min] = s.split("-").map(Number);
      return { min, max };
    })
    .refine((r) => r.max >= r.min, "MAX must not be below MIN")
    .optional(),
  subscription: z.string().min(1).optional(),
  resourceGroup: z.string().min(1).optional(),
  certFile: z.string().min(1).optional(),
});

export interface ParsedEmulatorFlags {
  options: Omit<ArmEmulatorOptions, "fleet">;
  certFile?: string;
}

/** Throws `ValidationError` naming each bad flag (`--latency-ms: ...`). */
export function parseEmulatorFlags(flags: EmulatorFlags): ParsedEmulatorFlags {
  const defined = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
  const parsed = FlagsSchema.safeParse(defined);
  if (!parsed.success) {
    throw new ValidationError(
      parsed.error.issues.map((issue) => {
        const key = String(issue.path[0] ?? (issue.code === "unrecognized_keys" ? issue.keys.join(", ") : ""));
        return { path: `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, message: issue.code === "unrecognized_keys" ? "unknown option" : issue.message };
      }),
    );
  }
  const f = parsed.data;
  const faults = {
    ...(f.serverErrorRate === undefined ? {} : { serverErrorRate: f.serverErrorRate }),
    ...(f.throttleRate === undefined ? {} : { throttleRate: f.throttleRate }),
    ...(f.resetRate === undefined ? {} : { resetRate: f.resetRate }),
    ...(f.lostResponseRate === undefined ? {} : { lostResponseRate: f.lostResponseRate }),
    ...(f.latencyMs === undefined ? {} : { latencyMs: f.latencyMs }),
  };
  if ((f.serverErrorRate ?? 0) + (f.throttleRate ?? 0) + (f.resetRate ?? 0) > 1) {
    throw new ValidationError([{ path: "--server-error-rate", message: "the fault rates add up to more than 1" }]);
  }
  const options: Omit<ArmEmulatorOptions, "fleet"> = {
    ...(f.port === undefined ? {} : { port: f.port }),
    ...(f.msPerSimulatedMinute === undefined ? {} : { msPerSimulatedMinute: f.msPerSimulatedMinute }),
    ...(f.startAt === undefined ? {} : { startAt: f.startAt }),
    ...(f.seed === undefined ? {} : { seed: f.seed }),
    ...(f.throttling === undefined ? {} : { throttling: f.throttling }),
    ...(Object.keys(faults).length === 0 ? {} : { faults }),
    ...(f.subscription === undefined ? {} : { subscriptionId: f.subscription }),
    ...(f.resourceGroup === undefined ? {} : { resourceGroup: f.resourceGroup }),
  };
  return { options, ...(f.certFile === undefined ? {} : { certFile: f.certFile }) };
}

/** A fleet description (YAML or JSON; a whole scenario file works too: only `regions` and `members` are read). */
export function readFleetFile(file: string): Fleet {
  let raw: unknown;
  try {
    raw = parseYaml(fs.readFileSync(file, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ValidationError([{ path: file, message: code === "ENOENT" ? "no such file" : `cannot read: ${(error as Error).message.split("\n")[0]}` }]);
  }
  const { regions, members } = (raw ?? {}) as { regions?: unknown; members?: unknown };
  return parseOrThrow(FleetSchema, { regions, members });
}

export interface EmulatorIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processIO: EmulatorIO = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };

/**
 * Start the emulator for `fleetFile` and print where it listens and where its certificate is. Exit
 * code 2 (and one line per problem) for a bad fleet file or flag; otherwise 0 and the running
 * emulator, which keeps the process alive until closed.
 */
export async function runEmulatorCommand(fleetFile: string, flags: EmulatorFlags, io: EmulatorIO = processIO): Promise<{ exitCode: number; emulator?: ArmEmulator; certFile?: string }> {
  let fleet: Fleet;
  let parsed: ParsedEmulatorFlags;
  try {
    parsed = parseEmulatorFlags(flags);
    fleet = readFleetFile(fleetFile);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const issue of error.issues) io.stderr(`${issue.path.startsWith("--") || issue.path === fleetFile ? "" : `${fleetFile}: `}${issue.path}: ${issue.message}\n`);
    return { exitCode: 2 };
  }
  const emulator = await startArmEmulator({ fleet, ...parsed.options });
  const port = new URL(emulator.url).port;
  const certFile = path.resolve(parsed.certFile ?? path.join(os.tmpdir(), `fleet-update-emulator-${port}.pem`));
  fs.writeFileSync(certFile, emulator.certificatePem);
  const minute = parsed.options.msPerSimulatedMinute ?? 1000;
  io.stdout(
    [
      `ARM emulator listening on ${emulator.url}`,
      `certificate: ${certFile}`,
      `  trust it with NODE_EXTRA_CA_CERTS=${certFile}, or pass its PEM as tlsOptions.ca`,
      `fleet: ${fleet.members.length} cluster(s) in ${Object.keys(fleet.regions).join(", ")}; a simulated minute takes ${minute} ms`,
      `Fleet Manager: ${[...emulator.fleetManager.store.fleets.values()].map((f) => `fleet '${f.name}' (${f.members.size} members)`).join(", ")}, api-versions 2025-03-01, 2025-04-01-preview (gates), 2026-06-01 (maxConcurrency) and 2026-06-02-preview (maxAllowedFailures)`,
      "",
    ].join("\n"),
  );
  return { exitCode: 0, emulator, certFile };
}

/** Close the emulator on SIGINT/SIGTERM (for the CLI). */
export function stopOnSignals(emulator: ArmEmulator, io: EmulatorIO = processIO): void {
  const stop = (signal: NodeJS.Signals) => {
    io.stderr(`${signal}: stopping the ARM emulator\n`);
    void emulator.close();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
