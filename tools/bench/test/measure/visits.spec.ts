import type { RawResult } from '../../src/model/model';
import { addCost, addPathCost, inPlanOrder, mergeVisits, pathCostBetween, weightedPhases } from '../../src/measure/visits';

function fork(samplesMs: number[], extra: Partial<RawResult> = {}): RawResult {
  return {
    variant: 'blog', case: '①-2', transport: 'grpc', rows: 10_000, requests: 1, warmup: 1, runs: samplesMs.length, blogMs: 94.66,
    startedAt: '2026-11-21T00:00:00.000Z', wallMs: 1000, sampleOrder: samplesMs.map((_, i) => 2 * i + 1), error: null,
    machineProbeMs: { before: 8, after: 12 },
    measurement: {
      coldMs: 200, warmupMs: [150], samplesMs, bytesPerResponse: 1_350_000, rowsPerCall: 10_000,
      client: { cpuUserMs: 10, cpuSystemMs: 1, peakRssBytes: 100 },
      server: { cpuUserMs: 20, cpuSystemMs: 2, peakRssBytes: 300 },
      serverMetricsError: null,
      phases: { serverBuildMs: 2, serverEncodeMs: 50, clientDecodeMs: 15 },
    },
    ...extra,
  };
}

describe('mergeVisits', () => {
  it('pools two forks of a cell: samples and warm-up in fork order, runs, time and CPU added, phases weighted by calls', () => {
    const second = fork([90, 110], { wallMs: 500, sampleOrder: [7, 9], machineProbeMs: { before: 12, after: 8 }, visits: [{ visit: 2, fork: 2, calls: 2 }] });
    second.measurement!.coldMs = 999;
    second.measurement!.phases = { serverBuildMs: 5, serverEncodeMs: 80, clientDecodeMs: null };
    const merged = mergeVisits(fork([100, 120, 80], { visits: [{ visit: 1, fork: 1, calls: 3 }] }), second, 1);
    // Which set of apps gave which samples, in the samples' order.
    expect(merged.visits).toEqual([{ visit: 1, fork: 1, calls: 3 }, { visit: 2, fork: 2, calls: 2 }]);
    expect(merged.runs).toBe(5);
    expect(merged.wallMs).toBe(1500);
    expect(merged.sampleOrder).toEqual([1, 3, 5, 7, 9]);
    expect(merged.measurement).toMatchObject({
      coldMs: 200,
      warmupMs: [150, 150],
      samplesMs: [100, 120, 80, 90, 110],
      client: { cpuUserMs: 20, cpuSystemMs: 2, peakRssBytes: 100 },
      server: { cpuUserMs: 40, cpuSystemMs: 4, peakRssBytes: 300 },
      // (3 × 2 + 2 × 5) / 5 and (3 × 50 + 2 × 80) / 5; a phase one fork did not report is unknown.
      phases: { serverBuildMs: 3.2, serverEncodeMs: 62, clientDecodeMs: null },
    });
    expect(merged.machineProbeMs).toEqual({ before: 10, after: 10 });
    expect(merged.error).toBeNull();
  });

  it('averages the probe over every fork so far, each fork alike', () => {
    const two = mergeVisits(fork([1]), fork([1], { machineProbeMs: { before: 11, after: 15 } }), 1);
    const three = mergeVisits(two, fork([1], { machineProbeMs: { before: 5, after: 6 } }), 2);
    expect(three.machineProbeMs).toEqual({ before: 8, after: 11 });
  });

  it('fails the cell when a fork failed, naming the fork', () => {
    const failed = fork([], { error: 'timed call failed: UNAVAILABLE', measurement: null });
    const merged = mergeVisits(fork([100]), failed, 2);
    expect(merged.error).toBe('visit 3: timed call failed: UNAVAILABLE');
    expect(merged.measurement).toBeNull();
    expect(mergeVisits(merged, fork([100]), 3).error).toBe('visit 3: timed call failed: UNAVAILABLE');
  });
});

describe('addCost and weightedPhases', () => {
  it('adds CPU, keeps the highest peak, and treats a missing side as nothing', () => {
    expect(addCost(null, { cpuUserMs: 1, cpuSystemMs: 2, peakRssBytes: 3 })).toEqual({ cpuUserMs: 1, cpuSystemMs: 2, peakRssBytes: 3 });
    expect(addCost({ cpuUserMs: 1, cpuSystemMs: 2, peakRssBytes: 9 }, null)).toEqual({ cpuUserMs: 1, cpuSystemMs: 2, peakRssBytes: 9 });
  });

  it('takes the other side when one stretch had no calls', () => {
    const p = { serverBuildMs: 1, serverEncodeMs: 2, clientDecodeMs: 3 };
    expect(weightedPhases(null, 0, p, 4)).toEqual(p);
    expect(weightedPhases(p, 4, null, 0)).toEqual(p);
    expect(weightedPhases(p, 4, null, 1)).toBeNull();
  });
});

describe('inPlanOrder', () => {
  it('orders cells by variant, case and transport as the options list them, not by when they were first visited', () => {
    const cell = (variant: string, c: string, transport: string) => ({ variant, case: c, transport });
    const visited = [cell('blog', '①-1', 'json'), cell('blog', '①-1', 'grpc'), cell('bare', '①-1', 'json'), cell('blog', '②-1', 'json'), cell('blog', '①-3', 'grpc'), cell('blog', '①-3', 'json')];
    expect(inPlanOrder(visited, ['loopback'], ['blog', 'bare'], ['①-1', '①-3', '②-1'], ['json', 'grpc']).map((c) => `${c.variant}/${c.case}/${c.transport}`)).toEqual([
      'blog/①-1/json', 'blog/①-1/grpc', 'blog/①-3/json', 'blog/①-3/grpc', 'blog/②-1/json', 'bare/①-1/json',
    ]);
  });
});

describe('addPathCost and pathCostBetween', () => {
  it('adds up and differences per cell the receive thread like the delayer, and stays absent when either reading lacks it', () => {
    expect(addPathCost({ cpuMs: 1, packets: 10, receiveCpuMs: 2 }, { cpuMs: 3, packets: 5, receiveCpuMs: 4 })).toEqual({ cpuMs: 4, packets: 15, receiveCpuMs: 6 });
    expect(addPathCost({ cpuMs: 1, packets: 10, receiveCpuMs: 2 }, { cpuMs: 3, packets: 5 })).toEqual({ cpuMs: 4, packets: 15 });
    expect(pathCostBetween({ cpuMs: 1, packets: 10, receiveCpuMs: 2 }, { cpuMs: 3.5, packets: 50, receiveCpuMs: 7 })).toEqual({ cpuMs: 2.5, packets: 40, receiveCpuMs: 5 });
    expect(pathCostBetween({ cpuMs: 1, packets: 10 }, { cpuMs: 3, packets: 50, receiveCpuMs: 7 })).toEqual({ cpuMs: 2, packets: 40 });
  });
});
