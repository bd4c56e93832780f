// Repeatability over a series of runs (issue #43): each run's factor per case, the range, consecutive pairs
// agreeing within 10 %, and a disagreement explained by a mode note or counted as unexplained.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { phaseMoveText, ratiosAgree, repeatability } from '../../src/analysis/repeatability';
import { renderRepeatability, seriesFactor, seriesRange } from '../../src/export/repeatability';
import type { Cell } from '../../src/model';
import { phaseBreakdown } from '../../src/model/results';
import { summarize } from '../../src/model/stats';
import { handMadeCell } from '../hand-made-cell';

const steady = (ms: number) => [0.98, 1, 1.02, 0.99, 1.01, 1, 0.97, 1.03].map((f) => f * ms);
// Six calls that found room in the accept queue, four a 1-s SYN retransmission later (two modes; the median in the fast group).
const split = [230, 240, 250, 235, 245, 238, 1180, 1190, 1200, 1210];
const cell = (caseId: string, transport: 'json' | 'grpc', samplesMs: number[]): Cell =>
  handMadeCell({ network: 'loopback', case: caseId, rows: 1, requests: 1000, transport, runs: samplesMs.length, samplesMs, summary: summarize(samplesMs) });
const run = (name: string, cells: Cell[]) => ({ name, results: cells });

