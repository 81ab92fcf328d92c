/**
 * Issue 11: the folder a run's relative paths are resolved against. The Pulumi engine starts the
 * program *and the provider plugins* in the project's `main` folder (`Pulumi.yaml`'s `main:`, e.g.
 * `examples/quickstart/`), not in the project's own folder, so the provider's working directory is no
 * guide. `UpdateRun` records the project folder when the program constructs it (the `projectDir`
 * input) and the provider resolves `fleetFile`, `stateFile`, `trustedCaFile` and the journal directory
 * (`.fleet-update/runs`) against it.
 *
 * `projectDir` is where the program happened to run, not what the run is: `diff` ignores it, so
 * running the same project from another checkout path neither replaces nor updates the run.
 */
import path from "node:path";
import type { FieldIssue } from "../../model/issues";
import { UNKNOWN } from "../../spec/unknowns";
import { PROJECT_DIR_KEY } from "../surface";

/** The folder to resolve against: the recorded one, or (a run stored before it was recorded) the working directory. */
export function projectDirOf(props: Record<string, unknown>): string {
  const recorded = props[PROJECT_DIR_KEY];
  return typeof recorded === "string" && path.isAbsolute(recorded) ? recorded : process.cwd();
}

/** Check failures for `projectDir`: absent (older programs) or an absolute path. */
export function projectDirIssues(props: Record<string, unknown>): FieldIssue[] {
  const value = props[PROJECT_DIR_KEY];
  if (value === undefined || value === UNKNOWN) return [];
  if (typeof value === "string" && path.isAbsolute(value)) return [];
  return [{ path: PROJECT_DIR_KEY, message: "must be an absolute path (the folder holding Pulumi.yaml; UpdateRun records it)" }];
}

/** The run's inputs without `projectDir`, for the schemas shared with `fleet-update run` (which have no such field). */
export function withoutProjectDir(props: Record<string, unknown>): Record<string, unknown> {
  const { [PROJECT_DIR_KEY]: _ignored, ...rest } = props;
  return rest;
}
