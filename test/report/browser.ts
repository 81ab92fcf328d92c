/**
 * Headless Chromium for the report's browser test: Debian's `/usr/bin/chromium` driven by
 * playwright-core (no browser download), a fresh profile, and a 127.0.0.1 server that serves the pages
 * under test and nothing else. Every request a page makes is recorded; any request to another URL is
 * aborted, and the test asserts there was none.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export class ReportBrowser {
  /** Requests any page made for something other than its own document. */
  readonly foreignRequests: string[] = [];
  private constructor(
    private readonly pages: Map<string, string>,
    private readonly context: BrowserContext,
    private readonly server: Server,
    private readonly profile: string,
    private readonly origin: string,
  ) {}

  static async start(): Promise<ReportBrowser> {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does`);
    const pages = new Map<string, string>();
    const server = createServer((request, response) => {
      const html = pages.get(request.url ?? "");
      response.writeHead(html === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" }).end(html ?? "");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const profile = mkdtempSync(join(tmpdir(), "fleet-update-chromium-"));
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 800 } });
    const browser = new ReportBrowser(pages, context, server, profile, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    await context.route("**/*", async (route) => {
      const url = route.request().url();
      if (browser.isServedPage(url)) return route.continue();
      browser.foreignRequests.push(url);
      return route.abort();
    });
    return browser;
  }

  /** Serve `html` as `/<name>.html` and open it in a new tab; `requests` lists every request the tab makes. */
  async open(name: string, html: string): Promise<{ page: Page; url: string; requests: string[] }> {
    const path = `/${name}.html`;
    this.pages.set(path, html);
    const page = await this.context.newPage();
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    const url = `${this.origin}${path}`;
    const response = await page.goto(url, { waitUntil: "load" });
    if (response?.status() !== 200) throw new Error(`${url}: HTTP ${response?.status()}`);
    return { page, url, requests };
  }

  async close(): Promise<void> {
    await this.context.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.profile, { recursive: true, force: true });
  }

  private isServedPage(url: string): boolean {
    return url.startsWith(`${this.origin}/`) && this.pages.has(url.slice(this.origin.length));
  }
}
