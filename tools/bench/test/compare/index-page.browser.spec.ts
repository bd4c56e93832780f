/// <reference lib="dom" />
// The runs index in a real Chromium: lists runs newest first with links to their reports, and its
// in-page compare view shows exactly what bench:compare computes.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { compareKit } from '../../src/compare/compare';
import { renderReport } from '../../src/export/html';
import { renderIndex } from '../../src/compare/index-page';
import type { RunDocument } from '../../src/model/model';
import { readRun, writeIndex } from '../../src/model/runs';
import { writeFileAtomic } from '../../src/model/store';
import { describeInChromium, launchChromium, openWatched, type WatchedPage } from '../browser';
import { buildRunDocument } from '../fixtures';

jest.setTimeout(60_000);

/** The same fixture run, slowed down by `factor`, as a second run to compare against. */
function scaled(doc: RunDocument, factor: number): RunDocument {
  const copy = JSON.parse(JSON.stringify(doc)) as RunDocument;
  for (const r of copy.results) {
    if (!r.summary) continue;
    r.summary.median *= factor;
    r.summary.mean *= factor;
    r.summary.stddev *= factor;
    if (r.summary.medianCi) {
      r.summary.medianCi.low *= factor;
      r.summary.medianCi.high *= factor;
    }
  }
  return copy;
}

describeInChromium('the runs index in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let watched: WatchedPage;
  const names = ['2026-01-01T00-00-00Z', '2026-01-02T00-00-00Z', '2026-01-03T00-00-00Z'];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-index-'));
    const doc = await buildRunDocument();
    [doc, scaled(doc, 1.5), scaled(doc, 0.5)].forEach((run, i) => {
      fs.mkdirSync(path.join(dir, names[i]));
      fs.writeFileSync(path.join(dir, names[i], 'results.json'), JSON.stringify(run));
      if (i > 0) fs.writeFileSync(path.join(dir, names[i], 'report.html'), renderReport(run));
    });
    fs.mkdirSync(path.join(dir, 'not-a-run'));
    writeIndex(dir, renderIndex, writeFileAtomic);
    browser = await launchChromium();
    watched = await openWatched(browser, pathToFileURL(path.join(dir, 'index.html')).href);
  });

  afterAll(async () => {
    await browser?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads without errors or network requests', () => {
    expect(watched.errors).toEqual([]);
    expect(watched.requests).toHaveLength(1);
  });

  it('lists runs newest first, linking to the reports that exist', async () => {
    const rows = await watched.page.$$eval('#runs tbody tr', (trs) => trs.map((tr) => tr.querySelector('td')!.textContent));
    expect(rows).toEqual([...names].reverse());
    const links = await watched.page.$$eval('#runs a[href$="report.html"]', (as) => as.map((a) => a.getAttribute('href')));
    expect(links).toEqual([`${names[2]}/report.html`, `${names[1]}/report.html`]);
  });

  it('compares the two newest by default, as bench:compare does', async () => {
    const expected = compareKit().compareRuns(readRun(path.join(dir, names[1])).doc, readRun(path.join(dir, names[2])).doc);
    const verdicts = await watched.page.$$eval('#comparison tbody tr', (trs) => trs.map((tr) => (tr as HTMLTableRowElement).cells[6].textContent));
    expect(verdicts).toEqual(expected.map((row) => row.verdict));
    expect(verdicts[0]).toMatch(/times faster$/);
    // And the same Agreement line as bench:compare prints below its table.
    const kit = compareKit();
    expect(await watched.page.textContent('#agreement')).toBe(kit.describeAgreement(kit.agreement(expected)));
  });

  it('recomputes when another pair is picked', async () => {
    await watched.page.selectOption('#base', names[0]);
    await watched.page.selectOption('#head', names[1]);
    const verdicts = await watched.page.$$eval('#comparison tbody tr', (trs) => trs.map((tr) => (tr as HTMLTableRowElement).cells[6].textContent));
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts.every((v) => /^1\.50 ± \d+\.\d\d times slower$/.test(v ?? ''))).toBe(true);
  });
});
