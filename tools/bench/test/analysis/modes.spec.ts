// Modes in a cell's calls (issue #43): the gap test on recorded samples, and the mechanism named when the
// kernel's TCP counters moved in step, in the cell's note, the verdict's why and every export.
import { cellModes, detectModes, gcSplit, hasModeNote, MODE_GAP_IQRS, processSplit } from '../../src/analysis/modes';
import { repeatability } from '../../src/analysis/repeatability';
import { verdict } from '../../src/analysis/verdict';
import { renderCsv } from '../../src/export/csv';
import { renderReport } from '../../src/export/html';
import { renderMarkdown } from '../../src/export/markdown';
import { renderRunEnd } from '../../src/export/terminal';
import type { Cell, RunDocument, TcpCounters } from '../../src/model';
import { phaseBreakdown } from '../../src/model/results';
import { summarize } from '../../src/model/stats';
import { handMadeCell } from '../hand-made-cell';

// Run 2026-11-28T19-58-55Z (default preset, loopback, blog ②-3: 1,000 parallel requests, 19 timed calls over 4 visits).
const RECORDED_JSON = [292.2, 1173.7, 1202.1, 1196.5, 1174.9, 1197.8, 1200.7, 1203.5, 1186.1, 1206.5, 1130.9, 1180.6, 1152.6, 236.6, 1161.1, 1175.3, 1158.7, 216.5, 1176.7];
const RECORDED_GRPC = [183.8, 156.9, 118.5, 103.3, 130.1, 119.8, 117.5, 138.8, 137.4, 151.9, 130.4, 140.6, 128.6, 119.6, 152.4, 119.8, 128.8, 103.7, 112.3];
// The same cells' phases (ms per call) as that run recorded them.
const JSON_PHASES = { serverBuildMs: 1.145, serverEncodeMs: 1.474, clientDecodeMs: 2.959 };
const GRPC_PHASES = { serverBuildMs: 0.259, serverEncodeMs: 3.921, clientDecodeMs: 1.751 };
// Run 2026-11-28T20-48-23Z's ②-3 JSON: every call but one paid the second (one mode at ≈ 1.17 s).
const RECORDED_ALL_SLOW = [1172.2, 1181.7, 1174.8, 1178.4, 1262, 1250.8, 1208.2, 1175.9, 1213.2, 1161.1, 1149.7, 1188.2, 1130.4, 1133.3, 1166.5, 216.9, 1171.5];
// Run 2026-11-28T19-58-55Z's 20k×4 JSON: a wide but single hump.
const RECORDED_ONE_HUMP = [172.5, 163.7, 140.6, 152.2, 167.1, 157.9, 155.9, 140.1, 150.4, 154.3, 167.1, 159, 176.2, 158.1, 158.3, 151.3, 155.6, 172, 193, 177.2, 207.8, 193, 190.9, 171, 157.3, 186.9, 157.2, 151.8, 150.1, 171.8, 164.9, 179.3, 157.2, 172.6, 132.7];

