import { PHASE_KEYS, variantRatios } from '../../../src/analysis/breakdown';
import { renderVariantRatios } from '../../../src/export/breakdown';
import { renderBarChart } from '../../../src/export/html/bar-chart';
import { groupByCase } from '../../../src/export/html/cases';
import { escapeHtml } from '../../../src/export/html/escape';
import { renderReport } from '../../../src/export/html';
import { percentilePoints } from '../../../src/export/html/percentile-chart';
import { niceStep, tickLabel, zeroTicks } from '../../../src/export/html/scale';
import { renderTable } from '../../../src/export/markdown';
import { ms, ratio } from '../../../src/model/format';
import type { Cell, RunDocument } from '../../../src/model/model';
import { grpcOverJson } from '../../../src/model/results';
import { buildMultiVariantDocument, buildRunDocument, FAILED_CELL, FIXTURE_CASES, FIXTURE_ERROR, MULTI_FAILED_CELL, OVERLAP_CELL } from '../../fixtures';

/** Every chart of a kind: its case id and its markup (charts never nest svg elements). */
function charts(html: string, kind: string): Array<{ caseId: string; svg: string }> {
  const re = new RegExp(`<svg data-chart="${kind}" data-case="([^"]*)"[\\s\\S]*?</svg>`, 'g');
  return [...html.matchAll(re)].map((m) => ({ caseId: m[1], svg: m[0] }));
}

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1] ?? null;

/** The phase segments of a phases chart, in document order (bottom first within each bar). */
function segments(svg: string) {
  return [...svg.matchAll(/<rect [^>]*data-phase="[^"]*"[^>]*>(?:<title>([^<]*)<\/title>)?/g)].map((m) => ({
    phase: attr(m[0], 'data-phase')!,
    transport: attr(m[0], 'data-transport')!,
    value: Number(attr(m[0], 'data-value')),
    y: Number(attr(m[0], 'y')),
    height: Number(attr(m[0], 'height')),
    tooltip: m[1] ?? '',
  }));
}

/** Which phases a cell's bar should draw: all four, the three measured ones where they overlap, none without phases. */
function expectedPhases(cell: Cell): string[] {
  if (!cell.ok || !cell.phases) return [];
  return cell.phases.remainderMs !== null && cell.phases.remainderMs >= 0 ? [...PHASE_KEYS] : ['build', 'encode', 'decode'];
}

