/**
 * Property: any single-place corruption of a valid update strategy (wrong type, missing field,
 * duplicate stage or group, bad name, bad concurrency or failure tolerance, bad gate, 10,000-character
 * string, unknown field) is rejected — by the model (`UpdateRunStrategySchema`) with a ValidationError,
 * and by the UpdateStrategy provider's check with failures — naming the broken field, without a crash.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError, parseOrThrow } from "../../../src/model/issues";
import { UpdateRunStrategySchema } from "../../../src/model/strategy";
import { check } from "../../../src/pulumi/provider/strategyProvider";
import { expectNamesBrokenField, invalidVariants, type Doc, type FieldRules, type Variant } from "../../support/invalidInput";
import { PROVIDER_STUB, STRATEGY_RULES, richStrategy } from "../support/invalidRunInputs";

/** What the UpdateStrategy resource sends its provider: the stages and the serialized provider. */
function providerInputs(): Doc {
  return { __provider: PROVIDER_STUB, ...richStrategy() };
}

const PROVIDER_RULES: FieldRules = { ...STRATEGY_RULES, untouched: [["__provider"]], replaceRoot: false };

function modelIssues(doc: Doc) {
  try {
    parseOrThrow(UpdateRunStrategySchema, doc);
  } catch (e) {
    if (e instanceof ValidationError) return e.issues;
    throw new Error(`expected a ValidationError, got ${String((e as Error)?.stack ?? e)}`);
  }
  return [];
}

describe("property: invalid update strategies are rejected with the broken field's path", () => {
  it("the rich base strategy is valid for the model and the provider", async () => {
    expect(modelIssues(richStrategy())).toEqual([]);
    expect((await check({}, providerInputs())).failures).toEqual([]);
  });

  it("1,000 invalid strategies through the model", () => {
    fc.assert(
      fc.property(invalidVariants(richStrategy(), { ...STRATEGY_RULES, replaceRoot: true }), (broken: Variant) => {
        expectNamesBrokenField(modelIssues(broken.doc), broken);
      }),
      { numRuns: 1_000 },
    );
  });

  it("1,000 invalid UpdateStrategy inputs through the provider's check", async () => {
    await fc.assert(
      fc.asyncProperty(invalidVariants(providerInputs(), PROVIDER_RULES), async (broken: Variant) => {
        const { failures } = await check({}, broken.doc);
        expectNamesBrokenField(failures.map((f) => ({ path: f.property, message: f.reason })), broken);
      }),
      { numRuns: 1_000 },
    );
  });

  // A misspelt top-level input beside `stages` (e.g. from a YAML program) is named, not ignored.
  it("an unknown top-level UpdateStrategy input is rejected", async () => {
    const { failures } = await check({}, { ...providerInputs(), stagess: [] });
    expect(failures.map((f) => f.property)).toContain("stagess");
  });
});