// Run 2026-11-29T12-08-43Z's blog ①-2 (10,000 rows), its first visit: each gRPC call and the GC pause inside
// server-b's encode of it (ms), every other call one young-generation collection; the JSON calls beside them.
const RECORDED_1_2_GRPC = [59.3, 45.9, 60.3, 51, 60.6, 47.1, 60.2, 45.9, 84.8, 49.1, 45.2, 58.1, 45.3, 56.8, 42.7, 60, 48.8, 56.3, 47.7, 60.6, 44.9, 59.1, 45.8, 61.3, 55.9, 57.8, 46.6, 60.1, 45.4, 60.2, 45.1, 58.1, 56.5, 84.4, 51.1, 48.5, 58.6, 45.3, 57.1, 43.8, 61.2, 43.4, 57.7, 44.5, 61, 44.7, 67.4, 44.1, 57.5, 44.2, 61.1, 44.9, 58.8, 44.3, 58.7, 45.5, 59.2, 44.9, 85.7, 48.1, 45.4, 58.3, 49.2, 65.4, 47.8, 60.2];
const RECORDED_1_2_GRPC_GC = [13.3, 0, 13.4, 0, 13.4, 0, 13.9, 0, 13.6, 0, 0, 12.6, 0, 13.8, 0, 12.6, 0, 12.3, 0, 13.5, 0, 12, 0, 13.4, 0, 12.5, 0, 12.7, 0, 13.3, 0, 12.8, 0, 15.9, 0, 0, 13.1, 0, 14, 0, 12.1, 0, 12.7, 0, 14.2, 0, 12.8, 0, 13, 0, 14.1, 0, 13.5, 0, 14.5, 0, 12, 0, 14.3, 0, 0, 13.1, 0, 15.7, 0, 12.4];
const RECORDED_1_2_JSON = [22.3, 21.1, 23.1, 20.3, 21, 21.2, 20.4, 21.5, 43.6, 21.4, 21.6, 20.6, 23.2, 20.9, 25.2, 21.4, 44, 20.7, 20.7, 21, 20.7, 24.4, 20.2, 20.7, 24.4, 20.6, 24.6, 20.3, 20.6, 20.9, 20.2, 20.4, 25.9, 20.1, 20.2, 23.4, 20.2, 20.7, 20.2, 19.1, 34.6, 18.5, 19.3, 20.5, 20.7, 21.3, 21.1, 19.5, 39.8, 19.6, 20.3, 19.4, 20.4, 19.6, 19.5, 21.2, 34.3, 19.6, 20.2, 19.9, 19.5, 22.2, 19.3, 19.3, 43.1, 19.8];

const quiet: TcpCounters = { listenOverflows: 0, listenDrops: 0, syncookiesSent: 0, syncookiesRecv: 0, syncookiesFailed: 0, outRsts: 0, estabResets: 0, abortOnData: 0, abortOnClose: 0, synRetrans: 0, timeouts: 0, retransSegs: 0, twRecycled: 0, pawsActive: 0, timeWaitOverflow: 0 };
// The host's counters after that run (issue #43): every overflow a dropped SYN, sent again.
const overflowed: TcpCounters = { ...quiet, listenOverflows: 1781, listenDrops: 1781, synRetrans: 1781, timeouts: 1781, retransSegs: 1781 };

const cell = (transport: 'json' | 'grpc', samplesMs: number[], tcp: TcpCounters | null, phases = transport === 'json' ? JSON_PHASES : GRPC_PHASES): Cell =>
  handMadeCell({ network: 'loopback', case: '②-3', rows: 1, requests: 1000, transport, runs: samplesMs.length, samplesMs, summary: summarize(samplesMs), phases: phaseBreakdown(samplesMs, phases), bytesPerCall: transport === 'json' ? 236_000 : 104_000, pathCounters: { dns: null, envoy: null, tcp } });
const doc = (results: Cell[]): RunDocument => ({ schemaVersion: 3, incomplete: false, provenance: {}, settings: { startedAt: 'test', preset: 'default' }, results });

describe('the gap test', () => {
  it('splits the blog’s ②-3 JSON calls into the 3 that found room and the 16 that waited', () => {
    const modes = detectModes(RECORDED_JSON);
    expect(modes.groups.map((g) => [g.calls, Math.round(g.centreMs)])).toEqual([
      [3, 237],
      [16, 1179],
    ]);
    expect(modes.gapIqrs).toBeGreaterThan(MODE_GAP_IQRS);
  });

  it('finds one mode in recorded cells with a single hump, a lone fast call, or too few calls', () => {
    for (const samples of [RECORDED_GRPC, RECORDED_ALL_SLOW, RECORDED_ONE_HUMP, [3202, 3607, 4512]]) expect(detectModes(samples).groups).toHaveLength(1);
    expect(detectModes([]).groups).toEqual([]);
  });

  it('wants both groups of a useful size and a gap wide against their spread and the faster centre', () => {
    const fast = [100, 101, 102, 103, 104, 105];
    expect(detectModes([...fast, 200, 201, 202]).groups).toHaveLength(2);
    // Two calls are an outlier pair, not a group.
    expect(detectModes([...fast, ...fast, 200, 201]).groups).toHaveLength(1);
    // A gap of 5 ms on 100 ms calls is under a fifth of the faster centre.
    expect(detectModes([...fast, 110, 110.5, 111]).groups).toHaveLength(1);
  });
});

