import { percentile } from '../../model';
import { calibrateIterations, sampleNsPerOp, type Calibration } from './calibrate';
import type { CodecRecord } from './codecs';
import type { SizeRecord } from './sizes';

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

/** Encode and decode of one message with one codec: warm-up, calibration, timed samples. */
export function measureCell(size: SizeRecord, codec: CodecRecord, calibration: Calibration): SerializationCell[] {
  const value = size.build();
  const bytes = codec.encode(size.kind, value);
  const actions = {
    encode: timer(() => codec.encode(size.kind, value)),
    decode: timer(() => codec.decode(size.kind, bytes)),
  };
  return (['encode', 'decode'] as const).map((direction) => {
    const time = actions[direction];
    time(Math.max(1, Math.round(calibration.samples))); // warm-up: let the JIT see the code first
    const iterations = calibrateIterations(time, calibration);
    const nsPerOpSamples = sampleNsPerOp(time, iterations, calibration.samples);
    const nsPerOp = percentile([...nsPerOpSamples].sort((a, b) => a - b), 50);
    return { size: size.id, codec: codec.id, direction, bytes: bytes.length, iterations, nsPerOpSamples, nsPerOp, opsPerSecond: 1e9 / nsPerOp };
  });
}

/** Drops the sink's reference between cells (tests use it to check work really ran). */
export function lastSink(): unknown {
  return sink;
}
