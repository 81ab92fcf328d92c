/**
 * Issue 33: where the package is published, from one place — `package.json`. Its `name` and `version`
 * name the npm package, the plugin and every SDK; its `repository.url` names the GitHub repository,
 * and with it the organization, which the schema turns into the plugin's download URL (GitHub
 * releases), the Go SDK's module path and the logo's address. Change the organization there, then
 * `npm run sdks` (docs/releasing.md).
 */
import * as fs from "node:fs";
import * as path from "node:path";

export interface PackageJson {
  name: string;
  version: string;
  repository?: string | { url?: string };
  engines?: { node?: string };
  devDependencies?: Record<string, string>;
}

/** This package's package.json (beside `dist/` in a checkout, an npm install and a plugin tarball). */
export function readPackageJson(): PackageJson {
  const file = path.join(__dirname, "..", "..", "..", "package.json");
  return JSON.parse(fs.readFileSync(file, "utf8")) as PackageJson;
}

/** What the schema, and through it the SDKs, say about where the package comes from. */
export interface Publishing {
  /** The npm package (`pulumi-fleet-update`): the TypeScript dynamic resources, the CLI and the plugin. */
  npmName: string;
  /** `https://github.com/<org>/<repo>`. */
  repository: string;
  org: string;
  repo: string;
  /** The TypeScript this package is built with, which the Node SDK is built with too. */
  typescript: string;
  /** The Node.js the plugin needs (`engines.node`, ">=20"), as words: "Node.js 20 or newer". */
  node: string;
}

/** The GitHub repository package.json names, in any of npm's spellings (`git+https://…​.git`, `github:org/repo`). */
export function publishingOf(pkg: PackageJson): Publishing {
  const url = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
  const match = url?.match(/^(?:git\+)?(?:https:\/\/|git:\/\/|ssh:\/\/git@)?github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/) ?? url?.match(/^github:([\w.-]+)\/([\w.-]+)$/);
  if (match === null || match === undefined) throw new Error(`package.json: repository.url must name a GitHub repository (https://github.com/<org>/<repo>), got ${JSON.stringify(url)}`);
  const [, org, repo] = match as unknown as [string, string, string];
  const node = pkg.engines?.node === undefined ? "Node.js" : `Node.js ${pkg.engines.node.replace(/^>=\s*/, "")} or newer`;
  return { npmName: pkg.name, repository: `https://github.com/${org}/${repo}`, org, repo, typescript: pkg.devDependencies?.typescript ?? "^5", node };
}