describe("a cell's modes and the counters that moved with them", () => {
  it('names the SYN retransmission and the overflowing accept queue when they moved in step', () => {
    const modes = cellModes(cell('json', RECORDED_JSON, overflowed))!;
    expect(modes.mechanism).toMatchObject({ kind: 'syn-retransmission', slowCalls: 16, synRetrans: 1781, listenOverflows: 1781, backlog: 511 });
    expect(modes.note).toBe('two modes: 3 calls at ≈ 236.6 ms, 16 at ≈ 1,179 ms; 16 of 19 calls paid a 1-s SYN retransmission: the accept queue (backlog 511) overflowed 1,781 times (1,781 SYN retransmissions)');
  });

  it('says one mode where nothing was dropped, and leaves two modes unexplained when no counter moved', () => {
    expect(cellModes(cell('grpc', RECORDED_GRPC, quiet))!.note).toBe('one mode');
    // One fast call among 17: one mode, not every call at the RTO or more.
    // 16 of its 17 calls waited ≈ 1 s more than the one that found room: one mode, explained.
    expect(cellModes(cell('json', RECORDED_ALL_SLOW, overflowed))!.note).toBe(
      'one mode; 16 of 17 calls paid a 1-s SYN retransmission: the accept queue (backlog 511) overflowed 1,781 times (1,781 SYN retransmissions)',
    );
    // Calls of several seconds are not one retransmission late, whatever the host's counters did (①-3).
    expect(cellModes(cell('json', [3202, 3607, 4512], overflowed))!.mechanism).toBeNull();
    expect(cellModes(cell('json', RECORDED_ALL_SLOW, quiet))!.note).toBe('one mode');
    // Run 2026-11-28T21-44-58Z (quick): its 3 ②-3 JSON calls all ≈ 1.2 s, 696 SYN retransmissions over them.
    const allPaid = cellModes(cell('json', [1219.4, 1188.3, 1193.1], { ...quiet, listenOverflows: 696, listenDrops: 696, synRetrans: 696 }))!;
    expect(allPaid.note).toBe('one mode; every one of its 3 calls paid a 1-s SYN retransmission: the accept queue (backlog 511) overflowed 696 times (696 SYN retransmissions)');
    expect(cellModes(cell('json', RECORDED_JSON, quiet))!.note).toMatch(/^two modes: .*; no TCP counter moved with them$/);
    expect(cellModes(cell('json', RECORDED_JSON, null))!.note).toMatch(/; no TCP counters recorded$/);
    // Fewer SYN retransmissions than slow calls do not account for them.
    expect(cellModes(cell('json', RECORDED_JSON, { ...overflowed, synRetrans: 5 }))!.mechanism).toBeNull();
    expect(cellModes({ ...cell('json', RECORDED_JSON, overflowed), ok: false })).toBeNull();
  });

  it('makes the mechanism the verdict’s why when it is the largest difference, and leaves the phases otherwise', () => {
    const [row] = verdict([cell('json', RECORDED_JSON, overflowed), cell('grpc', RECORDED_GRPC, quiet)]).rows;
    expect(row.why).toMatch(/^JSON: 16 of 19 calls paid a 1-s SYN retransmission: the accept queue \(backlog 511\) overflowed 1,781 times .*, ≈ 793\.3 ms per call on average; 230\.5 KiB vs 101\.6 KiB per call$/);
    const [plain] = verdict([cell('json', RECORDED_JSON, quiet), cell('grpc', RECORDED_GRPC, quiet)]).rows;
    expect(plain.why).toMatch(/^remainder/);
  });

  it('reach results.md, report.html, results.csv and the terminal', () => {
    const run = doc([cell('json', RECORDED_JSON, overflowed), cell('grpc', RECORDED_GRPC, quiet)]);
    const md = renderMarkdown(run);
    expect(md).toContain('| blog | ②-3 | json | loopback | 3 × 237 ms; 16 × 1,179 ms | 19 timed calls (host) | 1,781 | 1,781 | 1,781 | 1,781 | 1,781 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | – |');
    expect(md).toContain('- ②-3 json (blog): two modes: 3 calls at ≈ 236.6 ms, 16 at ≈ 1,179 ms; 16 of 19 calls paid a 1-s SYN retransmission');
    const html = renderReport(run);
    expect(html).toMatch(/data-table="cell-counters"[\s\S]*data-modes="2"/);
    expect(html).toContain('16 of 19 calls paid a 1-s SYN retransmission: the accept queue (backlog 511) overflowed 1,781 times');
    const [header, ...rows] = renderCsv(run.results).trim().split('\n');
    const json = rows.map((r) => r.split(',')).find((c) => c[0] === 'summary' && c[6] === 'json')!;
    const column = (name: string) => json[header.split(',').indexOf(name)];
    expect([column('modes'), column('mode_groups'), column('tcp_syn_retrans'), column('tcp_listen_overflows')]).toEqual(['2', '3x236.6 16x1178.65', '1781', '1781']);
    expect(renderRunEnd(run, { folder: 'results/x', files: 'results.md', failures: null }).stdout).toContain("Modes, and what explains them (the kernel's TCP counters, GC pauses in the encode, the encode per set of apps):\n- ②-3 json (blog): two modes");
  });
});

