// A realistic RunDocument built the way main.ts builds one (runVisits → toCell), with a scripted
// driver instead of the network: deterministic, so reports rendered from it can be compared and tested.
import { BLOG_CASES } from '../src/plan/cases';
import type { CaseCall } from '../src/measure/drivers/driver';
import { FakeDriver, type FakeScript } from '../src/measure/drivers/fake-driver';
import type { Cell, Phases, Visit, ProcessCost, RunDocument, Transport } from '../src/model/model';
import { phaseBreakdown, toCell } from '../src/model/results';
import { runVisits } from '../src/measure/runner';

/** The error the failing cell reports: markup, an ampersand, quotes and a pipe, to test escaping. */
export const FIXTURE_ERROR = `HTTP 502: <script>alert("x")</script> & 'upstream' | code 14 UNAVAILABLE`;

/** Cases, in document order. ①-3 runs 3 times only, so its medians have no confidence interval. */
export const FIXTURE_CASES = ['①-1', '①-2', '①-3', '②-3', '20k×4'] as const;
/** Runs 3 times only: too few samples for a confidence interval of the median. */
export const FEW_SAMPLES_CASE = '①-3';
/** The one failing cell. */
export const FAILED_CELL = { case: '②-3', transport: 'grpc' as Transport };

interface CellScript {
  /** Typical latency and relative spread of the timed calls. */
  medianMs: number;
  spread: number;
  coldMs: number;
  bytes: number;
  /** A sample this many times the median, once, to have an outlier. */
  outlier?: number;
}

const SCRIPTS: Record<string, Partial<Record<Transport, CellScript>>> = {
  '①-1': { json: { medianMs: 0.9, spread: 0.08, coldMs: 3.9, bytes: 236 }, grpc: { medianMs: 1.68, spread: 0.1, coldMs: 5.44, bytes: 104 } },
  '①-2': { json: { medianMs: 32, spread: 0.35, coldMs: 51.1, bytes: 2_548_000 }, grpc: { medianMs: 86.7, spread: 0.12, coldMs: 114.5, bytes: 1_350_000, outlier: 2 } },
  '①-3': { json: { medianMs: 6913, spread: 0.05, coldMs: 9783, bytes: 276_824_000 }, grpc: { medianMs: 14_909, spread: 0.08, coldMs: 18_271, bytes: 155_900_000 } },
  '②-3': { json: { medianMs: 1240, spread: 0.03, coldMs: 605.2, bytes: 236 } },
  '20k×4': { json: { medianMs: 214.5, spread: 0.15, coldMs: 266.9, bytes: 5_220_000 }, grpc: { medianMs: 652.8, spread: 0.18, coldMs: 612.9, bytes: 2_810_000 } },
};

/**
 * Phase times per call (ms) of every ok cell, on the scale of a real run. 20k×4 json's add up to more
 * than its mean call (~214 ms): four parallel requests whose phases overlap, a negative remainder.
 */
const PHASES: Record<string, Partial<Record<Transport, Phases>>> = {
  '①-1': { json: { serverBuildMs: 0.013, serverEncodeMs: 0.019, clientDecodeMs: 0.019 }, grpc: { serverBuildMs: 0.014, serverEncodeMs: 0.06, clientDecodeMs: 0.05 } },
  '①-2': { json: { serverBuildMs: 1.265, serverEncodeMs: 6.757, clientDecodeMs: 11.4 }, grpc: { serverBuildMs: 1.944, serverEncodeMs: 44.8, clientDecodeMs: 15.4 } },
  '①-3': { json: { serverBuildMs: 985.1, serverEncodeMs: 2148, clientDecodeMs: 1959 }, grpc: { serverBuildMs: 823.1, serverEncodeMs: 10_500, clientDecodeMs: 2244 } },
  '②-3': { json: { serverBuildMs: 1.065, serverEncodeMs: 3.775, clientDecodeMs: 3.383 } },
  '20k×4': { json: { serverBuildMs: 56.2, serverEncodeMs: 70, clientDecodeMs: 121.2 }, grpc: { serverBuildMs: 53.4, serverEncodeMs: 400, clientDecodeMs: 124.2 } },
};
/** The one cell whose phases exceed its mean call time. */
export const OVERLAP_CELL = { case: '20k×4', transport: 'json' as Transport };

