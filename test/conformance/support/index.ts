/** The replay conformance harness (docs/emulator-conformance.md): cassettes, replay, comparison, expectations. */
export { readCassette, type RecordedInteraction } from "./cassette";
export { ENUM_KEYS, replay, rewriteNames, type Difference, type DifferenceKind, type InteractionReport, type ReplayOptions } from "./replay";
export { describeDifference, explain, formatReport, type KnownDifference } from "./explain";
export { enumDifferences, pathsOf, pathsOnlyIn, type Json } from "./jsonShape";
export { filesNotAsSourced } from "./sources";
