/// <reference lib="dom" />
// Opens a generated report in a real, headless Chromium from disk (file://) and checks what a reader
// would see: no errors, nothing fetched, and the charts and table the document calls for.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { renderReport } from '../src/export/html';
import { groupByCase } from '../src/export/html/cases';
import type { RunDocument } from '../src/model';
import { describeInChromium, launchChromium, openWatched } from './browser';
import { buildRunDocument, FIXTURE_ERROR } from './fixtures';

jest.setTimeout(60_000);

describeInChromium('the HTML report in Chromium', () => {
  let dir: string;
  let doc: RunDocument;
  let fileUrl: string;
  let screenshot: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let requests: string[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-report-'));
    doc = await buildRunDocument({ incomplete: true });
    const file = path.join(dir, 'report.html');
    fs.writeFileSync(file, renderReport(doc));
    fileUrl = pathToFileURL(file).href;
    screenshot = path.join(dir, 'report.png');

    browser = await launchChromium();
    ({ page, errors, requests } = await openWatched(browser, fileUrl));
    await page.screenshot({ path: screenshot, fullPage: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (process.env.BENCH_KEEP_REPORT) console.log(`report.browser.spec: kept ${fileUrl} and ${screenshot}`);
    else if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads without errors and fetches nothing but the file itself', () => {
    expect(errors).toEqual([]);
    expect(requests).toEqual([fileUrl]);
    expect(fs.statSync(screenshot).size).toBeGreaterThan(10_000);
  });

  it('runs no script, shows the run as incomplete and the failed cell\'s error as text', async () => {
    expect(await page.locator('script').count()).toBe(0);
    await expect(page.locator('[data-warning="incomplete"]').isVisible()).resolves.toBe(true);
    expect(await page.locator('td.failed').first().textContent()).toBe(`FAILED: ${FIXTURE_ERROR}`);
    expect(await page.title()).toContain('2026-11-21T10:43:20.997Z');
  });

  it('has one body row per result in the table', async () => {
    expect(await page.locator('table[data-table="results"] > tbody > tr').count()).toBe(doc.results.length);
  });

  it('draws one median bar chart per case, with one bar per ok transport', async () => {
    const views = groupByCase(doc.results);
    const charts = page.locator('svg[data-chart="bars"]');
    expect(await charts.count()).toBe(new Set(doc.results.map((r) => r.case)).size);
    for (const view of views) {
      const chart = page.locator(`svg[data-chart="bars"][data-case="${view.id}"]`);
      expect(await chart.count()).toBe(1);
      const bars = chart.locator('rect[data-bar]');
      const ok = view.cells.filter((c) => c.ok).map((c) => c.transport);
      expect(await bars.evaluateAll((rects) => rects.map((r) => r.getAttribute('data-transport')))).toEqual(ok);
      // Laid out and visible: every bar has a height on screen.
      for (const box of await bars.evaluateAll((rects) => rects.map((r) => (r as SVGGraphicsElement).getBoundingClientRect().height))) {
        expect(box).toBeGreaterThan(1);
      }
      const labels = await chart.locator('text').allTextContents();
      expect(labels).toContain(view.id);
      for (const cell of view.cells) expect(labels).toContain(cell.transport);
    }
  });

  it('draws every other chart once per case, each labelled with its case id', async () => {
    const cases = [...new Set(doc.results.map((r) => r.case))];
    for (const kind of ['percentiles', 'cold', 'bytes', 'cpu', 'rss']) {
      const ids = await page.locator(`svg[data-chart="${kind}"]`).evaluateAll((svgs) => svgs.map((s) => s.getAttribute('data-case')));
      expect(ids).toEqual(cases);
      const labelled = await page
        .locator(`svg[data-chart="${kind}"]`)
        .evaluateAll((svgs) => svgs.every((s) => Array.from(s.querySelectorAll('text')).some((t) => t.textContent === s.getAttribute('data-case'))));
      expect(labelled).toBe(true);
    }
  });

  it('keeps every chart\'s text inside its chart', async () => {
    const outside = await page.locator('svg[data-chart]').evaluateAll((svgs) =>
      svgs.flatMap((svg) => {
        const frame = svg.getBoundingClientRect();
        return Array.from(svg.querySelectorAll('text'))
          .filter((t) => {
            const b = t.getBoundingClientRect();
            return b.left < frame.left - 0.5 || b.right > frame.right + 0.5 || b.top < frame.top - 0.5 || b.bottom > frame.bottom + 0.5;
          })
          .map((t) => `${svg.getAttribute('data-chart')} ${svg.getAttribute('data-case')}: "${t.textContent}"`);
      }),
    );
    expect(outside).toEqual([]);
  });
});
