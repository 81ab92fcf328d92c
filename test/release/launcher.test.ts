/**
 * Issue 33: the plugin's launchers (scripts/pack-plugin.js), on a stand-in plugin folder: the sh
 * launcher runs launch.js with the `node` on PATH, passing the engine's arguments, or says that Node.js
 * 20 or newer is needed when there is none; launch.js refuses a Node older than package.json's
 * `engines.node`, naming its path and version, before loading anything. The Windows launcher is text
 * here (no Windows machine): its shape is checked. The real plugin through `pulumi`:
 * test/e2e/pluginTarball.e2e.test.ts.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const pack = require(path.join(ROOT, "scripts", "pack-plugin.js")) as { PLUGIN: string; LAUNCH_JS: string; launcher(platform: string, nodeRange: string): [string, string, number] };
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };

describe("the plugin's launchers", () => {
  let dir: string;

  beforeAll(() => {
    // The tarball's root, with a stand-in for dist/: it prints the arguments it was served with.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-update-launcher-test-"));
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ version: "0.0.0", engines: pkg.engines }));
    fs.writeFileSync(path.join(dir, "launch.js"), pack.LAUNCH_JS);
    fs.mkdirSync(path.join(dir, "dist", "pulumi", "plugin"), { recursive: true });
    fs.writeFileSync(path.join(dir, "dist", "pulumi", "plugin", "main.js"), 'exports.serve = async (args) => process.stdout.write(`served ${JSON.stringify(args)}\\n`);\n');
    const [name, text, mode] = pack.launcher("linux-amd64", pkg.engines.node);
    fs.writeFileSync(path.join(dir, name), text, { mode });
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("the sh launcher runs the plugin with the node on PATH, from any working directory, with the engine's arguments", () => {
    const ran = spawnSync(path.join(dir, pack.PLUGIN), ["--logtostderr", "127.0.0.1:4321"], { cwd: os.tmpdir(), encoding: "utf8", env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` } });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toBe('served ["--logtostderr","127.0.0.1:4321"]\n');
  });

  it("without node on PATH it says that Node.js 20 or newer is needed, and exits 1", () => {
    const ran = spawnSync(path.join(dir, pack.PLUGIN), ["127.0.0.1:4321"], { encoding: "utf8", env: { PATH: path.join(dir, "no-such-folder") } });
    expect(ran.status).toBe(1);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toBe(`${pack.PLUGIN}: Node.js ${pkg.engines.node.replace(/^>=\s*/, "")} or newer is required to run this provider plugin, and no 'node' was found on PATH. Install it from https://nodejs.org and run pulumi again.\n`);
  });

  it("launch.js refuses an older Node, naming it, before loading the plugin", () => {
    // This Node, made to say it is 18.19.1.
    const pretend = "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '18.19.1' } }); Object.defineProperty(process, 'version', { value: 'v18.19.1' });";
    const ran = spawnSync(process.execPath, ["-e", `${pretend} require(${JSON.stringify(path.join(dir, "launch.js"))});`], { encoding: "utf8" });
    expect(ran.status).toBe(1);
    expect(ran.stdout, "nothing served").toBe("");
    expect(ran.stderr).toContain(`${pack.PLUGIN}: Node.js ${pkg.engines.node} is required to run this provider plugin, but ${process.execPath} is v18.19.1.`);
    expect(ran.stderr).toContain("Install Node.js 20 or newer");
  });

  it("the Windows launcher: a batch file with CRLF line ends that runs launch.js beside it, or names what is missing", () => {
    const [name, text] = pack.launcher("windows-amd64", pkg.engines.node);
    expect(name).toBe(`${pack.PLUGIN}.cmd`);
    expect(text.split("\r\n")).toEqual(expect.arrayContaining(["@echo off", "where node >nul 2>nul || goto nonode", 'node "%~dp0launch.js" %*', "exit /b %ERRORLEVEL%", ":nonode", "exit /b 1"]));
    expect(text.replace(/\r\n/g, "")).not.toContain("\n");
    // cmd.exe ends a block at a parenthesis: none in what it echoes.
    expect(text.split("\r\n").filter((l) => l.startsWith("echo ")).join("")).not.toMatch(/[()]/);
  });
});
