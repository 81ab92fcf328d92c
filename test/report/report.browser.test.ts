/**
 * The report as a person sees it, in headless Chromium: the pages of real simulate runs (the demo, a
 * example scenario, a run ending in mixed states), checked for what is on screen, what the hover card
 * says, and that nothing is fetched from anywhere. Screenshots go to test-output/report/.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarize } from "../../src/engine/summary";
import type { UpdateRunStatus, UpdateState } from "../../src/model/status";
import { generateReport } from "../../src/report";
import { STATE_COLOURS } from "../../src/report/palette";
import { ReportBrowser } from "./browser";
import { DEMO_SCENARIO, GATED_SCENARIO, MIXED_STATES_SCENARIO, EXAMPLE_SCENARIOS, allMembers, simulateJson, type MemberJson } from "./fixtures";

const SCREENSHOTS = resolve(__dirname, "../../test-output/report");

/** `#2e9e5b` → `rgb(46, 158, 91)`, as the browser reports computed colours. */
function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** The page's own global, typed for what the test reads (the project compiles without the DOM library). */
declare const getComputedStyle: (element: unknown) => { backgroundColor: string; backgroundImage: string };

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();
const attributes = (page: Page, selector: string, name: string) =>
  page.locator(selector).evaluateAll((elements, attribute) => elements.map((e) => e.getAttribute(attribute)), name);
const background = (page: Page, selector: string) => page.locator(selector).first().evaluate((e) => getComputedStyle(e).backgroundColor);

/** What the hover card shows for a member's bar: the lines its tooltip is made of. */
function expectedCardLines(member: MemberJson): string[] {
  const { status } = member;
  const lines = [member.name, `State: ${status.state}`];
  if (status.startTime !== undefined) lines.push(`Start: ${status.startTime}`);
  if (status.completedTime !== undefined) lines.push(`End: ${status.completedTime}`);
  if (status.startTime !== undefined && status.completedTime !== undefined) lines.push(expect.stringMatching(/^Duration: \d/) as unknown as string);
  if (member.operationId !== undefined) lines.push(`Operation: ${member.operationId}`);
  if (member.message !== undefined) lines.push(`Message: ${member.message}`);
  if (status.error !== undefined) lines.push(`Error: ${status.error.code}: ${status.error.message}`);
  return lines;
}

