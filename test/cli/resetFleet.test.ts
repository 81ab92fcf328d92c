import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { resetFleetCommand } from "../../src/cli/resetFleet";

it("reset-fleet removes the simulated fleet's state file and run journals, and says so", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reset-"));
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    fs.writeFileSync("fleet.yaml", "regions: {}\n");
    fs.writeFileSync("fleet.yaml.state.json", "{}");
    fs.mkdirSync("fleet.yaml.state.runs");
    fs.writeFileSync(path.join("fleet.yaml.state.runs", "r.json"), "{}");
    let out = "";
    const io = { stdout: (t: string) => (out += t), stderr: () => {} };
    expect(resetFleetCommand("fleet.yaml", {}, io)).toBe(0);
    expect(fs.existsSync("fleet.yaml.state.json")).toBe(false);
    expect(fs.existsSync("fleet.yaml.state.runs")).toBe(false);
    expect(fs.existsSync("fleet.yaml")).toBe(true);
    expect(out).toContain("reset: removed");
    out = "";
    resetFleetCommand("fleet.yaml", {}, io);
    expect(out).toContain("nothing to reset");
  } finally {
    process.chdir(cwd);
  }
});
