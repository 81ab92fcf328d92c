#!/usr/bin/env node
/**
 * `node mutation/report.mjs [report.json]`: the last mutation run (reports/mutation/mutation.json) as
 * the per-file table of docs/bench.md "Mutation testing", then every mutant left Survived or NoCoverage
 * that `stryker.config.mjs` does not list as an equivalent survivor (`equivalentSurvivors`), each with
 * its place and replacement: what a session must kill, list, or name as a known gap. It exits 1 when
 * there is such a mutant, or when a listed survivor no longer survives (the list went stale).
 */
import fs from "node:fs";
import { equivalentSurvivors } from "../stryker.config.mjs";

const file = process.argv[2] ?? "reports/mutation/mutation.json";
const report = JSON.parse(fs.readFileSync(file, "utf8"));

const rows = [];
const unlisted = [];
const used = new Set();
for (const [name, result] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const count = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, CompileError: 0, RuntimeError: 0 };
  let listed = 0;
  const source = result.source.split("\n");
  for (const m of result.mutants) {
    count[m.status] = (count[m.status] ?? 0) + 1;
    if (m.status !== "Survived" && m.status !== "NoCoverage") continue;
    const line = m.location.start.line;
    const entry = equivalentSurvivors.find((e) => e.file === name && source[line - 1]?.includes(e.code) && e.mutator === m.mutatorName && (e.replacement === undefined || e.replacement === m.replacement));
    if (entry !== undefined) {
      listed++;
      used.add(entry);
      continue;
    }
    unlisted.push(`${name}:${line}:${m.location.start.column} ${m.status} ${m.mutatorName}: ${JSON.stringify(m.replacement ?? "").slice(0, 120)}`);
  }
  const detected = count.Killed + count.Timeout;
  const valid = detected + count.Survived + count.NoCoverage;
  const score = valid === 0 ? 100 : (100 * detected) / valid;
  const withListed = valid === 0 ? 100 : (100 * (detected + listed)) / valid;
  rows.push({ name, ...count, listed, score, withListed });
}

const pct = (n) => `${n.toFixed(1)}%`;
console.log("| file | killed | timeout | survived | no coverage | ignored (equivalent) | survivors listed as equivalent | score | score, listed survivors as equivalent |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.name} | ${r.Killed} | ${r.Timeout} | ${r.Survived} | ${r.NoCoverage} | ${r.Ignored} | ${r.listed} | ${pct(r.score)} | ${pct(r.withListed)} |`);
const sum = (k) => rows.reduce((n, r) => n + r[k], 0);
const detected = sum("Killed") + sum("Timeout");
const valid = detected + sum("Survived") + sum("NoCoverage");
console.log(`| **all ${rows.length} files** | ${sum("Killed")} | ${sum("Timeout")} | ${sum("Survived")} | ${sum("NoCoverage")} | ${sum("Ignored")} | ${sum("listed")} | **${pct((100 * detected) / valid)}** | **${pct((100 * (detected + sum("listed"))) / valid)}** |`);

const stale = equivalentSurvivors.filter((e) => report.files[e.file] !== undefined && !used.has(e));
if (unlisted.length > 0) console.log(`\nSurvivors not listed (${unlisted.length}):\n${unlisted.join("\n")}`);
if (stale.length > 0) console.log(`\nListed survivors that no longer survive (${stale.length}):\n${stale.map((e) => `${e.file}: ${e.mutator} in ${e.code}`).join("\n")}`);
process.exitCode = unlisted.length > 0 || stale.length > 0 ? 1 : 0;
