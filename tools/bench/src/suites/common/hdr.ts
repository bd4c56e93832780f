// Latencies recorded in an HDR histogram (hdr-histogram-js): fixed memory and 3 significant digits
// whatever the number of calls, so a 60 s ping-pong or a load run keeps every call's latency.
import { build, encodeIntoCompressedBase64, type Histogram } from 'hdr-histogram-js';

/** Microseconds from 1 µs to 60 s, three significant digits. */
export function latencyHistogram(): Histogram {
  return build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
}

export function recordMs(histogram: Histogram, ms: number): void {
  histogram.recordValue(Math.min(60_000_000, Math.max(1, Math.round(ms * 1000))));
}

export interface HdrSummary {
  n: number;
  meanMs: number;
  minMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  /** 201 quantiles (0, 0.5, … 100 %), for the percentile chart. */
  curveMs: number[];
  /** The whole histogram (HdrHistogram's compressed base64 form), for anyone who wants other percentiles. */
  hdrBase64: string;
}

export function summarizeHistogram(histogram: Histogram): HdrSummary {
  const at = (p: number) => histogram.getValueAtPercentile(p) / 1000;
  return {
    n: histogram.totalCount,
    meanMs: histogram.mean / 1000,
    minMs: histogram.minNonZeroValue / 1000,
    p50Ms: at(50),
    p90Ms: at(90),
    p99Ms: at(99),
    p999Ms: at(99.9),
    maxMs: histogram.maxValue / 1000,
    curveMs: Array.from({ length: 201 }, (_, i) => at(Math.max(0.0001, i / 2))),
    hdrBase64: encodeIntoCompressedBase64(histogram),
  };
}
