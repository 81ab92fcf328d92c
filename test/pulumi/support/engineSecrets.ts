/**
 * What the Pulumi engine does with a dynamic resource's outputs, secret-wise. The dynamic-provider
 * host answers Configure with `acceptSecrets: false`, so the engine sends it plain values and gets
 * plain outputs back; it then marks as secret only
 * - an output under the same key as an input that contained a secret (recursing into objects, not
 *   arrays: `annotateSecrets` in sdk/go/common/resource/plugin/provider_plugin.go), and
 * - the outputs the resource lists in `additionalSecretOutputs` (step_executor.go).
 * Everything else is stored in the stack in plain text. `storedInPlainText` returns that part, so a
 * test can assert no secret is in it.
 */
import type { JsonValue, PropertyMap } from "./providerHost";

export function storedInPlainText(outputs: PropertyMap, secretInputs: PropertyMap, additionalSecretOutputs: readonly string[]): PropertyMap {
  const plain: PropertyMap = {};
  for (const [key, value] of Object.entries(outputs)) {
    if (additionalSecretOutputs.includes(key)) continue;
    const plainValue = withoutAnnotated(value, secretInputs[key]);
    if (plainValue !== undefined) plain[key] = plainValue;
  }
  return plain;
}

function withoutAnnotated(output: JsonValue, secretInput: JsonValue | undefined): JsonValue | undefined {
  if (secretInput === undefined) return output;
  const isObject = (v: JsonValue | undefined): v is { [key: string]: JsonValue } => v !== null && typeof v === "object" && !Array.isArray(v);
  if (isObject(output) && isObject(secretInput)) {
    const kept: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(output)) {
      const rest = withoutAnnotated(v, secretInput[k]);
      if (rest !== undefined) kept[k] = rest;
    }
    return kept;
  }
  // The input under this key contained a secret: the engine marks the whole output value secret.
  return undefined;
}
