/// <reference lib="dom" />
// Opens a generated report in a real, headless Chromium from disk (file://) and checks what a reader
// would see: no errors, nothing fetched, and the charts and table the document calls for.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { renderReport } from '../../../src/export/html';
import { groupByCase } from '../../../src/export/html/cases';
import type { Cell, RunDocument } from '../../../src/model/model';
import { describeInChromium, launchChromium, openWatched, type WatchedPage } from '../../browser';
import { buildMultiVariantDocument, buildRunDocument, FIXTURE_ERROR, OVERLAP_CELL } from '../../fixtures';

jest.setTimeout(60_000);

/** Segments a cell's bar draws: four, three where parallel phases overlap (no remainder), none without phases. */
function expectedSegments(cell: Cell): number {
  if (!cell.ok || !cell.phases) return 0;
  return cell.phases.remainderMs !== null && cell.phases.remainderMs >= 0 ? 4 : 3;
}

/** One phases chart per case view, each with a rect[data-phase] per drawn phase, visible and stacked. */
async function expectPhasesCharts(page: Page, doc: RunDocument): Promise<void> {
  const views = groupByCase(doc.results);
  const ids = await page.locator('svg[data-chart="phases"]').evaluateAll((svgs) => svgs.map((s) => s.getAttribute('data-case')));
  expect(ids).toEqual(views.map((v) => v.id));
  for (const view of views) {
    const chart = page.locator(`svg[data-chart="phases"][data-case="${view.id}"]`);
    for (const cell of view.cells) {
      const rects = chart.locator(`rect[data-phase][data-transport="${cell.transport}"]`);
      expect(await rects.count()).toBe(expectedSegments(cell));
      if (!cell.ok) expect(await chart.locator(`text[data-missing="failed"][data-transport="${cell.transport}"]`).evaluate((t) => t.firstChild?.textContent)).toBe('n/a (failed)');
      // On screen the segments sit on top of each other, bottom first, with no gap.
      const boxes = await rects.evaluateAll((all) => all.map((r) => r.getBoundingClientRect()).map((b) => ({ top: b.top, bottom: b.bottom, height: b.height })));
      for (let i = 1; i < boxes.length; i++) expect(Math.abs(boxes[i].bottom - boxes[i - 1].top)).toBeLessThan(0.5);
      if (boxes.length > 0) expect(boxes[0].bottom - boxes[boxes.length - 1].top).toBeGreaterThan(20);
    }
    const overlap = view.cells.some((c) => c.ok && c.phases && c.phases.remainderMs !== null && c.phases.remainderMs < 0);
    const note = chart.locator('text[data-note="overlap"]');
    expect(await note.count()).toBe(overlap ? 1 : 0);
    if (overlap) {
      await expect(note.isVisible()).resolves.toBe(true);
      expect(await note.evaluate((t) => t.firstChild?.textContent)).toBe('phases overlap: parallel requests');
    }
  }
  // Every label shows: the transport under each bar, the case id on top.
  for (const view of views) {
    const labels = await page.locator(`svg[data-chart="phases"][data-case="${view.id}"] text`).allTextContents();
    expect(labels).toContain(view.id);
    for (const cell of view.cells) expect(labels).toContain(cell.transport);
  }
}

/** Text of every chart inside its chart's frame. */
async function textOutsideCharts(page: Page): Promise<string[]> {
  return page.locator('svg[data-chart]').evaluateAll((svgs) =>
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
}

/** Texts of one chart that overlap each other on screen (case id, labels, notes, tick labels). */
async function overlappingTexts(page: Page, kind: string): Promise<string[]> {
  return page.locator(`svg[data-chart="${kind}"]`).evaluateAll((svgs) =>
    svgs.flatMap((svg) => {
      const boxes = Array.from(svg.querySelectorAll('text')).map((t) => ({ text: t.firstChild?.textContent ?? '', box: t.getBoundingClientRect() }));
      const out: string[] = [];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i].box, boxes[j].box];
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) {
            out.push(`${svg.getAttribute('data-case')}: "${boxes[i].text}" / "${boxes[j].text}"`);
          }
        }
      }
      return out;
    }),
  );
}

/** A rendered report opened in Chromium, with a full-page screenshot, in a temporary folder. */
interface OpenedReport extends WatchedPage {
  dir: string;
  fileUrl: string;
  screenshot: string;
  browser: Browser;
}

