#!/usr/bin/env node
// Development only: a full-page PNG of an HTML file in headless Debian chromium (as the browser test
// drives it). Makes docs/report.png:
//   node dist/cli/main.js simulate examples/demo/scenario.yaml --json > /tmp/demo.json
//   node dist/cli/main.js report /tmp/demo.json -o /tmp/demo.html
//   node scripts/screenshot.js /tmp/demo.html docs/report.png
const path = require("node:path");
const { chromium } = require("playwright-core");

async function main([html, png, width = "1280"]) {
  if (html === undefined || png === undefined) throw new Error("usage: screenshot.js PAGE.html OUT.png [WIDTH]");
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: Number(width), height: 600 } });
    await page.goto(`file://${path.resolve(html)}`);
    await page.screenshot({ path: png, fullPage: true });
  } finally {
    await browser.close();
  }
}

main(process.argv.slice(2)).catch((e) => {
  process.stderr.write(`screenshot: ${e.message}\n`);
  process.exitCode = 1;
});
