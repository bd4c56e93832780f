import { percentile } from '../../model';
import { calibrateIterations, sampleNsPerOp, type Calibration } from './calibrate';
import type { CodecRecord } from './codecs';
import type { SizeRecord } from './sizes';
import { unprofiled, type Profiled } from '../common/profiling';

/** The suite's settings: how each sample is calibrated (its command-line options). */
export type SerializationSettings = Calibration & Record<string, number>;

export interface SerializationCell {
  size: string;
  codec: string;
  direction: 'encode' | 'decode';
  bytes: number;
  iterations: number;
  nsPerOpSamples: number[];
  nsPerOp: number;
  opsPerSecond: number;
}

/** Keeps results alive so the optimizer cannot drop the work being timed. */
let sink: unknown;

function timer(action: () => unknown): (iterations: number) => number {
  return (iterations) => {
    const started = performance.now();
    for (let i = 0; i < iterations; i++) sink = action();
    return performance.now() - started;
  };
}

/** Encode and decode of one message with one codec: warm-up, calibration, timed samples (the measured part, under --cpu-profile a unit per size, direction and codec). */
export async function measureCell(size: SizeRecord, codec: CodecRecord, calibration: Calibration, profiled: Profiled = unprofiled): Promise<SerializationCell[]> {
  const value = size.build();
  const bytes = codec.encode(size.kind, value);
  const actions = {
    encode: timer(() => codec.encode(size.kind, value)),
    decode: timer(() => codec.decode(size.kind, bytes)),
  };
  const cells: SerializationCell[] = [];
  for (const direction of ['encode', 'decode'] as const) {
    const time = actions[direction];
    time(Math.max(1, Math.round(calibration.samples))); // warm-up: let the JIT see the code first
    // Calibrated twice, the second on warm code: the first pass of a cold process's first cell still pays
    // for compiling (GetSamplesParam's protobuf encode: 1,383 iterations took its 5 ms, then ran in 0.9 ms,
    // too short a stretch for its profile to hold one sample).
    calibrateIterations(time, calibration);
    const iterations = calibrateIterations(time, calibration);
    const nsPerOpSamples = await profiled({ case: `${size.id} ${direction}`, transport: codec.id }, async () => sampleNsPerOp(time, iterations, calibration.samples), () => iterations * calibration.samples);
    const nsPerOp = percentile([...nsPerOpSamples].sort((a, b) => a - b), 50);
    cells.push({ size: size.id, codec: codec.id, direction, bytes: bytes.length, iterations, nsPerOpSamples, nsPerOp, opsPerSecond: 1e9 / nsPerOp });
  }
  return cells;
}

/** Drops the sink's reference between cells (tests use it to check work really ran). */
export function lastSink(): unknown {
  return sink;
}
