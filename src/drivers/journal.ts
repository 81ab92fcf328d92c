/**
 * The engine driver's run journal moved to `engine/journal.ts` (issue 32). This path is kept while
 * test/engine/ still imports it (another branch is adding tests there); docs/architecture.md, "Working
 * notes", lists it for removal.
 */
export * from "./engine/journal";
