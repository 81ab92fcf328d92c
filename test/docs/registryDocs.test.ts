/**
 * Issue 33: the Registry's pages (docs/_index.md, docs/installation-configuration.md) and the release
 * page (docs/releasing.md) say what the code and the artifacts are: the examples shown are the tested
 * example files, byte for byte; the package names, the plugin's download URL, its version and
 * tarball names are the schema's and package.json's; the launcher's message is the launcher's.
 */
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import { packageSchema } from "../../src/pulumi/plugin/schema";

const ROOT = path.resolve(__dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string; version: string; engines: { node: string } };
const schema = packageSchema(pkg.version);
const pack = require(path.join(ROOT, "scripts", "pack-plugin.js")) as {
  RELEASE_PLATFORMS: string[];
  tarballName(version: string, platform: string): string;
  launcher(platform: string, nodeRange: string): [string, string, number];
};
const read = (doc: string) => fs.readFileSync(path.join(ROOT, "docs", doc), "utf8");

function frontMatter(text: string): Record<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (match === null) throw new Error("no front matter");
  return parseYaml(match[1]!) as Record<string, string>;
}

describe("the Registry's pages", () => {
  it("both are in the Registry's layout: front matter with a title, a description and `layout: package`", () => {
    for (const doc of ["_index.md", "installation-configuration.md"]) {
      const front = frontMatter(read(doc));
      expect(front.layout, doc).toBe("package");
      expect(front.title, doc).toMatch(/^AKS Fleet Update/);
      expect(front.meta_desc?.length ?? 0, `${doc}: meta_desc`).toBeGreaterThan(40);
    }
  });

  it("_index.md shows one example in each language, each the tested example file as it is", () => {
    const text = read("_index.md");
    expect(text).toContain('{{< chooser language "typescript,python,go,yaml" >}}');
    const files: Record<string, string> = {
      typescript: "examples/fleet-manager/index.ts",
      python: "examples/fleet-manager-python/__main__.py",
      go: "examples/fleet-manager-go/main.go",
      yaml: "examples/fleet-manager-yaml/Pulumi.yaml",
    };
    for (const [language, file] of Object.entries(files)) {
      const choosable = new RegExp(`\\{\\{% choosable language ${language} %\\}\\}\\n\\n\`\`\`${language}\\n([\\s\\S]*?)\`\`\`\\n\\n\\{\\{% /choosable %\\}\\}`).exec(text);
      expect(choosable, language).not.toBeNull();
      expect(choosable![1], `${language}: ${file}`).toBe(`${fs.readFileSync(path.join(ROOT, file), "utf8").trimEnd()}\n`);
    }
  });

  it("installation-configuration.md names the SDKs as the schema does, and the plugin at this version from the schema's download URL", () => {
    const text = read("installation-configuration.md");
    const language = schema.language as { nodejs: { packageName: string }; python: { packageName: string }; go: { importBasePath: string } };
    expect(text).toContain(`npm install ${language.nodejs.packageName}`);
    expect(text).toContain(`npm install ${pkg.name}`);
    expect(text).toContain(`pip install ${language.python.packageName}`);
    expect(text).toContain(`go get ${language.go.importBasePath}`);
    expect(text).toContain(`pulumi plugin install resource fleet-update ${pkg.version} --server ${schema.pluginDownloadURL}`);
    expect(text).toContain(`pulumi plugin install resource fleet-update ${pkg.version} --file ${pack.tarballName(pkg.version, "linux-amd64")}`);
    const tarballs = [...text.matchAll(/`(pulumi-resource-fleet-update-v[^`]+\.tar\.gz)`/g)].map((m) => m[1]);
    expect([...new Set(tarballs)].sort()).toEqual(pack.RELEASE_PLATFORMS.map((p) => pack.tarballName(pkg.version, p)).sort());
    expect(text).toContain(`${pkg.name}_${pkg.version}_checksums.txt`);
    expect(text).toMatch(/^### \.NET and Java$/m);
  });

  it("installation-configuration.md quotes the launcher's message when Node.js is missing, word for word", () => {
    const [, script] = pack.launcher("linux-amd64", pkg.engines.node);
    const message = /echo "([^"]+)" >&2/.exec(script)![1]!;
    expect(read("installation-configuration.md")).toContain(`\n${message}\n`);
    expect(message).toContain(`Node.js ${pkg.engines.node.replace(/^>=\s*/, "")} or newer`);
  });
});

describe("docs/releasing.md", () => {
  it("lists every artifact `npm run release:build` writes, at this version, each with its size", () => {
    const text = read("releasing.md");
    const artifacts = [
      ...pack.RELEASE_PLATFORMS.map((p) => pack.tarballName(pkg.version, p)),
      `pulumi_fleet_update-${pkg.version}-py3-none-any.whl`,
      `pulumi_fleet_update-${pkg.version}.tar.gz`,
      `${pkg.name}-sdk-${pkg.version}.tgz`,
      `${pkg.name}_${pkg.version}_checksums.txt`,
    ];
    for (const artifact of artifacts) expect(text, artifact).toMatch(new RegExp(`^\\| \`${artifact.replace(/[.]/g, "\\.")}\`[^|]*\\| [\\d.]+ (KiB|MiB) \\|`, "m"));
  });
});
