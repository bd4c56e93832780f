/** How long to time each sample, and how many. */
export interface Calibration {
  /** Double the iteration count until one sample takes at least this long… */
  minSampleMs: number;
  /** …then scale the count so one sample takes about this long. */
  targetSampleMs: number;
  samples: number;
}

/**
 * The iteration count for one timed sample: double from 1 until a batch takes at least minSampleMs,
 * then scale linearly to targetSampleMs (the method of the mobile benchmark, experiments.md §3a).
 * `time(n)` runs the action n times and returns the elapsed ms.
 */
export function calibrateIterations(time: (iterations: number) => number, calibration: Calibration, maxIterations = 1 << 24): number {
  let iterations = 1;
  let elapsed = time(iterations);
  while (elapsed < calibration.minSampleMs && iterations < maxIterations) {
    iterations *= 2;
    elapsed = time(iterations);
  }
  const scaled = Math.round((iterations * calibration.targetSampleMs) / Math.max(elapsed, 1e-6));
  return Math.max(1, Math.min(maxIterations, Math.max(iterations, scaled)));
}

/** Times `samples` batches of `iterations` and returns nanoseconds per operation for each batch. */
export function sampleNsPerOp(time: (iterations: number) => number, iterations: number, samples: number): number[] {
  return Array.from({ length: samples }, () => (time(iterations) * 1e6) / iterations);
}
