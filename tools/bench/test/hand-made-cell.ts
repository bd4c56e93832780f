import type { Cell } from '../src/model/model';
import { summarize } from '../src/model/stats';

/** One hand-made ①-2 JSON result (samples 40, 50, 60 ms) for exporter tests; override what a test varies. */
export function handMadeCell(overrides: Partial<Cell> = {}): Cell {
  return {
    runtime: '24',
    variant: 'blog',
    case: '①-2',
    transport: 'json',
    rows: 10_000,
    requests: 1,
    warmup: 1,
    runs: 3,
    samplesMs: [40, 50, 60],
    warmupMs: [70],
    coldMs: 80.25,
    bytes: 2_548_000,
    bytesPerCall: 2_548_000,
    rowsPerCall: 10_000,
    ok: true,
    error: null,
    sampleOrder: [0, 2, 4],
    summary: summarize([40, 50, 60]),
    server: null,
    phases: null,
    blogMs: 47.22,
    client: null,
    startedAt: '2026-11-21T00:00:00.000Z',
    wallMs: 300,
    machineProbeMs: null,
    ...overrides,
  };
}
