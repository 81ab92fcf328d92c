/**
 * Issue 33: CI's check of the committed SDKs (`npm run sdks:check`, `scripts/check-sdks.js`), on a
 * copy of the repository's schema.json and sdk/: it passes as committed; a schema.json changed
 * without regenerating fails, listing the files and naming the one command that fixes it; after that
 * command's generation (`scripts/gen-sdks.sh`, what `npm run sdks` runs) it passes again. The same
 * check on the repository itself runs in `.ci/run`, and first in `npm run release:build`.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, realCliAvailable } from "./support/pulumiCli";

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: REPO_ROOT, encoding: "utf8", timeout: 10 * 60_000 });
  return { code: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

describe.skipIf(!realCliAvailable())("CI's check that the committed SDKs are what schema.json generates", () => {
  let scratch: string;
  let schema: string;
  let sdk: string;
  const check = () => run(process.execPath, [path.join(REPO_ROOT, "scripts", "check-sdks.js"), "--schema", schema, "--sdk", sdk]);

  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-sdk-check-test-"));
    schema = path.join(scratch, "schema.json");
    sdk = path.join(scratch, "sdk");
    fs.copyFileSync(path.join(REPO_ROOT, "schema.json"), schema);
    // The committed files, as a clean clone has them.
    const listed = run("git", ["ls-files", "-z", "--", "sdk"]);
    expect(listed.code, listed.stderr).toBe(0);
    for (const file of listed.stdout.split("\0").filter(Boolean)) {
      fs.mkdirSync(path.join(scratch, path.dirname(file)), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, file), path.join(scratch, file));
    }
  });

  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("passes on the SDKs as committed", () => {
    const checked = check();
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/the \d+ files in .* are what .*schema\.json generates/);
  }, 5 * 60_000);

  it("fails once schema.json changes and the SDKs are not regenerated, naming the files and `npm run sdks`; passes once they are", () => {
    // A description changed, as another issue's field or wording would change it.
    const text = JSON.parse(fs.readFileSync(schema, "utf8")) as { resources: Record<string, { inputProperties: Record<string, { description: string }> }> };
    text.resources["fleet-update:index:UpdateRun"]!.inputProperties.timeoutMinutes!.description = "How long `pulumi up` follows the run (changed by the test).";
    fs.writeFileSync(schema, `${JSON.stringify(text, null, 2)}\n`);

    const stale = check();
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/the SDKs in .* are not what .*schema\.json generates/);
    for (const file of ["nodejs/updateRun.ts", "python/pulumi_fleet_update/update_run.py", "go/fleetupdate/updateRun.go"]) expect(stale.stderr, file).toContain(`changed: ${path.join(sdk, file)}`);
    expect(stale.stderr).toContain("changed by the test");
    expect(stale.stderr).toMatch(/Run `npm run sdks` and commit schema\.json and sdk\/\./);

    // What `npm run sdks` does after rewriting schema.json.
    const regenerated = run("bash", [path.join(REPO_ROOT, "scripts", "gen-sdks.sh"), "--schema", schema, "--out", sdk]);
    expect(regenerated.code, regenerated.stderr).toBe(0);
    const fresh = check();
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fs.readFileSync(path.join(sdk, "python", "pulumi_fleet_update", "update_run.py"), "utf8")).toContain("changed by the test");
  }, 5 * 60_000);

  it("a file the generators no longer write is reported too", () => {
    fs.writeFileSync(path.join(sdk, "go", "fleetupdate", "leftover.go"), "package fleetupdate\n");
    const checked = check();
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`not generated: ${path.join(sdk, "go", "fleetupdate", "leftover.go")}`);
  }, 5 * 60_000);
});
