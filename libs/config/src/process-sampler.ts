import { PerformanceObserver, performance } from 'node:perf_hooks';

/** What a process says about its own cost. CPU and phase times are cumulative; peaks are per window. */
export interface ProcessSample {
  cpuUserMs: number;
  cpuSystemMs: number;
  rssBytes: number;
  peakRssBytes: number;
  maxRssBytes: number;
  /** Time spent building reply rows, summed over every request served. */
  buildMs: number;
  /** Time spent serializing replies, summed over every request served. */
  encodeMs: number;
  /** Sample requests served (GET /server-a/:count, GetSamples) since start: a replica's own count of its share of the load (absent: a server that does not count, e.g. bare's). */
  requests?: number;
  /** V8's heap in use at the reading (garbage not yet collected included), what it has reserved, and memory outside it held by JS objects (Buffers included; arrayBuffersBytes of it ArrayBuffers): process.memoryUsage(). Absent: a server that does not report them (Go's). */
  heapUsedBytes?: number;
  heapTotalBytes?: number;
  externalBytes?: number;
  arrayBuffersBytes?: number;
  /** Whether the GC fields are measured: true from every Node process; absent or false from one that does not (Go's). */
  gcReported?: boolean;
  /** V8's garbage-collection pauses, summed since start. */
  gcMs?: number;
  /** Of those, the part that fell inside the build and encode phases' own windows, summed since start. */
  buildGcMs?: number;
  encodeGcMs?: number;
}

/** Phases a server times for itself, so a reader can see where a call's time went. */
export type ServerPhase = 'build' | 'encode';

/** How often resident memory is sampled for the windowed peak. */
export const RSS_SAMPLE_MS = 20;
/**
 * How many recent phase windows a GC pause is matched against. V8 reports a pause a little after it
 * ends, by then the phase that held it has ended too; a few hundred windows cover any burst of calls.
 */
const PHASE_WINDOWS_KEPT = 512;

/**
 * Reads CPU time from process.cpuUsage and keeps the peak resident memory of a window: a window opens
 * with read(true) and closes with read(false), and only while one is open is RSS sampled every 20 ms
 * (the kernel's maxRSS is only a lifetime peak). Why only then: an idle process woken 50 times a second
 * used ~0.6% of a core, and the bench keeps a dozen sets of apps (36 processes) up at once, idle
 * between their visits: ~20% of one of this machine's two cores, taken from whatever was being timed.
 * The timer is unref'd so it never keeps a process alive.
 */
export class ProcessSampler {
  private peak = 0;
  private readonly phases: Record<ServerPhase, number> = { build: 0, encode: 0 };
  private timer: NodeJS.Timeout | null = null;
  private requests = 0;
  private readonly gc: Record<ServerPhase | 'all', number> = { all: 0, build: 0, encode: 0 };
  /** The latest PHASE_WINDOWS_KEPT phase windows (performance.now() ms), a ring: `next` is overwritten next. */
  private readonly windows: { phase: ServerPhase; start: number; end: number }[] = [];
  private next = 0;

  /**
   * `watchGc`: V8's garbage-collection pauses are summed, overall and inside each phase, because a phase's
   * time depends on whether a young-generation collection lands inside it (a 10,000-row protobuf encode:
   * ~33 ms without, ~47 ms with one; docs/repeatability.md).
   */
  constructor(watchGc = true) {
    this.peak = process.memoryUsage.rss();
    if (watchGc) {
      // Never what keeps a process alive: an observer holds no handle on the event loop.
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) this.addGc(entry.startTime, entry.duration);
      }).observe({ entryTypes: ['gc'] });
    }
  }

  /** A reading; `resetPeak` opens a new window (peak from now on, sampled), false closes it. */
  read(resetPeak: boolean): ProcessSample {
    this.tick();
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    const sample: ProcessSample = {
      cpuUserMs: cpu.user / 1000,
      cpuSystemMs: cpu.system / 1000,
      rssBytes: memory.rss,
      peakRssBytes: this.peak,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      buildMs: this.phases.build,
      encodeMs: this.phases.encode,
      requests: this.requests,
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      externalBytes: memory.external,
      arrayBuffersBytes: memory.arrayBuffers,
      gcReported: true,
      gcMs: this.gc.all,
      buildGcMs: this.gc.build,
      encodeGcMs: this.gc.encode,
    };
    if (resetPeak) {
      this.peak = sample.rssBytes;
      this.startSampling();
    } else {
      this.stop();
    }
    return sample;
  }

  /** Whether a window is open and RSS is being sampled. */
  get sampling(): boolean {
    return this.timer !== null;
  }

  /** Counts one request served (cumulative: readers take differences). */
  countRequest(): void {
    this.requests += 1;
  }

  /** Adds time spent in a phase that ends now (cumulative, like CPU time: readers take differences). */
  addPhase(phase: ServerPhase, ms: number): void {
    this.phases[phase] += ms;
    // Called per reply while calls are timed: a slot overwritten, never an array shifted.
    const end = performance.now();
    this.windows[this.next] = { phase, start: end - ms, end };
    this.next = (this.next + 1) % PHASE_WINDOWS_KEPT;
  }

  /** A GC pause (performance.now() ms): added to the total and to each phase window it overlaps. */
  addGc(startMs: number, durationMs: number): void {
    this.gc.all += durationMs;
    const endMs = startMs + durationMs;
    for (const window of this.windows) {
      const overlap = Math.min(endMs, window.end) - Math.max(startMs, window.start);
      if (overlap > 0) this.gc[window.phase] += overlap;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private startSampling(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), RSS_SAMPLE_MS);
    this.timer.unref();
  }

  private tick(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
  }
}

/** One sampler per process, started on first use. */
let shared: ProcessSampler | undefined;
export function processSampler(): ProcessSampler {
  shared ??= new ProcessSampler();
  return shared;
}

/** What a window between two readings cost: CPU used in it and the peak RSS seen in it. */
export interface ProcessCost {
  cpuUserMs: number;
  cpuSystemMs: number;
  peakRssBytes: number;
  /** V8's garbage-collection pauses in the window (absent: the process does not report them). */
  gcMs?: number;
}

/** Whether a reading reports GC pauses (a 0 over the wire is also what a server that does not measure them sends). */
export const reportsGc = (sample: ProcessSample): boolean => sample.gcReported === true;

export function costBetween(before: ProcessSample, after: ProcessSample): ProcessCost {
  return {
    cpuUserMs: after.cpuUserMs - before.cpuUserMs,
    cpuSystemMs: after.cpuSystemMs - before.cpuSystemMs,
    peakRssBytes: after.peakRssBytes,
    ...(reportsGc(after) ? { gcMs: (after.gcMs ?? 0) - (before.gcMs ?? 0) } : {}),
  };
}