/** A small linear congruential generator: the same "random" spread on every run. */
function latencies(script: CellScript, seed: number, count: number): number[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const values = Array.from({ length: count }, () => script.medianMs * (1 + script.spread * (next() * 2 - 1)));
  if (script.outlier) values[Math.floor(count / 2)] = script.medianMs * script.outlier;
  return values.map((v) => Math.round(v * 1000) / 1000);
}

function planFor(caseId: string): Visit {
  const record = BLOG_CASES.find((c) => c.id === caseId);
  if (!record) throw new Error(`fixture: unknown case ${caseId}`);
  // Fixed here rather than taken from the catalog's defaults, which may change.
  return { network: 'loopback', runtime: '24', variant: 'blog', record, transports: ['json', 'grpc'], warmup: 1, warmupMs: 0, runs: caseId === FEW_SAMPLES_CASE ? 3 : 10, settleMs: 0, forks: 0, fork: 0, visits: 1, visit: 1, cold: true, firstPosition: 0, deadlineMs: 10_000, budgetMs: null, minRuns: 1 };
}

function scriptFor(call: CaseCall): FakeScript {
  const record = BLOG_CASES.find((c) => c.rows === call.rows && c.requests === call.requests);
  if (record?.id === FAILED_CELL.case && call.transport === FAILED_CELL.transport) return { error: FIXTURE_ERROR };
  const cell = record ? SCRIPTS[record.id]?.[call.transport] : undefined;
  if (!record || !cell) throw new Error(`fixture: no script for ${call.transport} ${call.rows}×${call.requests}`);
  const seed = record.id.length * 7919 + call.rows + call.requests * 31 + (call.transport === 'grpc' ? 17 : 0);
  // Enough values for the warm-up and every timed repetition; the fake driver hands them out in order.
  return { latenciesMs: latencies(cell, seed, 1 + 10), coldMs: cell.coldMs, bytesPerResponse: cell.bytes };
}

const MiB = 1024 * 1024;

/**
 * The fake driver charges 1 ms of client CPU per call and a few KB of memory; swap in costs in
 * proportion to the time spent, so the charts look like a real run. ①-1 grpc keeps no server cost
 * (a server that could not report its metrics).
 */
function plausibleCosts(r: Cell): Cell {
  if (!r.ok) return r;
  const busy = r.samplesMs.reduce((a, b) => a + b, 0);
  const payload = (r.bytes ?? 0) * r.requests;
  const cost = (share: number, baseMiB: number, perByte: number): ProcessCost => ({
    cpuUserMs: Math.round(busy * share * 0.8 * 1000) / 1000,
    cpuSystemMs: Math.round(busy * share * 0.2 * 1000) / 1000,
    peakRssBytes: Math.round(baseMiB * MiB + payload * perByte),
  });
  const grpc = r.transport === 'grpc';
  return {
    ...r,
    client: cost(grpc ? 0.55 : 0.45, 92, grpc ? 3.2 : 2.6),
    server: r.case === '①-1' && grpc ? null : cost(grpc ? 0.5 : 0.35, 78, grpc ? 2.1 : 1.8),
  };
}

/** The phases a client and servers that time them would have reported, against the cell's mean. */
function scriptedPhases(r: Cell): Cell {
  if (!r.ok) return r;
  const phases = PHASES[r.case]?.[r.transport];
  if (!phases) throw new Error(`fixture: no phases for ${r.case} ${r.transport}`);
  return { ...r, phases: phaseBreakdown(r.samplesMs, phases) };
}

