import { renderBarChart } from '../src/export/html/bar-chart';
import { groupByCase } from '../src/export/html/cases';
import { escapeHtml } from '../src/export/html/escape';
import { renderReport } from '../src/export/html';
import { percentilePoints } from '../src/export/html/percentile-chart';
import { niceStep, tickLabel, zeroTicks } from '../src/export/html/scale';
import { renderTable } from '../src/export/markdown';
import { ratio } from '../src/export/format';
import type { RunDocument } from '../src/model';
import { grpcOverJson } from '../src/results';
import { buildRunDocument, FAILED_CELL, FIXTURE_CASES, FIXTURE_ERROR } from './fixtures';

/** Every chart of a kind: its case id and its markup (charts never nest svg elements). */
function charts(html: string, kind: string): Array<{ caseId: string; svg: string }> {
  const re = new RegExp(`<svg data-chart="${kind}" data-case="([^"]*)"[\\s\\S]*?</svg>`, 'g');
  return [...html.matchAll(re)].map((m) => ({ caseId: m[1], svg: m[0] }));
}

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

describe('escapeHtml', () => {
  it('escapes markup, ampersands and both quotes, and keeps non-ASCII as it is', () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;');
    expect(escapeHtml('①-2 20k×4')).toBe('①-2 20k×4');
    expect(escapeHtml('a\u0000b\u0007c\td\n')).toBe('a\ufffdb\ufffdc\td\n');
  });
});