describe('calls split by a GC pause inside the server encode', () => {
  const withPauses = (samplesMs: number[], encodeGcMs: (number | null)[]): Cell => ({
    ...cell('grpc', samplesMs, quiet),
    case: '①-2',
    requests: 1,
    callPhases: { serverEncodeMs: samplesMs.map(() => null), serverEncodeGcMs: encodeGcMs, serverGcMs: samplesMs.map(() => null), clientGcMs: samplesMs.map(() => null) },
  });

  it('splits the blog’s ①-2 gRPC calls that the gap test leaves as one into those whose encode met a collection and the rest', () => {
    expect(detectModes(RECORDED_1_2_GRPC).groups).toHaveLength(1);
    const modes = cellModes(withPauses(RECORDED_1_2_GRPC, RECORDED_1_2_GRPC_GC))!;
    expect(modes.groups.map((g) => [g.calls, g.centreMs])).toEqual([
      [34, 45.45],
      [32, 60.05],
    ]);
    expect(modes.gc?.pauseMs).toBe(13.3);
    expect(modes.mechanism).toBeNull();
    expect(modes.note).toBe(
      'two modes by GC: 34 calls at ≈ 45.5 ms whose server encode held no GC pause, 32 at ≈ 60.0 ms whose encode held one (≈ 13.3 ms); the median lies in the group that holds more calls, between them when near even, and moves with their shares',
    );
  });

  it('says one mode where no encode held a pause, too few did, the split is small, or the pauses are not known call by call', () => {
    expect(cellModes(withPauses(RECORDED_1_2_GRPC, RECORDED_1_2_GRPC.map(() => 0)))!.note).toBe('one mode');
    const twoPaused = RECORDED_1_2_GRPC_GC.map((g, i) => (i < 2 ? g : 0));
    expect(gcSplit(withPauses(RECORDED_1_2_GRPC, twoPaused))).toBeNull();
    // Pauses of 1 ms on calls 3 % apart: no reading of the cell changes.
    const close = RECORDED_1_2_JSON.map((s, i) => (i % 2 ? s : s * 1.03));
    expect(gcSplit(withPauses(close, close.map((_, i) => (i % 2 ? 0 : 1))))).toBeNull();
    // A split the pauses do not account for (1 ms of GC between groups 13 ms apart) is not theirs.
    expect(gcSplit(withPauses(RECORDED_1_2_GRPC, RECORDED_1_2_GRPC_GC.map((g) => (g ? 1 : 0))))).toBeNull();
    expect(gcSplit(withPauses(RECORDED_1_2_GRPC, RECORDED_1_2_GRPC_GC.map((g, i) => (i === 0 ? null : g))))).toBeNull();
    expect(gcSplit(cell('grpc', RECORDED_1_2_GRPC, quiet))).toBeNull();
  });

  it('counts as the explanation of a series pair that disagrees, and reaches results.md', () => {
    // The JSON calls without their few slow ones (a gap-test mode of their own, which would explain any pair).
    const steady = RECORDED_1_2_JSON.filter((s) => s < 30);
    const json = { ...withPauses(steady, steady.map(() => 0)), transport: 'json' as const };
    // The second run's calls as the first's, with three in four of those that met a collection meeting none: its gRPC median moves to the fast group.
    const moved = (i: number) => RECORDED_1_2_GRPC_GC[i] > 0 && i % 4 !== 0;
    const later = RECORDED_1_2_GRPC.map((s, i) => (moved(i) ? s - RECORDED_1_2_GRPC_GC[i] : s));
    const laterGc = RECORDED_1_2_GRPC_GC.map((g, i) => (moved(i) ? 0 : g));
    const [row] = repeatability([
      { name: 'a', results: [json, withPauses(RECORDED_1_2_GRPC, RECORDED_1_2_GRPC_GC)] },
      { name: 'b', results: [json, withPauses(later, laterGc)] },
    ]);
    expect([row.pairs, row.pairsAgreeing, row.pairsUnexplained]).toEqual([1, 0, 0]);
    expect(row.points.map((p) => p.modeNotes.map((n) => n.slice(0, 41)))).toEqual([['gRPC: two modes by GC: 34 calls at ≈ 45.5'], ['gRPC: two modes by GC: 57 calls at ≈ 45.9']]);
    const md = renderMarkdown(doc([json, withPauses(RECORDED_1_2_GRPC, RECORDED_1_2_GRPC_GC)]));
    expect(md).toContain('- ①-2 grpc (blog): two modes by GC: 34 calls at ≈ 45.5 ms');
  });
});