describe("the report in Chromium", () => {
  let browser: ReportBrowser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await ReportBrowser.start();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  }, 60_000);

  it("shows the demo run: a row per member under its stage and group, the summary, the hover card; fetches nothing", async () => {
    const result = await simulateJson(DEMO_SCENARIO);
    const { page, url, requests } = await browser.open("demo", generateReport(result));

    const members = allMembers(result.status);
    expect(await attributes(page, ".r.m", "data-member")).toEqual(members.map((m) => m.name));
    expect(await texts(page, ".r.sg .n")).toEqual(result.status.stages.map((s) => `Stage ${s.name}`));
    expect(await texts(page, ".r.gp .n")).toEqual(result.status.stages.flatMap((s) => s.groups.map((g) => `Group ${g.name}`)));
    expect(await page.locator(".r.m").first().isVisible()).toBe(true);

    const summary = summarize(result.status as UpdateRunStatus);
    for (const state of Object.keys(STATE_COLOURS) as UpdateState[]) {
      expect(await page.locator(`tr[data-state="${state}"] td`).textContent(), state).toBe(String(summary.members[state]));
    }
    expect(await page.locator('tr[data-state="total"] td').textContent()).toBe(String(members.length));
    expect(await page.locator('tr[data-fact="outcome"] td').textContent()).toBe("Succeeded");
    expect(await page.locator('tr[data-fact="duration"] td').textContent()).toBe("1d 18h 30m (153000 s)");
    expect(await page.locator(".images").textContent()).toContain("None selected.");

    const canaryUs = members.find((m) => m.name === "canary-us")!;
    expect(await page.locator("#hovercard").isVisible()).toBe(false);
    await page.hover('[data-member="canary-us"] .bar');
    expect((await page.locator("#hovercard").innerText()).split("\n")).toEqual(expectedCardLines(canaryUs));
    await page.hover('[data-member="canary-us"] .pd');
    expect(await page.locator("#hovercard").innerText()).toContain("Message: Maintenance window closed; next opening at 2026-12-05T03:00:00Z.");
    await page.hover('[data-stage="canary"] .wait');
    expect((await page.locator("#hovercard").innerText()).split("\n")[0]).toBe("After stage canary: wait 1h");
    await page.hover("h1");
    expect(await page.locator("#hovercard").isVisible()).toBe(false);

    await page.screenshot({ path: `${SCREENSHOTS}/demo.png`, fullPage: true });
    expect(requests).toEqual([url]);
    expect(browser.foreignRequests).toEqual([]);
    await page.close();
  });

  it("colours each bar as its legend says for the member's final state, and draws the Pending periods hatched", async () => {
    const result = await simulateJson(MIXED_STATES_SCENARIO);
    const { page } = await browser.open("mixed-states", generateReport(result));
    const seen = new Set<string>();
    for (const member of allMembers(result.status)) {
      const state = member.status.state as UpdateState;
      expect(await background(page, `[data-member="${member.name}"] .chip`), member.name).toBe(rgb(STATE_COLOURS[state]));
      if (member.status.startTime === undefined && member.status.completedTime === undefined) {
        expect(await page.locator(`[data-member="${member.name}"] .bar`).count(), member.name).toBe(0);
        continue;
      }
      expect(await background(page, `[data-member="${member.name}"] .bar`), member.name).toBe(rgb(STATE_COLOURS[state]));
      expect(await background(page, `[data-legend="${state}"] .chip`)).toBe(rgb(STATE_COLOURS[state]));
      seen.add(state);
    }
    expect([...seen].sort()).toEqual(["Completed", "Failed", "Skipped"]);

    const pendingMembers = new Set(result.events.filter((e) => e.scope === "member" && e.to === "Pending").map((e) => e.name));
    expect(pendingMembers.size).toBeGreaterThan(0);
    expect(new Set(await attributes(page, ".r.m:has(.pd)", "data-member"))).toEqual(pendingMembers);
    const hatch = await page.locator(".pd").first().evaluate((e) => getComputedStyle(e).backgroundImage);
    expect(hatch).toContain("repeating-linear-gradient");
    expect(hatch).toContain(rgb(STATE_COLOURS.Pending));

    const broken = allMembers(result.status).find((m) => m.status.state === "Failed")!;
    await page.hover(`[data-member="${broken.name}"] .bar`);
    expect((await page.locator("#hovercard").innerText()).split("\n")).toEqual(expectedCardLines(broken));
    await page.screenshot({ path: `${SCREENSHOTS}/mixed-states.png`, fullPage: true });
    expect(browser.foreignRequests).toEqual([]);
    await page.close();
  });

  it("shows approval gates as markers with their details on hover", async () => {
    const result = await simulateJson(GATED_SCENARIO);
    const { page, url, requests } = await browser.open("gated", generateReport(result));
    expect(await page.locator('[data-stage="production"] .gate').count()).toBe(1);
    expect(await page.locator('[data-group="prod"] .gate').count()).toBe(1);
    await page.hover('[data-stage="production"] .gate');
    expect((await page.locator("#hovercard").innerText()).split("\n").slice(0, 2)).toEqual(["Gate Change board <CAB> before stage production", "State: Completed"]);
    await page.hover('[data-group="prod"] .gate');
    expect((await page.locator("#hovercard").innerText()).split("\n").slice(0, 2)).toEqual(["Gate Smoke tests after group prod", "State: Pending"]);
    await page.screenshot({ path: `${SCREENSHOTS}/gated.png`, fullPage: true });
    expect(requests).toEqual([url]);
    await page.close();
  });

  it("keeps the hover card inside the window at the far right of the timeline", async () => {
    const result = await simulateJson(`${EXAMPLE_SCENARIOS}/02-staged-parallel.yaml`);
    const { page, url, requests } = await browser.open("staged-parallel", generateReport(result));
    await page.hover('[data-member="eu-2"] .bar');
    const box = await page.locator("#hovercard").boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x + box!.width).toBeLessThanOrEqual(1280);
    expect(await page.locator("#hovercard").innerText()).toMatch(/^eu-2\nState: Completed\n/);
    expect(requests).toEqual([url]);
    expect(browser.foreignRequests).toEqual([]);
    await page.close();
  });

  // Last, as it makes the one foreign request of this file: the check above would catch a page that fetches.
  it("catches and blocks a page that fetches anything besides itself", async () => {
    const { page, url, requests } = await browser.open("fetching", '<!doctype html><link rel="icon" href="data:,"><img src="/pixel.png"><p>x</p>');
    await page.waitForLoadState("load");
    const origin = url.slice(0, url.lastIndexOf("/"));
    expect(requests).toEqual([url, `${origin}/pixel.png`]);
    expect(browser.foreignRequests).toEqual([`${origin}/pixel.png`]);
    await page.close();
  });
});