describe('scales', () => {
  it('pick round steps and ticks from zero past the maximum', () => {
    expect([0.7, 1.3, 2.2, 3, 7, 0.03].map(niceStep)).toEqual([1, 2, 2.5, 5, 10, 0.05]);
    expect(zeroTicks(86.7)).toEqual([0, 25, 50, 75, 100]);
    expect(zeroTicks(0)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(zeroTicks(14_909).at(-1)).toBeGreaterThanOrEqual(14_909);
    expect([tickLabel(0.25, 0.25), tickLabel(15_000, 5000), tickLabel(2.5, 2.5)]).toEqual(['0.25', '15,000', '2.5']);
  });

  it('place sample i of n at percentile 100·i/(n−1)', () => {
    expect(percentilePoints([30, 10, 20])).toEqual([
      [0, 10],
      [50, 20],
      [100, 30],
    ]);
    expect(percentilePoints([7])).toEqual([
      [0, 7],
      [100, 7],
    ]);
  });
});

describe('renderBarChart', () => {
  it('draws one rect per bar, a label per transport, and writes FAILED where a bar is missing', () => {
    const svg = renderBarChart({
      kind: 'bars',
      caseId: 'x<1>',
      subheading: 'one',
      label: 'test',
      unit: 'ms',
      groups: [
        {
          label: '',
          bars: [
            { transport: 'json', value: 10, valueLabel: '10.0', tooltip: 'ten', interval: { low: 8, high: 12, tooltip: 'ci' }, marker: { value: 20, tooltip: 'blog' } },
            { transport: 'grpc', value: null, valueLabel: '—', tooltip: '', missing: { label: 'FAILED', tooltip: 'a & b', failed: true } },
          ],
        },
      ],
    });
    expect(svg).toMatch(/^<svg data-chart="bars" data-case="x&lt;1&gt;"/);
    expect(occurrences(svg, '<rect')).toBe(1);
    expect(svg).toContain('data-bar data-transport="json"');
    expect(svg).toContain('>FAILED<title>a &amp; b</title></text>');
    expect(svg).toMatch(/<text[^>]*data-label="transport"[^>]*>json<\/text>/);
    expect(svg).toMatch(/<text[^>]*data-label="transport"[^>]*>grpc<\/text>/);
    // The axis reaches the blog marker (20), the highest value drawn.
    expect(svg).toMatch(/>20<\/text>/);
  });
});

describe('renderReport', () => {
  let doc: RunDocument;
  let html: string;
  beforeAll(async () => {
    doc = await buildRunDocument();
    html = renderReport(doc);
  });

  it('is one self-contained utf-8 page: no script, no stylesheet link, nothing to fetch', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|<embed|\ssrc=|url\(|@import|@font-face/i);
    expect(html).not.toMatch(/https?:\/\//);
    for (const m of html.matchAll(/href="([^"]*)"/g)) expect(m[1]).toMatch(/^#/);
    expect(html).toContain("default-src 'none'");
  });

  it('is a pure function of the document', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    try {
      expect(renderReport(doc)).toBe(html);
    } finally {
      jest.useRealTimers();
    }
    expect(renderReport(await buildRunDocument())).toBe(html);
  });

  it('escapes every string from the document, including error messages', () => {
    expect(html).not.toContain(FIXTURE_ERROR);
    expect(html).not.toContain('<script>');
    expect(html).toContain(escapeHtml(FIXTURE_ERROR));
    expect(html).toContain('data-case="①-2"');
    expect(html).toContain('data-case="20k×4"');

    const hostile: RunDocument = {
      ...doc,
      provenance: { ...doc.provenance, gitCommit: '"><img src=x onerror=alert(1)>', note: '</pre><script>x</script>' },
      settings: { ...doc.settings, startedAt: '</title><script>1</script>', profile: "'&'" },
      results: doc.results.map((r) => ({ ...r, case: `${r.case}"<b>` })),
    };
    const page = renderReport(hostile);
    expect(page).not.toMatch(/<script|<img|<b>/);
    expect(page).toContain('data-case="①-2&quot;&lt;b&gt;"');
  });

  it('has the markdown table\'s columns and one body row per result', () => {
    const header = renderTable(doc.results).split('\n')[0].split('|').map((c) => c.trim()).filter(Boolean);
    const thead = html.match(/<table class="results"[\s\S]*?<\/thead>/)![0];
    expect([...thead.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual(header);
    const tbody = html.match(/<table class="results"[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/)![1];
    expect(occurrences(tbody, '<tr ')).toBe(doc.results.length);
    // Every row, failed or not, spans exactly the header's columns.
    for (const row of tbody.split('</tr>').filter(Boolean)) {
      const cells = [...row.matchAll(/<t[hd](?: colspan="(\d+)")?[ >]/g)].reduce((n, m) => n + Number(m[1] ?? 1), 0);
      expect(cells).toBe(header.length);
    }
  });

  it('shows FAILED with the error for the failed cell, and both ratios on each case\'s first row', () => {
    const row = html.match(new RegExp(`<tr data-case="${FAILED_CELL.case}" data-transport="grpc"[^>]*>[\\s\\S]*?</tr>`))![0];
    expect(row).toMatch(/<td colspan="\d+" class="failed">/);
    expect(row).toContain(`<strong>FAILED</strong>: ${escapeHtml(FIXTURE_ERROR)}`);
    const first = html.match(/<tr data-case="①-2" data-transport="json"[^>]*>[\s\S]*?<\/tr>/)![0];
    expect(first).toContain(`>${ratio(grpcOverJson(doc.results, '①-2'))}<`);
    expect(first).toContain('>2.00×<'); // the blog's 94.66 / 47.22
  });

  it('marks noisy cells and lists their reasons in a footnote', () => {
    const noisy = doc.results.filter((r) => r.ok && r.summary?.noisy);
    expect(noisy.length).toBeGreaterThan(0);
    expect(occurrences(html, 'class="noisy" href="#noise-')).toBe(noisy.length);
    noisy.forEach((r, i) => {
      const note = html.match(new RegExp(`<li id="noise-${i + 1}">([^<]*)</li>`))![1];
      expect(note).toBe(escapeHtml(`${r.case} ${r.transport}: ${r.summary!.noise.join('; ')}`));
    });
    expect(html).toContain('median &lt; 1 ms');
  });

  it('draws one median chart per case with a bar per ok transport, CI whiskers where known and the blog markers', () => {
    const views = groupByCase(doc.results);
    const bars = charts(html, 'bars');
    expect(bars.map((c) => c.caseId)).toEqual([...FIXTURE_CASES]);
    for (const { caseId, svg } of bars) {
      const cells = views.find((v) => v.id === caseId)!.cells;
      const ok = cells.filter((c) => c.ok);
      expect([...svg.matchAll(/<rect [^>]*data-bar data-transport="(\w+)"/g)].map((m) => m[1])).toEqual(ok.map((c) => c.transport));
      expect(occurrences(svg, 'data-interval')).toBe(ok.filter((c) => c.summary?.medianCi).length);
      expect(occurrences(svg, 'data-marker="blog"')).toBe(cells.length);
      expect(svg).toContain(`>${escapeHtml(caseId)}</text>`);
      for (const c of cells) expect(svg).toMatch(new RegExp(`data-label="transport"[^>]*>${c.transport}</text>`));
      expect(occurrences(svg, 'data-missing="failed"')).toBe(cells.length - ok.length);
    }
    // ①-3 ran 3 times: no confidence interval of the median.
    expect(doc.results.filter((r) => r.case === '①-3').every((r) => r.summary?.medianCi === null)).toBe(true);
    expect(bars.find((c) => c.caseId === '①-3')!.svg).not.toContain('data-interval');
  });

  it('has one chart per case for the distribution, cold/warm, bytes, CPU and memory', () => {
    for (const kind of ['percentiles', 'cold', 'bytes', 'cpu', 'rss']) {
      expect(charts(html, kind).map((c) => c.caseId)).toEqual([...FIXTURE_CASES]);
    }
    const dist = charts(html, 'percentiles').find((c) => c.caseId === '①-2')!.svg;
    const [json, grpc] = ['json', 'grpc'].map((t) => doc.results.find((r) => r.case === '①-2' && r.transport === t)!);
    expect(occurrences(dist, 'data-line=')).toBe(2);
    expect(occurrences(dist, 'data-point="json"')).toBe(json.samplesMs.length);
    expect(occurrences(dist, 'data-point="grpc"')).toBe(grpc.samplesMs.length);
    expect(occurrences(dist, 'data-outlier')).toBe(grpc.summary!.outliers.values.length + json.summary!.outliers.values.length);
    expect(charts(html, 'percentiles').find((c) => c.caseId === '②-3')!.svg).toContain('grpc: FAILED');

    const cold = charts(html, 'cold').find((c) => c.caseId === '①-1')!.svg;
    expect(occurrences(cold, 'data-bar')).toBe(4);
    expect(occurrences(cold, 'data-series="cold"')).toBe(2);

    const bytes = charts(html, 'bytes').find((c) => c.caseId === '①-2')!.svg;
    expect(bytes).toContain('MiB per response');
    expect(bytes).toContain('2,548,000 B per response');

    // ①-1 grpc's server reported no cost: n/a instead of a bar.
    const cpu = charts(html, 'cpu').find((c) => c.caseId === '①-1')!.svg;
    expect(occurrences(cpu, 'data-bar')).toBe(3);
    expect(cpu).toContain('data-missing="no-data" data-transport="grpc"');
    const rss = charts(html, 'rss').find((c) => c.caseId === '20k×4')!.svg;
    expect(occurrences(rss, 'data-bar')).toBe(4);
  });

  it('records how the run was made, and warns when the run is incomplete', async () => {
    expect(html).toContain('0123456789abcdef0123456789abcdef01234567');
    expect(html).toContain('uncommitted changes');
    expect(html).toContain('AMD EPYC 7B13');
    expect(html).toContain('<code>@grpc/grpc-js</code></td><td>1.14.7');
    expect(html).toContain('<dt>coldCallPerCase</dt><dd>yes</dd>');
    expect(html).not.toContain('data-warning="incomplete"');
    expect(html).toContain('data-warning="failed"');
    expect(renderReport(await buildRunDocument({ incomplete: true }))).toContain('data-warning="incomplete"');
  });
});