async function openReport(doc: RunDocument, prefix: string): Promise<OpenedReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, 'report.html');
  fs.writeFileSync(file, renderReport(doc));
  const fileUrl = pathToFileURL(file).href;
  const screenshot = path.join(dir, 'report.png');
  const browser = await launchChromium();
  try {
    const watched = await openWatched(browser, fileUrl);
    await watched.page.screenshot({ path: screenshot, fullPage: true });
    return { ...watched, dir, fileUrl, screenshot, browser };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** Closes the browser and removes the folder (kept, and its path printed, with BENCH_KEEP_REPORT set). */
async function closeReport(opened: OpenedReport | undefined): Promise<void> {
  if (!opened) return;
  await opened.browser.close();
  if (process.env.BENCH_KEEP_REPORT) console.log(`report.browser.spec: kept ${opened.fileUrl} and ${opened.screenshot}`);
  else fs.rmSync(opened.dir, { recursive: true, force: true });
}

describeInChromium('the HTML report in Chromium', () => {
  let doc: RunDocument;
  let opened: OpenedReport;
  let fileUrl: string;
  let screenshot: string;
  let page: Page;
  let errors: string[];
  let requests: string[];

  beforeAll(async () => {
    doc = await buildRunDocument({ incomplete: true });
    opened = await openReport(doc, 'bench-report-');
    ({ fileUrl, screenshot, page, errors, requests } = opened);
  });

  afterAll(() => closeReport(opened));

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

  it('opens with the verdict: the first table on screen, a row per case, then its chart, then the details', async () => {
    const first = page.locator('table').first();
    expect(await first.getAttribute('data-table')).toBe('verdict');
    expect(await first.locator('tbody tr').count()).toBe(new Set(doc.results.map((r) => r.case)).size);
    expect(await page.locator('svg[data-chart]').first().getAttribute('data-chart')).toBe('verdict');
    const top = async (selector: string) => (await page.locator(selector).first().boundingBox())!.y;
    const [table, chart, results] = [await top('table[data-table="verdict"]'), await top('svg[data-chart="verdict"]'), await top('#results')];
    expect(table).toBeLessThan(chart);
    expect(chart).toBeLessThan(results);
    // The verdict is on the first screen (900 px high), not below the details.
    expect(table).toBeLessThan(900);
    // The failed cell (②-3 gRPC) has no winner and says why.
    expect(await page.locator('table[data-table="verdict"] tr[data-case="②-3"] td').last().textContent()).toMatch(/^gRPC failed: /);
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
    expect(await textOutsideCharts(page)).toEqual([]);
  });

  it('draws one phases chart per case, a rect per drawn phase, and the overlap note where parallel phases overlap', async () => {
    await expectPhasesCharts(page, doc);
    expect(await page.locator(`svg[data-chart="phases"][data-case="${OVERLAP_CELL.case}"] [data-total="${OVERLAP_CELL.transport}"]`).count()).toBe(1);
    expect(await page.locator('#phases [data-legend] span').allTextContents()).toEqual([
      'server build',
      'server encode',
      'client decode',
      'remainder (framework + transport + waiting)',
      'mean call time, where the phases drawn do not add up to it',
    ]);
    expect(await overlappingTexts(page, 'phases')).toEqual([]);
    expect(await page.locator('#variants').count()).toBe(0);
  });
});

describeInChromium('the HTML report of several variants in Chromium', () => {
  let doc: RunDocument;
  let opened: OpenedReport;
  let fileUrl: string;
  let page: Page;
  let errors: string[];
  let requests: string[];

  beforeAll(async () => {
    doc = await buildMultiVariantDocument();
    opened = await openReport(doc, 'bench-report-variants-');
    ({ fileUrl, page, errors, requests } = opened);
  });

  afterAll(() => closeReport(opened));

  it('loads without errors and fetches nothing but the file itself', () => {
    expect(errors).toEqual([]);
    expect(requests).toEqual([fileUrl]);
  });

  it('shows the variants table: a row per case × transport, medians per variant and the ratios', async () => {
    const table = page.locator('#variants table[data-table="variants"]');
    await expect(table.isVisible()).resolves.toBe(true);
    expect(await table.locator('thead th').allTextContents()).toEqual([
      'case',
      'transport',
      'blog median ms',
      'tuned median ms',
      'bare median ms',
      'blog ÷ bare',
      'tuned ÷ blog',
      'tuned ÷ bare',
    ]);
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent)));
    expect(rows).toEqual([
      ['①-2', 'json', '26.3', '22.9', '22.2', '1.18×', '0.87×', '1.03×'],
      ['①-2', 'grpc', '79.3', '20.6', '76.7', '1.03×', '0.26×', '0.27×'],
      ['20k×4', 'json', '235.5', '—', '227.3', '1.04×', '—', '—'],
      ['20k×4', 'grpc', '644.4', '194.3', '676.5', '0.95×', '0.30×', '0.29×'],
    ]);
    expect(await page.locator('nav a[href="#variants"]').textContent()).toBe('Variants');
  });

  it('draws one phases chart per case and variant, with a rect per drawn phase', async () => {
    expect(await page.locator('svg[data-chart="phases"]').count()).toBe(6);
    await expectPhasesCharts(page, doc);
    expect(await overlappingTexts(page, 'phases')).toEqual([]);
  });

  it('keeps every chart\'s text inside its chart', async () => {
    expect(await textOutsideCharts(page)).toEqual([]);
  });
});

