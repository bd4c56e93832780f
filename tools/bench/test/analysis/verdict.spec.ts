// The verdict the reports open with: its rows from hand-made results (no benchmark), and that
// report.html and results.md put it first, from the same rows.
import { renderReport } from '../../src/export/html';
import { renderMarkdown } from '../../src/export/markdown';
import { verdict, whyLine } from '../../src/analysis/verdict';
import { renderVerdictMarkdown, verdictCells, verdictHeader } from '../../src/export/verdict';
import type { Cell, Phases, RunDocument, Transport } from '../../src/model/model';
import { phaseBreakdown } from '../../src/model/results';
import { summarize } from '../../src/model/stats';
import { handMadeCell } from '../hand-made-cell';

/** Ten samples around `median` (a CI of the median needs ≥ 6), with the phases given. */
function cell(transport: Transport, median: number, over: Partial<Cell> & { phases_?: Phases } = {}): Cell {
  const samplesMs = [-4, -3, -2, -1, 0, 0, 1, 2, 3, 4].map((d) => median * (1 + d / 100));
  const { phases_, ...rest } = over;
  return handMadeCell({
    transport,
    samplesMs,
    summary: summarize(samplesMs),
    bytes: transport === 'json' ? 2_548_000 : 1_350_000,
    bytesPerCall: transport === 'json' ? 2_548_000 : 1_350_000,
    phases: phases_ ? phaseBreakdown(samplesMs, phases_) : null,
    ...rest,
  });
}

const BIG_JSON: Phases = { serverBuildMs: 1.3, serverEncodeMs: 6.8, clientDecodeMs: 11.4 };
const BIG_GRPC: Phases = { serverBuildMs: 1.9, serverEncodeMs: 44.8, clientDecodeMs: 15.4 };

const doc = (results: Cell[]): RunDocument => ({ schemaVersion: 2, incomplete: false, provenance: {}, settings: { startedAt: 'test' }, results });