/** Segments stacked from the zero line without gaps, every height the same multiple of its value. */
function expectStacked(svg: string) {
  const all = segments(svg);
  const largest = all.reduce((a, b) => (b.value > a.value ? b : a));
  const scale = largest.height / largest.value;
  const zero = Number(svg.match(/<line x1="[^"]*" y1="([^"]*)" x2="[^"]*" y2="[^"]*" stroke="#222222"/)![1]);
  for (const transport of new Set(all.map((s) => s.transport))) {
    let bottom = zero;
    for (const s of all.filter((x) => x.transport === transport)) {
      expect(s.height).toBeGreaterThanOrEqual(0);
      expect(Math.abs(s.height - s.value * scale)).toBeLessThan(0.02);
      expect(Math.abs(s.y + s.height - bottom)).toBeLessThan(0.02);
      bottom = s.y;
    }
  }
}

/** The header and body cells of the variants table, as text. */
function variantsTable(html: string): { header: string[]; rows: string[][] } {
  const table = html.match(/<table class="variants" data-table="variants">[\s\S]*?<\/table>/)![0];
  const cells = (row: string) => [...row.matchAll(/<t[hd][^>]*>([^<]*)<\/t[hd]>/g)].map((m) => m[1]);
  const head = table.match(/<thead>[\s\S]*?<\/thead>/)![0];
  const body = table.match(/<tbody>([\s\S]*?)<\/tbody>/)![1];
  return { header: cells(head), rows: body.split('</tr>').filter(Boolean).map(cells) };
}

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
      settings: { ...doc.settings, startedAt: '</title><script>1</script>', preset: "'&'" },
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
    expect(occurrences(cold, 'data-bar')).toBe(6);
    expect(occurrences(cold, 'data-series="cold"')).toBe(2);
    expect(occurrences(cold, 'data-series="warmup-first"')).toBe(2);
    expect(cold).toContain('first warm-up call (connection already open; 1 warm-up call in all)');

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

  it('draws a phases chart per case: a stacked segment per phase, heights adding up to the mean call time', () => {
    const views = groupByCase(doc.results);
    const phases = charts(html, 'phases');
    expect(phases.map((c) => c.caseId)).toEqual([...FIXTURE_CASES]);
    for (const { caseId, svg } of phases) {
      const cells = views.find((v) => v.id === caseId)!.cells;
      const drawn = segments(svg);
      for (const cell of cells) {
        const mine = drawn.filter((s) => s.transport === cell.transport);
        expect(mine.map((s) => s.phase)).toEqual(expectedPhases(cell));
        if (cell.ok && cell.phases!.remainderMs! >= 0) {
          // Four segments that add up to the mean call time exactly.
          expect(mine.reduce((a, s) => a + s.value, 0)).toBeCloseTo(cell.phases!.totalMs, 9);
          expect(cell.phases!.totalMs).toBeCloseTo(cell.samplesMs.reduce((a, b) => a + b, 0) / cell.samplesMs.length, 9);
        }
      }
      for (const s of drawn) expect(s.tooltip).toMatch(/^(json|grpc), (server build|server encode|client decode|remainder \(framework \+ transport \+ waiting\)): [\d.,]+ ms per call, \d+\.\d% of the [\d.,]+ ms mean call$/);
      expectStacked(svg);
      expect(svg).not.toMatch(/(height|width)="-/);
      for (const c of cells) expect(svg).toMatch(new RegExp(`data-label="transport"[^>]*>${c.transport}</text>`));
    }
    // Every ok cell has phases: all but the overlapping one draw four segments.
    expect(phases.reduce((n, c) => n + segments(c.svg).length, 0)).toBe(4 * doc.results.filter((r) => r.ok).length - 1);
    // The legend names the four phases.
    const section = html.match(/<section id="phases" data-section="phases">[\s\S]*?<div class="grid">/)![0];
    expect(section).toContain('<h2>Where the time goes</h2>');
    for (const label of ['server build', 'server encode', 'client decode', 'remainder (framework + transport + waiting)']) expect(section).toContain(`</svg>${label}</span>`);
    expect(html).toContain('<a href="#phases">Where the time goes</a>');
  });

  it('draws the measured phases only where they overlap (negative remainder), with a note and the mean as a dashed level', () => {
    const overlap = doc.results.filter((r) => r.ok && r.phases!.remainderMs! < 0);
    expect(overlap.map((r) => `${r.case} ${r.transport}`)).toEqual([`${OVERLAP_CELL.case} ${OVERLAP_CELL.transport}`]);
    const p = overlap[0].phases!;
    const svg = charts(html, 'phases').find((c) => c.caseId === OVERLAP_CELL.case)!.svg;
    expect(svg).toMatch(/<text [^>]*data-note="overlap"[^>]*>phases overlap: parallel requests<title>/);
    expect(occurrences(svg, 'data-phase="remainder" data-transport="json"')).toBe(0);
    expect(occurrences(svg, 'data-phase="remainder" data-transport="grpc"')).toBe(1);
    expect(svg).toContain(`<g data-total="json"><title>json: mean call ${ms(p.totalMs)} ms; the phases drawn add up to 247.4 ms, `);
    // 56.2 + 70 + 121.2 = 247.4 ms drawn: the axis goes past it, though the mean call is ~216 ms.
    expect(p.totalMs).toBeLessThan(247.4);
    expect(Number([...svg.matchAll(/text-anchor="end">([\d,.]+)<\/text>/g)].at(-1)![1].replace(',', ''))).toBeGreaterThanOrEqual(247.4);
    expect(occurrences(svg, 'data-total=')).toBe(1);
    for (const c of charts(html, 'phases').filter((x) => x.caseId !== OVERLAP_CELL.case)) {
      expect(c.svg).not.toContain('data-note');
      expect(c.svg).not.toContain('data-total');
    }
  });

  it('writes n/a where a cell has no phases: failed, or a document from before phases were measured', () => {
    const failed = charts(html, 'phases').find((c) => c.caseId === FAILED_CELL.case)!.svg;
    expect(failed).toContain(`data-missing="failed" data-transport="grpc">n/a (failed)<title>grpc failed: ${escapeHtml(FIXTURE_ERROR)}</title></text>`);
    expect(occurrences(failed, 'data-transport="grpc"')).toBe(1);

    // An older document: no phases field at all.
    const old: RunDocument = { ...doc, results: doc.results.map(({ phases: _, ...r }) => r as Cell) };
    const page = renderReport(old);
    const none = charts(page, 'phases');
    expect(none.map((c) => c.caseId)).toEqual([...FIXTURE_CASES]);
    expect(occurrences(page, 'data-phase=')).toBe(0);
    expect(none.reduce((n, c) => n + occurrences(c.svg, 'data-missing="no-data"'), 0)).toBe(doc.results.filter((r) => r.ok).length);
    expect(none.reduce((n, c) => n + occurrences(c.svg, '>n/a<title>'), 0)).toBe(doc.results.filter((r) => r.ok).length);
  });

  it('has no variants section when the run has one variant', () => {
    expect(html).not.toContain('id="variants"');
    expect(html).not.toContain('href="#variants"');
    expect(html).not.toContain('data-table="variants"');
  });
});

