/**
 * Captures the inputs of dynamic resources (including the serialized
 * `__provider` string) by constructing them under `pulumi.runtime.setMocks`.
 *
 * `setMocks` changes process-global Pulumi runtime state. Vitest runs each test
 * file in its own module graph/worker, so use this from one test file at a time.
 * Several calls in one file are fine: they are serialized, and each installs its
 * own mocks.
 */
import * as pulumi from "@pulumi/pulumi";

import { PROVIDER_KEY, type JsonValue, type PropertyMap } from "./providerHost";

export interface CapturedDynamicResource {
  /** Logical name passed to the resource constructor. */
  readonly name: string;
  /** Type token, e.g. `pulumi-nodejs:dynamic:Resource` (or `pulumi-nodejs:dynamic/<module>:<type>`). */
  readonly type: string;
  /**
   * Inputs as the engine sends them to the dynamic-provider host (which does not accept secrets):
   * secrets unwrapped to plain values, including `__provider`. Which of them were secret is in
   * `secretInputs` / `secretValues`: a test of what reaches outputs must use them, since the plain
   * values here no longer say so.
   */
  readonly inputs: PropertyMap & { readonly [PROVIDER_KEY]: string };
  /** The inputs with every secret replaced by `true` and everything else dropped: the engine's map of what was secret. */
  readonly secretInputs: PropertyMap;
  /** The text of every secret string in the inputs. */
  readonly secretValues: string[];
  /** Convenience copy of `inputs.__provider`. */
  readonly provider: string;
}

export interface CaptureOptions {
  readonly project?: string;
  readonly stack?: string;
  /** Outputs the mock returns for a dynamic resource. Default: its inputs; id `<name>-id`. */
  readonly mockResult?: (args: pulumi.runtime.MockResourceArgs) => pulumi.runtime.MockResourceResult;
}

const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic";
// Values the Pulumi runtime uses to mark secrets in deserialized properties (see runtime/rpc).
const SPECIAL_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** Not in the public typings, but exported: waits until every outstanding runtime RPC has finished. */
interface RuntimeSettingsInternals {
  waitForRPCs(): Promise<void>;
}

/** Where the secrets are: `true` for a secret, objects and arrays kept only where they hold one. */
function secretShape(value: unknown): JsonValue | undefined {
  if (value !== null && typeof value === "object" && (value as Record<string, unknown>)[SPECIAL_SIG_KEY] === SECRET_SIG) return true;
  if (Array.isArray(value)) {
    const items = value.map(secretShape);
    return items.some((i) => i !== undefined) ? items.map((i) => i ?? null) : undefined;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).flatMap(([k, v]) => {
      const shape = secretShape(v);
      return shape === undefined ? [] : [[k, shape] as const];
    });
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  return undefined;
}

function secretStrings(value: unknown, inSecret = false): string[] {
  if (value !== null && typeof value === "object" && (value as Record<string, unknown>)[SPECIAL_SIG_KEY] === SECRET_SIG) return secretStrings((value as Record<string, unknown>)["value"], true);
  if (typeof value === "string") return inSecret ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => secretStrings(v, inSecret));
  if (value !== null && typeof value === "object") return Object.values(value).flatMap((v) => secretStrings(v, inSecret));
  return [];
}

function unwrapSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (record[SPECIAL_SIG_KEY] === SECRET_SIG) return unwrapSecrets(record["value"]);
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, unwrapSecrets(v)]));
  }
  return value;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `construct` (which should construct one or more dynamic resources) under
 * mocks, waits until every resource has been registered, and returns each
 * dynamic resource's name, type and inputs in registration order. Non-dynamic
 * resources are mocked too (echoing their inputs) but not returned.
 */
export function captureDynamicInputs(
  construct: () => void | Promise<void>,
  options: CaptureOptions = {},
): Promise<CapturedDynamicResource[]> {
  const run = async (): Promise<CapturedDynamicResource[]> => {
    const captured: CapturedDynamicResource[] = [];
    const failures: unknown[] = [];

    await pulumi.runtime.setMocks(
      {
        newResource(args) {
          if (args.type.startsWith(DYNAMIC_TYPE_PREFIX)) {
            try {
              const inputs = unwrapSecrets(args.inputs) as PropertyMap;
              const provider = inputs[PROVIDER_KEY];
              if (typeof provider !== "string") {
                throw new Error(`dynamic resource ${args.name} has no string ${PROVIDER_KEY} input`);
              }
              const secretInputs = (secretShape(args.inputs) ?? {}) as PropertyMap;
              captured.push({ name: args.name, type: args.type, inputs: { ...inputs, [PROVIDER_KEY]: provider }, provider, secretInputs, secretValues: secretStrings(args.inputs) });
            } catch (e) {
              failures.push(e);
            }
          }
          return options.mockResult?.(args) ?? { id: `${args.name}-id`, state: args.inputs };
        },
        call(args) {
          return args.inputs;
        },
      },
      options.project ?? "project",
      options.stack ?? "stack",
      false,
    );

    await construct();
    // Registration is asynchronous (the provider is serialized first); wait for it.
    const settings = require("@pulumi/pulumi/runtime/settings") as RuntimeSettingsInternals;
    await settings.waitForRPCs();

    if (failures.length > 0) throw failures[0];
    return captured;
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}
