// A run under change (a replica added, one removed) seen over time: completed calls, errors and the
// worst latency per bin, so a spike or a gap shows where in the run it happened.
export interface TimelineBin {
  /** Start of the bin, ms since the run's start. */
  atMs: number;
  ok: number;
  errors: number;
  /** Highest latency from the due time among the calls that ended in the bin (ms); 0 when none did. */
  maxMs: number;
}

export class Timeline {
  readonly bins: TimelineBin[] = [];

  constructor(private readonly binMs: number) {}

  observe(atMs: number, correctedMs: number, ok: boolean): void {
    const i = Math.max(0, Math.floor(atMs / this.binMs));
    while (this.bins.length <= i) this.bins.push({ atMs: this.bins.length * this.binMs, ok: 0, errors: 0, maxMs: 0 });
    const bin = this.bins[i];
    if (ok) bin.ok += 1;
    else bin.errors += 1;
    bin.maxMs = Math.max(bin.maxMs, correctedMs);
  }
}