// Blog 20k×4 gRPC visits as they were recorded (each call, server-b's encode of it and the GC pause inside, ms):
// three of run 2026-11-29T13-10-14Z, whose server-b encoded in ≈ 285 ms, and one of run 2026-11-29T13-03-10Z,
// whose server-b encoded in ≈ 180 ms in every visit with the same pauses: each as one set of apps of a cell.
const SLOW_SET_1 = {
  samplesMs: [402.6, 422.6, 418.2, 396.7, 411.5, 409.1, 388.5, 406.5, 435],
  encodeMs: [280.8, 300.8, 284.4, 271.9, 281.1, 280.4, 265, 281.9, 291.5],
  encodeGcMs: [43.5, 58.3, 55.3, 40.4, 54.6, 54.2, 37.6, 58.1, 58.1],
};
const FAST_SET = {
  samplesMs: [315.2, 337.1, 319.1, 279.9, 330.1, 316.3, 288.9, 313.2, 323, 280.9, 309.5],
  encodeMs: [169.4, 188.9, 180.3, 158.1, 191.6, 185.6, 168.7, 184.5, 178.3, 160.7, 188.9],
  encodeGcMs: [43, 66.2, 59.4, 40.5, 60.1, 65.9, 42.1, 62.1, 62.7, 41.2, 67.7],
};
const SLOW_SET_3 = {
  samplesMs: [411.6, 489, 437.8, 406.3, 472.9, 443.7, 409.9, 418.8, 446.5],
  encodeMs: [283, 292.1, 288.4, 279, 291.8, 296, 283.1, 291, 294.5],
  encodeGcMs: [42.6, 56.7, 56, 40.1, 53.9, 57.3, 41.4, 54.9, 55.7],
};
const SLOW_SET_4 = {
  samplesMs: [441, 428.2, 455.2, 420.6, 429.1, 439.2, 429.4, 445.7, 434.6],
  encodeMs: [285.4, 285.5, 291.7, 277.8, 284.5, 279.9, 282.6, 296.3, 288.2],
  encodeGcMs: [40.7, 58, 57.9, 41.6, 57.6, 53.7, 39.6, 58.6, 55.5],
};
type RecordedSet = typeof FAST_SET;

