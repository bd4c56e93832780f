import { RUN_EXPORTERS, renderReport } from '../../src/export';
import { rankingTerminalLines, renderRankingCsv, renderRankingSection, shortReason } from '../../src/export/ranking';
import { renderRunEnd } from '../../src/export';
import { summarize } from '../../src/model/stats';
import type { Cell, RunDocument } from '../../src/model';
import { handMadeCell } from '../hand-made-cell';

// ①-1 over three transports at region: JSON fastest, Redis through its broker, NATS refused by its broker.
const timed = (transport: Cell['transport'], samplesMs: number[], extra: Partial<Cell> = {}) =>
  handMadeCell({ network: 'region', case: '①-1', transport, rows: 1, samplesMs, summary: summarize(samplesMs), client: { cpuUserMs: 2, cpuSystemMs: 0, peakRssBytes: 1 }, server: { cpuUserMs: 2, cpuSystemMs: 0, peakRssBytes: 1 }, ...extra });
const json = timed('json', [20, 20.5, 21, 21.5, 22, 22.5, 23]);
const redis = timed('nest-redis', [60, 61, 62, 63, 64, 65, 66], { broker: { kind: 'redis', calls: 7, cpuMs: 1.4, peakRssBytes: 1, counters: null } });
const nats = handMadeCell({ network: 'region', case: '①-1', transport: 'nest-nats', ok: false, error: 'NATS: maximum payload exceeded', samplesMs: [], summary: null });
const results = [json, redis, nats];
const doc = {
  schemaVersion: 3,
  incomplete: false,
  settings: { startedAt: '2026-11-29T00:00:00Z', cases: ['①-1'], transports: ['json', 'nest-redis', 'nest-nats'], runs: 7, warmup: 1, clientUrl: null },
  provenance: { gitCommit: 'abc', gitDirty: false, hostname: 'h', loadAverage: [0], memoryReclaim: null, bench: { node: 'v24' }, arguments: [], networks: {} },
  results,
} as unknown as RunDocument;

describe('every transport ranked, exported', () => {
  it('results.md: a row per cell, fastest first, its factor with the CI range, CPU per 1,000 calls with the broker’s part, the failure’s reason', () => {
    const md = renderRankingSection(results).join('\n');
    expect(md).toContain('## Every transport ranked, per case');
    expect(md).toMatch(/\| region \| blog \| ①-1 \| 1 \| JSON \| 21\.5 \| fastest \| 571 \|  \|/);
    expect(md).toMatch(/\| region \| blog \| ①-1 \| 2 \| Nest Redis \| 63\.0 \| 2\.93× \(\d\.\d\d–\d\.\d\d\) \| 771 \(200\) \|  \|/);
    expect(md).toMatch(/\| region \| blog \| ①-1 \| – \| Nest NATS \| – \| – \| – \| NATS: maximum payload exceeded \|/);
    expect(renderRankingSection([json, redis])).toEqual([]);
  });

  it('report.html: the same rows in a section of its own, linked from the page’s contents', () => {
    const html = renderReport(doc);
    expect(html).toContain('<section id="ranking" data-section="ranking">');
    expect(html).toContain('href="#ranking"');
    expect(html).toMatch(/data-transport="nest-nats" data-rank="failed"/);
  });

  it('ranking.csv: one row per cell, unrounded, written only for a run that ranks', () => {
    const lines = renderRankingCsv(results).trim().split('\n');
    expect(lines[0]).toBe('network,variant,case,rank,transport,median_ms,factor_vs_fastest,factor_ci_low,factor_ci_high,ties_fastest,cpu_ms_per_1000_calls,broker_cpu_ms_per_1000_calls,failure');
    expect(lines[1]).toMatch(/^region,blog,①-1,1,json,21\.5,1,,,true,571\.4\d+,,$/);
    expect(lines[2]).toMatch(/^region,blog,①-1,2,nest-redis,63,2\.93\d+,\d\.\d+,\d\.\d+,false,771\.4\d+,(200|199\.9+\d*),$/);
    expect(lines[3]).toBe('region,blog,①-1,,nest-nats,,,,,,,,NATS: maximum payload exceeded');
    const exporter = RUN_EXPORTERS.find((e) => e.file === 'ranking.csv')!;
    expect(exporter.when!(doc)).toBe(true);
    expect(exporter.when!({ ...doc, results: [json, redis] })).toBe(false);
  });

  it('cuts a long reason to one cell, whole in results.json', () => {
    expect(shortReason('a\n  b')).toBe('a b');
    expect(shortReason('x'.repeat(200))).toHaveLength(160);
  });

  it('the terminal: a line per case, fastest first, then the failed ones, after the verdict', () => {
    expect(rankingTerminalLines(results)).toEqual(['region blog ①-1: JSON 21.5 ms, Nest Redis 2.93×; failed: Nest NATS']);
    const end = renderRunEnd(doc, { folder: 'results/x', files: 'results.json', failures: null });
    expect(end.stdout).toContain("Every transport ranked, fastest first (× the fastest's median; results.md has the CIs):\n- region blog ①-1: JSON 21.5 ms, Nest Redis 2.93×; failed: Nest NATS\n");
    expect(end.stdout.indexOf('## Verdict')).toBeLessThan(end.stdout.indexOf('Every transport ranked'));
    expect(renderRunEnd({ ...doc, results: [json, redis] }, { folder: 'results/x', files: 'results.json', failures: null }).stdout).not.toContain('Every transport ranked');
  });
});

