import { costBetween, ProcessSampler } from '../src/process-sampler';

describe('ProcessSampler', () => {
  it('reads cumulative CPU and a peak that survives until reset', () => {
    const sampler = new ProcessSampler();
    try {
      const first = sampler.read(true);
      const ballast = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `row ${i}` }));
      let spin = 0;
      for (let i = 0; i < 2e6; i++) spin += i;
      const second = sampler.read(false);
      expect(ballast.length + spin).toBeGreaterThan(0);
      expect(second.cpuUserMs + second.cpuSystemMs).toBeGreaterThan(first.cpuUserMs + first.cpuSystemMs);
      expect(second.peakRssBytes).toBeGreaterThanOrEqual(second.rssBytes);
      expect(second.maxRssBytes).toBeGreaterThan(0);
      expect(second.heapUsedBytes).toBeGreaterThan(0);
      expect(second.heapUsedBytes).toBeLessThanOrEqual(second.heapTotalBytes!);
      expect(second.externalBytes).toBeGreaterThanOrEqual(second.arrayBuffersBytes!);
    } finally {
      sampler.stop();
    }
  });

  it('samples RSS only while a window is open: read(true) opens it, read(false) closes it', async () => {
    const sampler = new ProcessSampler();
    try {
      expect(sampler.sampling).toBe(false);
      const opened = sampler.read(true);
      expect(sampler.sampling).toBe(true);
      // Memory taken and given back inside the window: only the 20-ms sampling can have seen it.
      let ballast: unknown[] | null = Array.from({ length: 400_000 }, (_, i) => ({ i, s: `row ${i}` }));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const seenWhileHeld = process.memoryUsage.rss();
      ballast = null;
      const closed = sampler.read(false);
      expect(ballast).toBeNull();
      expect(sampler.sampling).toBe(false);
      expect(closed.peakRssBytes).toBeGreaterThanOrEqual(Math.min(seenWhileHeld, closed.rssBytes));
      expect(closed.peakRssBytes).toBeGreaterThanOrEqual(opened.rssBytes);
    } finally {
      sampler.stop();
    }
  });

  it('accumulates phase times', () => {
    const sampler = new ProcessSampler();
    try {
      sampler.addPhase('build', 1.5);
      sampler.addPhase('build', 2);
      sampler.addPhase('encode', 4);
      expect(sampler.read(false)).toMatchObject({ buildMs: 3.5, encodeMs: 4 });
    } finally {
      sampler.stop();
    }
  });

  it("puts each GC pause in the total and in the phase windows it overlaps", () => {
    const sampler = new ProcessSampler(false);
    try {
      sampler.addPhase('encode', 10);
      const encodeEnded = performance.now();
      sampler.addPhase('build', 0);
      sampler.addGc(encodeEnded - 5, 2);
      sampler.addGc(encodeEnded - 1_000, 3);
      expect(sampler.read(false)).toMatchObject({ gcReported: true, gcMs: 5, encodeGcMs: 2, buildGcMs: 0 });
    } finally {
      sampler.stop();
    }
  });

  it('watches V8 for its pauses: a forced young-generation collection is counted', async () => {
    const sampler = new ProcessSampler();
    try {
      const before = sampler.read(false).gcMs ?? 0;
      // Objects kept alive past several scavenges, then turns of the event loop for the observer's delivery.
      const kept: { i: number; s: string }[] = [];
      for (let i = 0; i < 1_000_000; i++) kept.push({ i, s: String(i) });
      expect(kept).toHaveLength(1_000_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sampler.read(false).gcMs).toBeGreaterThan(before);
    } finally {
      sampler.stop();
    }
  });

  it('costBetween subtracts CPU and keeps the later window peak', () => {
    const before = { cpuUserMs: 10, cpuSystemMs: 2, rssBytes: 100, peakRssBytes: 100, maxRssBytes: 500, buildMs: 0, encodeMs: 0 };
    const after = { cpuUserMs: 35, cpuSystemMs: 7, rssBytes: 120, peakRssBytes: 400, maxRssBytes: 500, buildMs: 3, encodeMs: 4 };
    expect(costBetween(before, after)).toEqual({ cpuUserMs: 25, cpuSystemMs: 5, peakRssBytes: 400 });
    // GC pauses only from a process that reports them (Go's servers send 0 and false).
    expect(costBetween({ ...before, gcMs: 40, gcReported: true }, { ...after, gcMs: 52.5, gcReported: true })).toEqual({ cpuUserMs: 25, cpuSystemMs: 5, peakRssBytes: 400, gcMs: 12.5 });
    expect(costBetween({ ...before, gcMs: 0, gcReported: true }, { ...after, gcMs: 0, gcReported: true })).toEqual({ cpuUserMs: 25, cpuSystemMs: 5, peakRssBytes: 400, gcMs: 0 });
    expect(costBetween({ ...before, gcMs: 0, gcReported: false }, { ...after, gcMs: 0, gcReported: false })).not.toHaveProperty('gcMs');
  });
});
