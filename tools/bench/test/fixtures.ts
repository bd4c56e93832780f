// A realistic RunDocument built the way main.ts builds one (runCases → toCaseResult), with a scripted
// driver instead of the network: deterministic, so reports rendered from it can be compared and tested.
import { BLOG_CASES } from '../src/cases';
import type { CaseCall } from '../src/drivers/driver';
import { FakeDriver, type FakeScript } from '../src/drivers/fake-driver';
import type { CaseResult, PlannedCase, ProcessCost, RunDocument, Transport } from '../src/model';
import { toCaseResult } from '../src/results';
import { runCases } from '../src/runner';

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

function planFor(caseId: string): PlannedCase {
  const record = BLOG_CASES.find((c) => c.id === caseId);
  if (!record) throw new Error(`fixture: unknown case ${caseId}`);
  // Fixed here rather than taken from the catalog's defaults, which may change.
  return { variant: 'blog', record, transports: ['json', 'grpc'], warmup: 1, runs: caseId === FEW_SAMPLES_CASE ? 3 : 10, settleMs: 0 };
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
function plausibleCosts(r: CaseResult): CaseResult {
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

/** Fixed clocks instead of the runner's real ones, so the document is the same on every run. */
function fixedClock(r: CaseResult, index: number): CaseResult {
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
 * ①-2 grpc with an outlier, client and server costs set (except ①-1 grpc's server).
 */
export async function buildRunDocument(options: FixtureOptions = {}): Promise<RunDocument> {
  const plan = FIXTURE_CASES.map(planFor);
  const raws = await runCases(plan, new FakeDriver(scriptFor), { onCaseDone: () => undefined });
  const results = raws.map(toCaseResult).map(plausibleCosts).map(fixedClock);
  return {
    schemaVersion: 2,
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
      profile: 'default',
      cases: [...FIXTURE_CASES],
      transports: ['json', 'grpc'],
      runs: 10,
      runsOverride: null,
      warmup: 1,
      coldCallPerCase: true,
      order: 'per case: each transport\'s cold call and warm-up, then timed repetitions interleaved in transport order (json, grpc, json, grpc, …)',
      clientUrl: null,
      startedApps: { pids: { 'server-a': 101, 'server-b': 102, client: 103 }, ports: { client: 3000, serverA: 3001, serverB: 3002 } },
      pinned: false,
    },
    results,
  };
}
