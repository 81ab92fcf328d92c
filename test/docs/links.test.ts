/**
 * Issue 32: the README and docs/ name only files that are in the repository — a user who clones it
 * has nothing beside it — and link only to files and anchors that are there. No file of the
 * repository reads the contract folder beside it (`SHARED` below; a clone does not have it).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const DOCS = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
/** Paths a document names in backticks: from the repository's root, under one of its folders. */
const NAMED_PATH = /`((?:examples|docs|scripts|src|test|bench|tools|bin)\/[^`\s]*|schema\.json|Pulumi\.yaml|vitest\.config\.mts|\.dependency-cruiser\.cjs)`/g;
/** Made by a command, not kept in the repository; or a pattern, not a file. */
const NOT_A_FILE = /[<>*{}…]|^(dist|dist-plugin|sdk)\//;

function read(file: string): string {
  return fs.readFileSync(path.join(ROOT, file), "utf8");
}

describe("the README and docs/", () => {
  it("name only files of the repository, and nothing beside it (the contract folder)", () => {
    const missing: string[] = [];
    for (const doc of DOCS) {
      const text = read(doc);
      expect(text, doc).not.toMatch(SHARED);
      for (const [, named] of text.matchAll(NAMED_PATH)) {
        const file = (named as string).replace(/[.,:;)]+$/, "").replace(/#.*$/, "");
        if (NOT_A_FILE.test(file)) continue;
        if (!fs.existsSync(path.join(ROOT, file))) missing.push(`${doc}: \`${file}\``);
      }
    }
    expect(missing).toEqual([]);
  });

  it("link only to files that are there, and to anchors those files have", () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      // Code (a regex in backticks) is not a link.
      const prose = read(doc).replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target as string)) continue;
        const [file, anchor] = (target as string).split("#") as [string, string | undefined];
        const resolved = file === "" ? path.join(ROOT, doc) : path.resolve(path.dirname(path.join(ROOT, doc)), file);
        if (!fs.existsSync(resolved)) {
          broken.push(`${doc}: ${target}`);
          continue;
        }
        if (anchor === undefined || !resolved.endsWith(".md")) continue;
        const text = fs.readFileSync(resolved, "utf8");
        const headings = [...text.matchAll(/^#+ (.*)$/gm)].map(([, h]) => slug(h as string));
        if (!text.includes(`id="${anchor}"`) && !headings.includes(anchor)) broken.push(`${doc}: ${target} (no such anchor)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** Where code, scripts, examples and docs live; test/fixtures holds data copied in, with its source. */
const SEARCHED = ["README.md", "docs", "src", "test", "bench", "scripts", "examples", "tools", ".ci", "package.json", "vitest.config.mts"];
const TEXT = /\.(ts|mts|cts|js|mjs|cjs|json|ya?ml|md|sh|py|go|txt)$|^run$/;
// The folder beside the repository that held the original contract; spelled in parts so that this
// guard is not itself a file naming it.
const SHARED = new RegExp(["\\.\\.", "shared\\b"].join("/"));
/** This file, which names it to look for it. */
const THIS_FILE = path.relative(ROOT, __filename);

function* textFiles(entry: string): Generator<string> {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return;
  if (fs.statSync(full).isFile()) {
    if (TEXT.test(path.basename(entry))) yield entry;
    return;
  }
  for (const child of fs.readdirSync(full)) {
    if (child === "node_modules" || child === ".build") continue;
    yield* textFiles(path.join(entry, child));
  }
}

describe("the repository", () => {
  it("reads nothing beside it: no file of its code, tests, scripts, examples or docs names the contract folder beside it", () => {
    const naming: string[] = [];
    for (const entry of SEARCHED) for (const file of textFiles(entry)) if (file !== THIS_FILE && SHARED.test(read(file))) naming.push(file);
    expect(naming).toEqual([]);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}