describe('renderReport with several variants', () => {
  let doc: RunDocument;
  let html: string;
  beforeAll(async () => {
    doc = await buildMultiVariantDocument();
    html = renderReport(doc);
  });

  it('has a variants table: medians per variant and the ratios, as computed by hand', () => {
    expect(html).toContain('<a href="#variants">Variants</a>');
    expect(html).toContain('<section id="variants" data-section="variants"><h2>Variants</h2>');
    const { header, rows } = variantsTable(html);
    expect(header).toEqual(['case', 'transport', 'blog median ms', 'tuned median ms', 'bare median ms', 'blog ÷ bare', 'tuned ÷ blog', 'tuned ÷ bare']);
    expect(rows).toEqual([
      // 26.3 / 22.2 = 1.185, 22.9 / 26.3 = 0.871, 22.9 / 22.2 = 1.032
      ['①-2', 'json', '26.3', '22.9', '22.2', '1.18×', '0.87×', '1.03×'],
      // 79.3 / 76.7 = 1.034, 20.6 / 79.3 = 0.260, 20.6 / 76.7 = 0.269
      ['①-2', 'grpc', '79.3', '20.6', '76.7', '1.03×', '0.26×', '0.27×'],
      // tuned failed: 235.5 / 227.3 = 1.036 only
      ['20k×4', 'json', '235.5', '—', '227.3', '1.04×', '—', '—'],
      // 644.4 / 676.5 = 0.953, 194.3 / 644.4 = 0.302, 194.3 / 676.5 = 0.287
      ['20k×4', 'grpc', '644.4', '194.3', '676.5', '0.95×', '0.30×', '0.29×'],
    ]);
    expect(html).toMatch(/<td class="num" data-ratio="tuned\/blog" title="tuned median ÷ blog median = 20\.6 ÷ 79\.3 ms = 0\.2598">0\.26×<\/td>/);
  });

  it('computes the rows once for the Markdown and the HTML tables', () => {
    const table = variantRatios(doc.results)!;
    expect(table.variants).toEqual(['blog', 'tuned', 'bare']);
    expect(table.pairs).toEqual([['blog', 'bare'], ['tuned', 'blog'], ['tuned', 'bare']]);
    expect(table.rows[0].medians).toEqual([26.3, 22.9, 22.2]);
    expect(table.rows[0].ratios.map((r) => r!)).toEqual([expect.closeTo(1.18468, 5), expect.closeTo(0.87072, 5), expect.closeTo(1.03153, 5)]);
    expect(table.rows[2].ratios).toEqual([expect.closeTo(1.03608, 5), null, null]);
    expect(variantRatios(doc.results.filter((r) => r.variant === 'blog'))).toBeNull();
    // The Markdown table shows the same cells.
    const md = renderVariantRatios(doc.results).split('\n').slice(2).map((line) => line.split('|').slice(1, -1).map((c) => c.trim()));
    expect(md).toEqual(variantsTable(html).rows);
  });

  it('keeps the networks of a run across several apart, a row each, with a network column', () => {
    const across = doc.results.map((r) => ({ ...r, network: 'region', summary: r.summary && { ...r.summary, median: r.summary.median * 10 } }));
    const table = variantRatios([...doc.results, ...across])!;
    expect(table.networks).toEqual(['loopback', 'region']);
    expect(table.rows).toHaveLength(8);
    const regionFirst = table.rows.find((r) => r.network === 'region')!;
    expect([regionFirst.case, regionFirst.transport]).toEqual(['①-2', 'json']);
    expect(regionFirst.medians).toEqual([263, 229, 222]);
    expect(table.rows[0].medians).toEqual([26.3, 22.9, 22.2]);
    const md = renderVariantRatios([...doc.results, ...across]).split('\n');
    expect(md[0]).toMatch(/^\| network \| case \| transport \|/);
    expect(md[2]).toMatch(/^\| loopback \| ①-2 \| json \|/);
  });

  it('draws a phases chart per case and variant, n/a for the failed cell, the overlap note where phases overlap', () => {
    const views = groupByCase(doc.results);
    const phases = charts(html, 'phases');
    expect(phases.map((c) => c.caseId)).toEqual(['①-2 · blog', '20k×4 · blog', '①-2 · tuned', '20k×4 · tuned', '①-2 · bare', '20k×4 · bare']);
    for (const { caseId, svg } of phases) {
      const cells = views.find((v) => v.id === caseId)!.cells;
      for (const cell of cells) expect(segments(svg).filter((s) => s.transport === cell.transport).map((s) => s.phase)).toEqual(expectedPhases(cell));
      expectStacked(svg);
    }
    const notes = phases.filter((c) => c.svg.includes('data-note="overlap"')).map((c) => c.caseId);
    expect(notes).toEqual(['20k×4 · blog', '20k×4 · bare']);
    expect(phases.find((c) => c.caseId === `${MULTI_FAILED_CELL.case} · ${MULTI_FAILED_CELL.variant}`)!.svg).toContain(
      'data-missing="failed" data-transport="json">n/a (failed)<title>json failed: socket hang up</title>',
    );
    // Tooltips with exact values and shares: blog ①-2 json's call is 26.3 ms on average.
    const blog = segments(phases[0].svg).filter((s) => s.transport === 'json').map((s) => s.tooltip);
    expect(blog).toEqual([
      'json, server build: 1.052 ms per call, 4.0% of the 26.3 ms mean call',
      'json, server encode: 5.786 ms per call, 22.0% of the 26.3 ms mean call',
      'json, client decode: 9.994 ms per call, 38.0% of the 26.3 ms mean call',
      // 26.3 − 1.052 − 5.786 − 9.994
      'json, remainder (framework + transport + waiting): 9.468 ms per call, 36.0% of the 26.3 ms mean call',
    ]);
  });
});