describe('repeatability over a series of runs', () => {
  const runs = [
    run('r1', [cell('①-2', 'json', steady(18)), cell('①-2', 'grpc', steady(41)), cell('②-3', 'json', split), cell('②-3', 'grpc', steady(100))]),
    run('r2', [cell('①-2', 'json', steady(18)), cell('①-2', 'grpc', steady(43)), cell('②-3', 'json', steady(1190)), cell('②-3', 'grpc', steady(100))]),
    run('r3', [cell('①-2', 'json', steady(18)), cell('①-2', 'grpc', steady(52)), cell('②-3', 'json', steady(1200)), cell('②-3', 'grpc', steady(102))]),
  ];
  const rows = repeatability(runs);
  const of = (caseId: string) => rows.find((r) => r.case === caseId)!;

  it('gives each run’s ratio, the range and the pairs that agree within 10 %', () => {
    const one = of('①-2');
    expect(one.points.map((p) => p.run)).toEqual(['r1', 'r2', 'r3']);
    expect(one.range!.low).toBeCloseTo(41 / 18, 2);
    expect(one.range!.high).toBeCloseTo(52 / 18, 2);
    // 41 → 43 agrees (5 %), 43 → 52 does not (21 %), and neither run has a mode note: unexplained.
    expect([one.pairs, one.pairsAgreeing, one.pairsUnexplained]).toEqual([2, 1, 1]);
  });

  it('counts a disagreement as explained when a run’s cell falls into two modes', () => {
    const three = of('②-3');
    expect(three.points[0].modeNotes[0]).toMatch(/^JSON: two modes: 6 calls at/);
    expect([three.pairs, three.pairsAgreeing, three.pairsUnexplained]).toEqual([2, 1, 0]);
  });

  it('locates a disagreement without modes in the phase that moved: the pair is explained when that phase carries half the move', () => {
    // Runs 2026-11-29T00-10-19Z → 00-17-08Z, blog ①-2: gRPC's server encode (protobufjs) 44.9 → 26.4 ms, the rest unmoved.
    const withPhases = (transport: 'json' | 'grpc', median: number, encodeMs: number) => {
      const samples = steady(median);
      return { ...cell('①-2', transport, samples), phases: phaseBreakdown(samples, { serverBuildMs: 2, serverEncodeMs: encodeMs, clientDecodeMs: 10 }) };
    };
    const [row] = repeatability([run('a', [withPhases('json', 28.8, 8.7), withPhases('grpc', 67.9, 44.9)]), run('b', [withPhases('json', 25.4, 8.2), withPhases('grpc', 46, 26.4)])]);
    expect([row.pairs, row.pairsAgreeing, row.pairsUnexplained]).toEqual([1, 0, 0]);
    expect(phaseMoveText(row.moves[0])).toMatch(/^run 1 → 2: gRPC server encode 44\.9 → 26\.4 ms per call \(8\d % of its call's change\)$/);
    expect(renderRepeatability([row], ['a', 'b'])).toContain('one mode in every run · run 1 → 2: gRPC server encode');
  });

  it("names the GC pauses inside the phase that moved, where both runs' servers reported them", () => {
    const withGc = (transport: 'json' | 'grpc', median: number, encodeMs: number, encodeGcMs: number | null) => {
      const samples = steady(median);
      return { ...cell('①-2', transport, samples), phases: phaseBreakdown(samples, { serverBuildMs: 2, serverEncodeMs: encodeMs, clientDecodeMs: 10, serverBuildGcMs: 0.5, serverEncodeGcMs: encodeGcMs }) };
    };
    const [row] = repeatability([run('a', [withGc('json', 28.8, 8.7, 0.2), withGc('grpc', 67.9, 44.9, 17)]), run('b', [withGc('json', 25.4, 8.2, 0.2), withGc('grpc', 46, 26.4, 0.4)])]);
    expect(phaseMoveText(row.moves[0])).toMatch(/^run 1 → 2: gRPC server encode 44\.9 → 26\.4 ms per call \(8\d % of its call's change; GC pauses inside it 17\.0 → 0\.40 ms\)$/);
    // A server that does not report its pauses (null, e.g. Go's) leaves the text as it was.
    const [without] = repeatability([run('a', [withGc('json', 28.8, 8.7, null), withGc('grpc', 67.9, 44.9, null)]), run('b', [withGc('json', 25.4, 8.2, null), withGc('grpc', 46, 26.4, null)])]);
    expect(phaseMoveText(without.moves[0])).toMatch(/change\)$/);
  });

  it('writes factors as their winner reads them, and a range that crosses sides with both winners', () => {
    expect(seriesFactor({ ratio: 41 / 18 })).toBe('JSON 2.28×');
    expect(seriesFactor({ ratio: 0.0869 })).toBe('gRPC 11.5×');
    expect(seriesFactor({ ratio: 1.04 })).toBe('tie 1.04×');
    expect(seriesRange({ range: { low: 0.3, high: 0.5 } })).toBe('gRPC 2.00–3.33×');
    expect(seriesRange({ range: { low: 0.8, high: 1.3 } })).toBe('gRPC 1.25× – JSON 1.30×');
    expect(ratiosAgree(1, 1.1)).toBe(true);
    expect(ratiosAgree(1, 1.11)).toBe(false);
  });

  it('renders one row per case with every run named', () => {
    const md = renderRepeatability(rows, ['r1', 'r2', 'r3']);
    expect(md).toContain('run 1 = `r1`, run 2 = `r2`, run 3 = `r3`');
    expect(md).toMatch(/\| blog \| ①-2 \| JSON 2\.28× \| JSON 2\.39× \| JSON 2\.89× \| JSON 2\.28–2\.89× \| 1 of 2 \(1 unexplained\) \| one mode in every run \|/);
    expect(md).toMatch(/\| blog \| ②-3 \| gRPC 2\.48× \| gRPC 11\.9× \| gRPC 11\.8× \| gRPC 2\.48–11\.9× \| 1 of 2 \| run 1: JSON: two modes/);
  });
});

describe('bench:compare --series', () => {
  const ROOT = path.resolve(__dirname, '../../../..');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'nbx-series-'));
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));
  const write = (name: string, preset: string, grpcMs: number) => {
    fs.mkdirSync(path.join(out, name));
    const results = [cell('①-2', 'json', steady(18)), cell('①-2', 'grpc', steady(grpcMs))];
    const settings = { startedAt: name, preset, variants: [{ id: 'blog' }], cases: ['①-2'], transports: ['json', 'grpc'], runs: 8, warmup: 1, clientUrl: null };
    fs.writeFileSync(path.join(out, name, 'results.json'), JSON.stringify({ schemaVersion: 3, incomplete: false, provenance: {}, settings, results }));
  };
  const series = (...args: string[]) => spawnSync(process.execPath, [path.join(ROOT, 'tools/bench/dist/compare-main.js'), '--out', out, ...args], { cwd: ROOT, encoding: 'utf8' });

  it('tables the newest N runs of the newest run’s plan, skipping runs of another preset', () => {
    write('2026-11-29T00-00-00Z', 'default', 41);
    write('2026-11-29T00-05-00Z', 'quick', 90);
    write('2026-11-29T00-10-00Z', 'default', 43);
    const result = series('--series', '2');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('run 1 = `2026-11-29T00-00-00Z`, run 2 = `2026-11-29T00-10-00Z`');
    expect(result.stdout).toMatch(/\| blog \| ①-2 \| JSON 2\.28× \| JSON 2\.39× \| JSON 2\.28–2\.39× \| 1 of 1 \|/);
  });

  it('refuses a series longer than the runs it has, with exit code 2', () => {
    const result = series('--series', '5');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--series 5: only 2 complete run(s)');
  });
});