describe('verdict rows', () => {
  it('say who wins, by the ratio of medians with its range from both CIs, and why from the phases', () => {
    const json = cell('json', 30, { phases_: BIG_JSON });
    const grpc = cell('grpc', 90, { phases_: BIG_GRPC });
    const v = verdict([json, grpc]);
    expect(v.byNetwork).toBe(false);
    // The variant is a column even with one: every row says which apps it measured.
    expect(v.byVariant).toBe(true);
    expect(v.rows).toHaveLength(1);
    const [row] = v.rows;
    expect(row.cell.winner).toBe('json');
    expect(row.factor).toBeCloseTo(3, 10);
    // gRPC's CI high ÷ JSON's CI low, and the reverse: by hand from the order statistics.
    const [j, g] = [json.summary!.medianCi!, grpc.summary!.medianCi!];
    expect(row.range!.low).toBeCloseTo(g.low / j.high, 10);
    expect(row.range!.high).toBeCloseTo(g.high / j.low, 10);
    // Encode differs most (44.8 vs 6.8 ms); the remainder differs by 90−62.1 − (30−19.5) = 17.4 ms.
    expect(row.why).toBe(`server encode: gRPC 44.8 vs JSON 6.800 ms per call, 50 % of gRPC's call; 2.43 MiB vs 1.29 MiB per call`);
    expect(verdictCells(v, row)).toEqual(['blog', '①-2', 'JSON', `3.00× (${row.range!.low.toFixed(2)}–${row.range!.high.toFixed(2)})`, '30.0 vs 90.0', row.why]);
  });

  it('names the remainder when framework and transport make the gap, and gRPC when it is faster', () => {
    const small: Phases = { serverBuildMs: 0.01, serverEncodeMs: 0.02, clientDecodeMs: 0.02 };
    const v = verdict([cell('json', 3.2, { case: '②-1', phases_: small }), cell('grpc', 1.6, { case: '②-1', phases_: small })]);
    expect(v.rows[0].cell.winner).toBe('grpc');
    expect(v.rows[0].factor).toBeCloseTo(2, 10);
    expect(v.rows[0].why).toMatch(/^remainder \(framework \+ transport \+ waiting\): JSON 3\.1\d\d vs gRPC 1\.5\d\d ms per call, 98 % of JSON's call;/);
  });

  it('never compares a negative remainder: when the faster side streams, its phases overlap and sum past its call', () => {
    // Tuned ①-3 as measured: JSON 6,871 ms (build 1,000, encode 1,700, decode 2,400: remainder 1,771); gRPC
    // 2,687 ms, its paced stream encoding while it sends (build 800, encode 2,000, decode 1,200: remainder −1,313).
    const json = cell('json', 6_871, { case: '①-3', phases_: { serverBuildMs: 1_000, serverEncodeMs: 1_700, clientDecodeMs: 2_400 } });
    const grpc = cell('grpc', 2_687, { case: '①-3', phases_: { serverBuildMs: 800, serverEncodeMs: 2_000, clientDecodeMs: 1_200 } });
    const [row] = verdict([json, grpc]).rows;
    expect(row.cell.winner).toBe('grpc');
    expect(row.why).toBe('client decode: JSON 2,400 vs gRPC 1,200 ms per call, phases overlapping (a streamed reply); 2.43 MiB vs 1.29 MiB per call');
  });

  it('calls a tie within 1.1×, and says what a failed or phase-less cell is', () => {
    const tie = verdict([cell('json', 100, { phases_: BIG_JSON }), cell('grpc', 105, { phases_: BIG_GRPC })]).rows[0];
    expect(tie.cell.winner).toBe('tie');
    expect(tie.why).toMatch(/^within 1\.1×; the largest part of the two calls is remainder/);
    const failed = verdict([cell('json', 30), cell('grpc', 0, { ok: false, error: 'socket hang up', summary: null })]).rows[0];
    expect(failed.cell.winner).toBeNull();
    expect(failed.factor).toBeNull();
    expect(failed.why).toBe('gRPC failed: socket hang up');
    expect(verdict([cell('json', 30), cell('grpc', 60)]).rows[0].why).toBe('phases not recorded; 2.43 MiB vs 1.29 MiB per call');
    expect(whyLine(cell('json', 30), undefined, verdict([cell('json', 30)]).rows[0].cell)).toBe('gRPC was not measured');
  });

  it('has a row per variant, case and network, and no range where a median has no CI', () => {
    const few = (t: Transport, m: number, network: string) => handMadeCell({ transport: t, network, samplesMs: [m, m, m], summary: summarize([m, m, m]) });
    const v = verdict([few('json', 10, 'loopback'), few('grpc', 30, 'loopback'), few('json', 50, 'region'), few('grpc', 20, 'region')]);
    expect(v.byNetwork).toBe(true);
    expect(v.rows.map((r) => [r.network, r.cell.winner, r.range])).toEqual([
      ['loopback', 'json', null],
      ['region', 'grpc', null],
    ]);
    expect(verdictHeader(v)).toContain('network');
    expect(v.byRuntime).toBe(false);
  });

  it('has a row per runtime and a node column when the run had several (--node)', () => {
    const on = (t: Transport, m: number, runtime: string) => handMadeCell({ transport: t, runtime, samplesMs: [m, m, m], summary: summarize([m, m, m]) });
    const v = verdict([on('json', 10, '20'), on('grpc', 30, '20'), on('json', 20, '24'), on('grpc', 10, '24')]);
    expect(v.byRuntime).toBe(true);
    expect(v.rows.map((r) => [r.runtime, r.cell.winner])).toEqual([
      ['20', 'json'],
      ['24', 'grpc'],
    ]);
    expect(verdictHeader(v)).toContain('node');
    expect(verdictCells(v, v.rows[0])).toContain('Node 20');
  });
});

describe('the reports open with the verdict', () => {
  const results = [
    cell('json', 30, { phases_: BIG_JSON }),
    cell('grpc', 90, { phases_: BIG_GRPC }),
    cell('json', 80, { network: 'region', phases_: BIG_JSON }),
    cell('grpc', 850, { network: 'region', phases_: BIG_GRPC }),
    cell('json', 3.2, { case: '②-1', rows: 1, requests: 10 }),
    cell('grpc', 1.6, { case: '②-1', rows: 1, requests: 10 }),
  ];
  const v = verdict(results);
  const html = renderReport(doc(results));

  it('report.html: the first table is the verdict, its rows those of verdict(), and the first chart follows it', () => {
    const firstTable = html.indexOf('<table');
    expect(html.slice(firstTable, firstTable + 60)).toContain('data-table="verdict"');
    const verdictEnd = html.indexOf('</table>', firstTable);
    const firstChart = html.indexOf('<svg data-chart');
    expect(firstChart).toBeGreaterThan(verdictEnd);
    expect(html.slice(firstChart, firstChart + 40)).toContain('data-chart="verdict"');
    // Nothing else (no other table, no other chart) between the verdict table and its chart.
    expect(html.slice(verdictEnd + 8, firstChart)).not.toMatch(/<table|<svg data-chart/);
    // The details come after: the decision map and the results table.
    expect(html.indexOf('id="decision-map"')).toBeGreaterThan(firstChart);
    expect(html.indexOf('id="results"')).toBeGreaterThan(firstChart);

    const table = html.slice(firstTable, verdictEnd);
    const text = (cellHtml: string) => cellHtml.replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
    const heads = [...table.matchAll(/<th scope="col">(.*?)<\/th>/g)].map((m) => text(m[1]));
    expect(heads).toEqual(verdictHeader(v));
    const rows = table.split('<tbody>')[1].split('</tr>').filter((r) => r.includes('<t'));
    expect(rows.map((r) => [...r.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => text(m[1])))).toEqual(v.rows.map((r) => verdictCells(v, r)));
    expect(v.rows.map((r) => [r.case, r.network, r.cell.winner])).toEqual([
      ['①-2', 'loopback', 'json'],
      ['①-2', 'region', 'json'],
      ['②-1', 'loopback', 'grpc'],
    ]);
  });

  it('the verdict chart has a row per verdict row with a mark per median', () => {
    const chart = html.slice(html.indexOf('<svg data-chart="verdict"'), html.indexOf('</svg>', html.indexOf('<svg data-chart="verdict"')));
    expect(chart.match(/<g data-row=/g)).toHaveLength(v.rows.length);
    expect(chart.match(/data-point="json"/g)).toHaveLength(3);
    expect(chart.match(/data-point="grpc"/g)).toHaveLength(3);
  });

  it('results.md: the verdict table is the first thing after the title, printed from the same rows', () => {
    const md = renderMarkdown(doc(results));
    const lines = md.split('\n');
    expect(lines[0]).toBe('# gRPC vs JSON: test');
    expect(lines[2]).toBe('## Verdict: who wins, by how much, and why');
    expect(md.indexOf('|')).toBe(md.indexOf(renderVerdictMarkdown(v)));
    expect(renderVerdictMarkdown(v).split('\n').slice(2)).toEqual(v.rows.map((r) => `| ${verdictCells(v, r).join(' | ')} |`));
  });
});
