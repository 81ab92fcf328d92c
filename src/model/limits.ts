/**
 * Issue 19: the bounds on what a user may ask for — waits, horizons, a call's minutes, polls, and how
 * deeply a document may nest — so every instant stays representable and no input overflows a stack
 * (docs/behaviour.md, "Limits on durations and instants").
 */

/**
 * Issue 19: the longest after-stage wait, 365 days. Azure's `afterStageWaitInSeconds` is an int32
 * (up to ~68 years) with no documented maximum; a soak of more than a year is a typo, and a bound
 * keeps every wait's end a representable instant.
 */
export const MAX_WAIT_SECONDS = 31_536_000;
/** Issue 19: how far a scenario may look (`until` after `start`), about ten years. */
export const MAX_HORIZON_DAYS = 3_660;
/** Issue 19: real-time minutes a call may drive a run (`timeoutMinutes`, `returnAfterMinutes`), a week. */
export const MAX_CALL_MINUTES = 10_080;
/** Issue 19: seconds between reads of a cluster or a Fleet Manager run, at most an hour. */
export const MAX_POLL_SECONDS = 3_600;

/**
 * Lists and mappings nested deeper than this are refused (issue 19). Every document we read is at
 * most ~10 levels deep (`members[0].maintenanceConfigurations.….notAllowedDates[0].start`); without
 * a limit, 100,000 nested `[` overflowed the stack, in the YAML parser or in whatever walked the
 * value next (zod, JSON.stringify, structuredClone). Checked on the parsed value, so JSON and YAML
 * share it; the YAML parser's own overflow (from ~800 levels on) is reported the same way.
 */
export const MAX_NESTING_DEPTH = 64;