/** Fixed clocks instead of the runner's real ones, so the document is the same on every run. */
function fixedClock(r: Cell, index: number): Cell {
  const startedAt = new Date(Date.UTC(2026, 10, 21, 10, 43, 21) + index * 4_000).toISOString();
  const wallMs = Math.round((r.samplesMs.reduce((a, b) => a + b, 0) + (r.coldMs ?? 0) + r.warmupMs.reduce((a, b) => a + b, 0)) * 1000) / 1000;
  return { ...r, startedAt, wallMs };
}

const RUNTIME = {
  node: 'v20.20.2',
  v8: '11.3.244.8-node.38',
  platform: 'linux',
  arch: 'x64',
  cpuModel: 'AMD EPYC 7B13',
  cpuCount: 2,
  totalMemoryBytes: 25_276_510_208,
  packages: {
    '@nestjs/core': '11.2.10',
    '@nestjs/common': '11.2.10',
    '@nestjs/platform-express': '11.2.10',
    '@nestjs/microservices': '11.2.6',
    '@nestjs/axios': '4.0.1',
    axios: '1.21.1',
    express: '5.2.1',
    '@grpc/grpc-js': '1.14.7',
    '@grpc/proto-loader': '0.8.1',
    protobufjs: '7.6.6',
    rxjs: '7.8.2',
  },
};

export interface FixtureOptions {
  /** Mark the document as an interrupted run. */
  incomplete?: boolean;
}

/**
 * A run of five blog cases × json and grpc: ok cells over several cases, ②-3 grpc failed with
 * FIXTURE_ERROR, ①-3 with 3 samples (medianCi null), ①-1 json noisy (median under 1 ms),
 * ①-2 grpc with an outlier, client and server costs set (except ①-1 grpc's server), phases for
 * every ok cell (20k×4 json's overlapping: a negative remainder).
 */
export async function buildRunDocument(options: FixtureOptions = {}): Promise<RunDocument> {
  const plan = FIXTURE_CASES.map(planFor);
  const raws = await runVisits(plan, new FakeDriver(scriptFor), { onVisitDone: () => undefined });
  const results = raws.map(toCell).map(plausibleCosts).map(scriptedPhases).map(fixedClock);
  return {
    schemaVersion: 3,
    incomplete: options.incomplete ?? false,
    provenance: {
      gitCommit: '0123456789abcdef0123456789abcdef01234567',
      gitDirty: true,
      hostname: 'fixture-host',
      loadAverage: [0.42, 0.3, 0.21],
      bench: RUNTIME,
      client: { ...RUNTIME, pid: 4242, settings: { host: '127.0.0.1', clientPort: 3000, serverAPort: 3001, serverBPort: 3002, maxRows: 1_000_000 } },
      arguments: ['--cases', '1-1,1-2,1-3,2-3,20kx4'],
      finishedAt: '2026-11-21T10:45:48.809Z',
      pinning: { requested: false, pinned: false, cores: null, cpuCount: 2, reason: 'not requested (--pin)' },
    },
    settings: {
      startedAt: '2026-11-21T10:43:20.997Z',
      preset: 'default',
      cases: [...FIXTURE_CASES],
      transports: ['json', 'grpc'],
      runs: 10,
      runsOverride: null,
      warmup: 1,
      warmupMs: 0,
      coldCallPerCase: true,
      order: 'per case: each transport\'s cold call and warm-up, then timed repetitions interleaved in transport order (json, grpc, json, grpc, …)',
      clientUrl: null,
      startedApps: { blog: [{ cases: ['①-1'], pids: { 'server-a': 101, 'server-b': 102, client: 103 }, ports: { client: 3000, serverA: 3001, serverB: 3002 } }] },
      pinned: false,
    },
    results,
  };
}

/** The variants of the multi-variant fixture, in the order they run. */
export const MULTI_VARIANTS = ['blog', 'tuned', 'bare'] as const;
export const MULTI_CASES = ['①-2', '20k×4'] as const;
/** The one failing cell of the multi-variant fixture. */
export const MULTI_FAILED_CELL = { variant: 'tuned', case: '20k×4', transport: 'json' as Transport };