describe('calls split by the set of apps that served them', () => {
  /** A 20k×4 gRPC cell of the given visits, visit i on fork forks[i]. */
  const fromSets = (sets: RecordedSet[], forks = sets.map((_, i) => i + 1)): Cell => {
    const samplesMs = sets.flatMap((v) => v.samplesMs);
    return {
      ...cell('grpc', samplesMs, quiet),
      case: '20k×4',
      rows: 20_000,
      requests: 4,
      callPhases: { serverEncodeMs: sets.flatMap((v) => v.encodeMs), serverEncodeGcMs: sets.flatMap((v) => v.encodeGcMs), serverGcMs: samplesMs.map(() => null), clientGcMs: samplesMs.map(() => null) },
      visits: sets.map((v, i) => ({ visit: i + 1, fork: forks[i], calls: v.samplesMs.length })),
    };
  };
  const split = fromSets([SLOW_SET_1, FAST_SET, SLOW_SET_3, SLOW_SET_4]);

  it('splits a 20k×4 cell whose one set of apps encoded faster, which neither the gap test nor the GC split sees', () => {
    expect(detectModes(split.samplesMs).groups).toHaveLength(1);
    expect(gcSplit(split)).toBeNull();
    const modes = cellModes(split)!;
    expect(modes.process).toMatchObject({ fast: { sets: 1, calls: 11, centreMs: 315.2 }, slow: { sets: 3, calls: 27, centreMs: 428.2 } });
    expect(modes.groups.map((g) => g.calls)).toEqual([11, 27]);
    expect(hasModeNote(modes)).toBe(true);
    expect(modes.note).toBe(
      "two modes by process: 1 of 4 sets of apps at ≈ 315.2 ms (11 calls), 3 at ≈ 428.2 ms (27); the server's encode ≈ 177.7 vs ≈ 285.5 ms per call " +
        "(GC pauses inside it ≈ 55.5 vs ≈ 51.2 ms), outside GC 99 % of the sets' difference: the server process's own work ran at two speeds, not the machine",
    );
    expect(renderMarkdown(doc([split]))).toContain('- 20k×4 grpc (blog): two modes by process: 1 of 4 sets of apps');
  });

  it('says nothing of processes when one set served every visit, the sets are alike, or the encode does not account for the split', () => {
    // The same calls from one set of apps (forks 1, or none): a split between visits is not between processes.
    expect(processSplit(fromSets([SLOW_SET_1, FAST_SET, SLOW_SET_3, SLOW_SET_4], [1, 1, 1, 1]))).toBeNull();
    expect(processSplit(fromSets([SLOW_SET_1, FAST_SET, SLOW_SET_3, SLOW_SET_4], [0, 0, 0, 0]))).toBeNull();
    // Four sets like the slow ones: their medians 409–434 ms, no step of 10 %.
    const alike = fromSets([SLOW_SET_1, SLOW_SET_3, SLOW_SET_4, SLOW_SET_1]);
    expect(processSplit(alike)).toBeNull();
    expect(cellModes(alike)!.note).toBe('one mode');
    // The fast visit's calls with a slow encode: the rest of the call moved (the machine, not the process).
    expect(processSplit(fromSets([SLOW_SET_1, { ...FAST_SET, encodeMs: FAST_SET.encodeMs.map((e) => e + 100) }, SLOW_SET_3, SLOW_SET_4]))).toBeNull();
    // …or the GC pauses inside the encode did (the slow sets' encodes holding 100 ms more of them).
    const moreGc = (set: RecordedSet): RecordedSet => ({ ...set, encodeGcMs: set.encodeGcMs.map((g) => g + 100) });
    expect(processSplit(fromSets([moreGc(SLOW_SET_1), FAST_SET, moreGc(SLOW_SET_3), moreGc(SLOW_SET_4)]))).toBeNull();
    // Unknown per call, or visits that do not add up to the samples: nothing to split by.
    expect(processSplit({ ...split, callPhases: undefined })).toBeNull();
    expect(processSplit({ ...split, visits: undefined })).toBeNull();
    expect(processSplit({ ...split, visits: split.visits!.slice(1) })).toBeNull();
  });

  it('explains a series pair that disagrees because one run drew a faster server', () => {
    const json = { ...cell('json', RECORDED_ONE_HUMP, quiet), case: '20k×4', rows: 20_000, requests: 4 };
    const [row] = repeatability([
      { name: 'a', results: [json, fromSets([SLOW_SET_1, SLOW_SET_3, SLOW_SET_4, SLOW_SET_1])] },
      { name: 'b', results: [json, fromSets([FAST_SET, FAST_SET, SLOW_SET_3, FAST_SET])] },
    ]);
    expect([row.pairs, row.pairsAgreeing, row.pairsUnexplained]).toEqual([1, 0, 0]);
    expect(row.points.map((p) => p.modeNotes.map((n) => n.slice(0, 45)))).toEqual([[], ['gRPC: two modes by process: 3 of 4 sets of ap']]);
  });
});
