/**
 * Issue 24: secrets through the provider plugin. The plugin's host (`@pulumi/pulumi/provider`)
 * declares that it accepts secrets, so the engine hands the provider secret values as they are on
 * the wire — `{ [specialSigKey]: specialSecretSig, value }` — and keeps a value the provider returns in
 * that form encrypted in the state. The shared provider code (`runProvider.ts`, `strategyProvider.ts`)
 * works on plain values: the plugin reveals its arguments and puts the marks back on its results.
 * https://www.pulumi.com/docs/iac/concepts/secrets/#how-secrets-relate-to-outputs
 */
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { canonicalJson } from "../../spec/identity";

type Props = Record<string, unknown>;

export function isSecret(value: unknown): value is { value: unknown } {
  return value !== null && typeof value === "object" && (value as Props)[specialSigKey] === specialSecretSig;
}

export function asSecret(value: unknown): unknown {
  return isSecret(value) ? value : { [specialSigKey]: specialSecretSig, value };
}

/** The value with every secret mark removed (deeply). */
export function reveal(value: unknown): unknown {
  if (isSecret(value)) return reveal(value.value);
  if (Array.isArray(value)) return value.map(reveal);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)]));
  return value;
}

export function containsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsSecret);
  return false;
}

export function revealProps(props: Props | undefined): Props {
  return (reveal(props ?? {}) as Props) ?? {};
}

/**
 * `result`'s properties with the secret marks of `given` (what the engine sent) put back: a property
 * returned as it was given is returned exactly as given (its secrets where they were); one that
 * changed while it held a secret is secret as a whole; `alwaysSecret` ones are secret whatever they
 * hold (the run's `engineState` copies the inputs that define the run).
 */
export function withSecretsOf(given: Props | undefined, result: Props, alwaysSecret: readonly string[] = []): Props {
  const out: Props = {};
  for (const [key, value] of Object.entries(result)) {
    const before = given?.[key];
    if (before !== undefined && containsSecret(before)) {
      out[key] = canonicalJson(reveal(before) ?? null) === canonicalJson(value ?? null) ? before : asSecret(value);
    } else {
      out[key] = value;
    }
    if (alwaysSecret.includes(key) && value !== undefined) out[key] = asSecret(out[key]);
  }
  return out;
}