/**
 * Exact medians (ms) of the multi-variant fixture, null for the failed cell: every cell's ten timed
 * calls are spread symmetrically around it, its two middle ones equal to it (the numbers of the
 * README's variants run).
 */
export const MULTI_MEDIANS: Readonly<Record<string, Readonly<Record<string, Readonly<Record<Transport, number | null>>>>>> = {
  blog: { '①-2': { json: 26.3, grpc: 79.3 }, '20k×4': { json: 235.5, grpc: 644.4 } },
  tuned: { '①-2': { json: 22.9, grpc: 20.6 }, '20k×4': { json: null, grpc: 194.3 } },
  bare: { '①-2': { json: 22.2, grpc: 76.7 }, '20k×4': { json: 227.3, grpc: 676.5 } },
};

/** The warm-up call, then ten timed calls whose median is exactly `median` and mean is `median` to rounding. */
const SPREAD = [0.1, 0.04, -0.03, 0, 0.02, -0.01, -0.04, 0.03, 0, -0.02, 0.01];

/** Shares of the median per phase; 20k×4 json's add up to 115 %: overlapping parallel requests. */
const PHASE_SHARES: Record<string, readonly [number, number, number]> = {
  json: [0.04, 0.22, 0.38],
  grpc: [0.02, 0.55, 0.19],
  '20k×4 json': [0.26, 0.33, 0.56],
};

function multiScript(variant: string): (call: CaseCall) => FakeScript {
  return (call) => {
    const record = BLOG_CASES.find((c) => c.rows === call.rows && c.requests === call.requests);
    const median = record ? MULTI_MEDIANS[variant]?.[record.id]?.[call.transport] : undefined;
    if (median === undefined) throw new Error(`fixture: no script for ${variant} ${call.transport} ${call.rows}×${call.requests}`);
    if (median === null) return { error: 'socket hang up' };
    return { latenciesMs: SPREAD.map((d) => median * (1 + d)), coldMs: median * 1.4, bytesPerResponse: SCRIPTS[record!.id]![call.transport]!.bytes };
  };
}

function multiPhases(r: Cell): Cell {
  if (!r.ok) return r;
  const median = MULTI_MEDIANS[r.variant][r.case][r.transport]!;
  const [build, encode, decode] = PHASE_SHARES[`${r.case} ${r.transport}`] ?? PHASE_SHARES[r.transport];
  const round = (v: number) => Math.round(v * median * 1000) / 1000;
  return { ...r, phases: phaseBreakdown(r.samplesMs, { serverBuildMs: round(build), serverEncodeMs: round(encode), clientDecodeMs: round(decode) }) };
}

/**
 * A run of the blog, tuned and bare variants one after the other on ①-2 and 20k×4, json and grpc:
 * medians exactly MULTI_MEDIANS, tuned 20k×4 json failed ("socket hang up"), phases for every ok
 * cell (20k×4 json's overlapping in blog and bare).
 */
export async function buildMultiVariantDocument(): Promise<RunDocument> {
  const raws = [];
  for (const variant of MULTI_VARIANTS) {
    const plan = MULTI_CASES.map((id) => ({ ...planFor(id), variant, runs: 10 }));
    // A driver per variant, as each variant has its own client app.
    raws.push(...(await runVisits(plan, new FakeDriver(multiScript(variant)), { onVisitDone: () => undefined })));
  }
  const results = raws.map(toCell).map(plausibleCosts).map(multiPhases).map(fixedClock);
  const base = await buildRunDocument();
  return {
    ...base,
    provenance: { ...base.provenance, arguments: ['--variants', MULTI_VARIANTS.join(','), '--cases', '1-2,20kx4'] },
    settings: { ...base.settings, cases: [...MULTI_CASES], variants: [...MULTI_VARIANTS] },
    results,
  };
}
