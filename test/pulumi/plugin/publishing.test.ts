/**
 * Issue 33: where the package is published comes from package.json alone, and the schema (with the
 * SDKs written from it) says so the way Pulumi and its Registry read it: the plugin downloaded from
 * the project's GitHub releases, the SDKs' names and the Go module path under the repository.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { publishingOf, readPackageJson } from "../../../src/pulumi/plugin/publishing";
import { packageSchema } from "../../../src/pulumi/plugin/schema";

const ROOT = path.resolve(__dirname, "../../..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string; version: string; repository: { url: string } };

describe("publishing, from package.json", () => {
  it("reads the repository in npm's spellings, and refuses one that is not on GitHub, naming the field", () => {
    for (const url of ["git+https://github.com/acme/pulumi-fleet-update.git", "https://github.com/acme/pulumi-fleet-update", "github:acme/pulumi-fleet-update", "git@github.com:acme/pulumi-fleet-update.git"]) {
      const published = publishingOf({ name: "pulumi-fleet-update", version: "1.2.3", repository: { url: url.replace(/^git@/, "ssh://git@") } });
      expect(published, url).toMatchObject({ repository: "https://github.com/acme/pulumi-fleet-update", org: "acme", repo: "pulumi-fleet-update" });
    }
    expect(() => publishingOf({ name: "x", version: "1.0.0", repository: "https://gitlab.com/acme/x" })).toThrow(/package\.json: repository\.url must name a GitHub repository/);
    expect(() => publishingOf({ name: "x", version: "1.0.0" })).toThrow(/repository\.url/);
  });

  it("the plugin reads this checkout's package.json", () => {
    expect(readPackageJson()).toMatchObject({ name: pkg.name, version: pkg.version });
  });

  it("the schema carries the Registry's metadata and the plugin's download URL, all from the repository package.json names", () => {
    const { org, repo, repository } = publishingOf(pkg);
    const schema = packageSchema(pkg.version);
    expect(schema).toMatchObject({
      version: pkg.version,
      repository,
      homepage: repository,
      publisher: org,
      pluginDownloadURL: `github://api.github.com/${org}/${repo}`,
      logoUrl: `https://raw.githubusercontent.com/${org}/${repo}/main/docs/logo.png`,
    });
    expect(schema.keywords).toEqual(expect.arrayContaining(["kind/native", "category/cloud"]));
    expect(schema.keywords.filter((k) => k.startsWith("category/"))).toHaveLength(1);
    // The logo the URL names is committed where it says, a PNG.
    expect(fs.readFileSync(path.join(ROOT, "docs", "logo.png")).subarray(1, 4).toString()).toBe("PNG");
    // Pulumi's github:// source looks for the repository `pulumi-<package>`: ours is named so.
    expect(repo).toBe(`pulumi-${schema.name}`);
  });

  it("the SDKs are named from package.json: the Node package, the Python distribution and the Go module under the repository", () => {
    const schema = packageSchema("9.8.7", publishingOf({ name: "pulumi-fleet-update", version: "9.8.7", repository: "https://github.com/acme/pulumi-fleet-update", devDependencies: { typescript: "5.9.3" } }));
    expect(schema.language).toMatchObject({
      nodejs: { packageName: "pulumi-fleet-update-sdk", typescriptVersion: "5.9.3" },
      python: { packageName: "pulumi_fleet_update", pyproject: { enabled: true } },
      go: { importBasePath: "github.com/acme/pulumi-fleet-update/sdk/go/fleetupdate" },
    });
    expect(schema.pluginDownloadURL).toBe("github://api.github.com/acme/pulumi-fleet-update");
  });

  it("the committed SDKs carry the version and the download URL", () => {
    const { org, repo } = publishingOf(pkg);
    const plugin = { resource: true, name: "fleet-update", version: pkg.version, server: `github://api.github.com/${org}/${repo}` };
    expect(JSON.parse(fs.readFileSync(path.join(ROOT, "sdk/nodejs/package.json"), "utf8"))).toMatchObject({ name: `${pkg.name}-sdk`, version: pkg.version, pulumi: plugin });
    expect(JSON.parse(fs.readFileSync(path.join(ROOT, "sdk/python/pulumi_fleet_update/pulumi-plugin.json"), "utf8"))).toEqual(plugin);
    expect(JSON.parse(fs.readFileSync(path.join(ROOT, "sdk/go/fleetupdate/pulumi-plugin.json"), "utf8"))).toEqual(plugin);
    expect(fs.readFileSync(path.join(ROOT, "sdk/go/go.mod"), "utf8")).toMatch(new RegExp(`^module github\\.com/${org}/${repo}/sdk/go$`, "m"));
    expect(fs.readFileSync(path.join(ROOT, "sdk/python/pyproject.toml"), "utf8")).toMatch(new RegExp(`^\\s*version = "${pkg.version.replace(/\./g, "\\.")}"$`, "m"));
  });
});
