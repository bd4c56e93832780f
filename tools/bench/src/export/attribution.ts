// The attribution table (issue #23) as results.md and report.html print it: rows from attribution(),
// never recomputed here.
import { type Cell, placeLabeller, bytes } from '../model';
import { FACTORS, type Attribution, type Factor } from '../analysis';

/** One factor as a table cell: the ratio and its 95 % bootstrap CI, or why there is none. */
export function factorCell(factor: Factor): string {
  if (factor.ratio === null) return `— (${factor.missing ?? 'not measured'})`;
  const ci = factor.ci ? ` (${factor.ci.low.toFixed(2)}–${factor.ci.high.toFixed(2)})` : '';
  return `${factor.ratio.toFixed(2)}×${ci}`;
}

/** The table's header: variant and network only when the rows have several. */
export function attributionHeader(a: Attribution): string[] {
  return [...(a.byVariant ? ['variant'] : []), ...(a.byNetwork ? ['network'] : []), 'case', ...FACTORS.map((f) => f.label)];
}

export function attributionCells(a: Attribution, row: Attribution['rows'][number]): string[] {
  return [...(a.byVariant ? [row.variant] : []), ...(a.byNetwork ? [row.network] : []), row.case, ...row.factors.map(factorCell)];
}

/** How to read it, in one paragraph (both exporters print it under the table). */
export function attributionNote(a: Attribution): string {
  const unavailable = a.unavailable.map((u) => `${u.id}: ${u.reason}`).join('; ');
  return (
    'Each factor is a ratio of two medians of this run that differ in one thing (' +
    FACTORS.map((f) => `${f.id}: ${f.differs}`).join('; ') +
    '); above 1 the first is slower. In brackets the 95 % bootstrap CI of the ratio (both cells resampled, 2,000 times). ' +
    'In the blog variant json-h2 is served by Fastify and json by Express, so its protocol factor also carries the framework; the tuned variant serves both with Fastify.' +
    (unavailable ? ` Not in this run: ${unavailable}.` : '')
  );
}

export function renderAttributionMarkdown(a: Attribution): string {
  const header = attributionHeader(a);
  const row = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [row(header), `|${header.map(() => '---').join('|')}|`, ...a.rows.map((r) => row(attributionCells(a, r)))].join('\n');
}

/**
 * The HTTP/2 receive windows each transport's client session really had (read back by the client), one
 * entry per variant and transport that reported them: "json-h2 (blog): stream 64.0 KiB, connection 64.0 KiB".
 */
export function describeWindows(results: readonly Cell[]): string[] {
  const seen = new Map<string, string>();
  const placeOf = placeLabeller(results);
  for (const r of results) {
    if (!r.http2Windows) continue;
    const where = placeOf(r) === 'loopback' ? r.variant : `${r.variant}, ${placeOf(r)}`;
    seen.set(`${r.transport} (${where})`, `stream ${bytes(r.http2Windows.streamBytes)}, connection ${bytes(r.http2Windows.connectionBytes)}`);
  }
  return [...seen].map(([key, value]) => `${key}: ${value}`);
}

/** results.md's section: heading, table, note and windows, or nothing when the run has no decomposition transports. */
export function renderAttributionSection(a: Attribution, results: readonly Cell[] = []): string[] {
  if (a.rows.length === 0) return [];
  const windows = describeWindows(results);
  return [
    '## Why, decomposed: protocol × codec × library',
    '',
    renderAttributionMarkdown(a),
    '',
    attributionNote(a),
    '',
    ...(windows.length > 0 ? [`HTTP/2 receive windows, read back from each client session: ${windows.join('; ')}.`, ''] : []),
  ];
}
