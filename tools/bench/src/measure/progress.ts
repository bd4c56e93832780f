import { type Visit, type RawResult, summarize, ms, describeDisturbance, isDisturbed } from '../model';

/** Starting a set of apps, waiting until it is ready, and its path measurement (≈ 2.6 s each in the default runs here). */
export const SET_START_MS = 2_500;
/** Building and calibrating a network stage (≈ 15 s at region here). */
export const STAGE_BUILD_MS = 15_000;

/**
 * Expected cost of a visit in ms, from the blog's own figures: a rough but case-aware weight for the
 * ETA. Across a network every call also takes at least one round trip (`rttMs`); HTTP/2's default
 * flow-control window can make a big reply take far longer (docs/network.md), which the progress
 * lines then estimate from the pace measured.
 */
export function expectedCostMs(planned: Visit, rttMs = 0): number {
  const { blogMs, rows, requests } = planned.record;
  // Payload cases have no blog figure: weigh them like blog rows (~5 µs each, as ①-2 took) plus a call's overhead.
  const callMs = (t: string) => (blogMs?.[t as keyof typeof blogMs] ?? 3 + 0.005 * rows * requests) + rttMs;
  const repetitionMs = planned.transports.reduce((sum, t) => sum + callMs(t), 0);
  // A budget ends the timed calls early, never before the visit's minimum runs.
  const runs = planned.budgetMs === null ? planned.runs : Math.min(planned.runs, Math.max(planned.minRuns, Math.ceil(planned.budgetMs / repetitionMs)));
  // The untimed calls (cold and counted warm-up) and the timed warm-up, which adds up to warmupMs per transport.
  const untimed = planned.transports.reduce((sum, t) => sum + (planned.warmup + (planned.cold ? 1 : 0)) * callMs(t) + planned.warmupMs, 0);
  return runs * repetitionMs + untimed;
}

/**
 * Remaining time: the visits left at the pace the finished ones kept against their costs (`costs`, per
 * visit in plan order), plus what is left of the time outside visits (`outsideMs`: starting sets of apps
 * and stages), spread evenly over the visits. The pace counts visit time only: a set's start, which the
 * first visit pays, made the first lines promise hours for a run of seconds.
 */
export function estimateLeftMs(costs: readonly number[], doneCases: number, doneFraction: number, visitsElapsedMs: number, outsideMs = 0): number | null {
  const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
  const finished = sum(costs.slice(0, doneCases)) + (costs[doneCases] ?? 0) * doneFraction;
  if (finished <= 0 || visitsElapsedMs <= 0) return null;
  const outsideLeft = outsideMs * Math.max(0, 1 - (doneCases + doneFraction) / Math.max(1, costs.length));
  return ((sum(costs) - finished) * visitsElapsedMs) / finished + outsideLeft;
}

export function duration(msValue: number | null): string {
  if (msValue === null) return '?';
  const s = Math.round(msValue / 1000);
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** "; via nats 2.0 in / 2.0 out messages per call, 95 ms broker CPU per 1,000 calls": the broker's part of a visit. */
function describeBroker(broker: RawResult['broker']): string {
  if (broker === undefined) return '';
  if (broker === null || broker.calls === 0) return '; broker not read';
  const per = (x: number | null | undefined) => (x === null || x === undefined ? '?' : (x / broker.calls).toFixed(1));
  const cpu = (1000 * broker.cpuMs) / broker.calls;
  return `; via ${broker.kind} ${per(broker.counters?.messagesIn)} in / ${per(broker.counters?.messagesOut)} out messages per call, ${Math.round(cpu)} ms broker CPU per 1,000 calls`;
}

function describeResult(result: RawResult): string {
  if (result.error !== null || result.measurement === null) return `${result.transport} FAILED: ${result.error}`;
  const summary = summarize(result.measurement.samplesMs);
  return `${result.transport} median ${ms(summary?.median)} ms (cold ${ms(result.measurement.coldMs)} ms${describeBroker(result.broker)})`;
}

/**
 * Progress on stderr. On a terminal: one live line with case i of N, repetition j of M, elapsed time
 * and an estimate of the time left, plus a line per finished case. Elsewhere (CI, pipes): only the
 * plain line per finished case.
 */
export class Progress {
  private readonly started = performance.now();
  private caseIndex = 0;
  private readonly costs: readonly number[];
  private readonly outsideMs: number;
  /** Time spent in finished visits, and when the current one started. */
  private visitsMs = 0;
  private visitStarted = performance.now();

  /** `estimate`: each visit's cost and the time outside visits (estimate.ts); without one, the blog's figures. */
  constructor(
    private readonly plan: readonly Visit[],
    estimate: { visitMs: readonly number[]; outsideMs: number } | null = null,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.costs = estimate?.visitMs ?? plan.map((p) => expectedCostMs(p));
    this.outsideMs = estimate?.outsideMs ?? 0;
  }

  private get live(): boolean {
    return Boolean(this.stream.isTTY);
  }

  visitStart(planned: Visit, index: number): void {
    this.caseIndex = index;
    this.visitStarted = performance.now();
    this.status(planned, 0);
  }

  repetition(planned: Visit, repetition: number): void {
    this.status(planned, repetition);
  }

  /** After the `index`-th visit of `total` (the run's count, which skipped variants do not advance). */
  visitDone(planned: Visit, results: RawResult[], index: number, total: number): void {
    const { record, runs, variant, fork, forks, visit, visits } = planned;
    const forkLabel = (visits > 1 ? ` visit ${visit}/${visits}` : '') + (forks > 1 ? ` fork ${fork}/${forks}` : '');
    // Which Node, when the run has several (--node).
    const on = (new Set(this.plan.map((p) => p.runtime)).size > 1 ? ` (Node ${planned.runtime})` : '') + (planned.security === 'plain' ? '' : ` (${planned.security})`);
    const made = results[0]?.runs ?? runs;
    const elapsed = performance.now() - this.started;
    this.visitsMs += performance.now() - this.visitStarted;
    const left = estimateLeftMs(this.costs, index + 1, 0, this.visitsMs, this.outsideMs);
    const disturbance = results[0]?.disturbance?.[0];
    const disturbed = disturbance && isDisturbed(disturbance) ? ` DISTURBED (${describeDisturbance(disturbance)})` : '';
    const line =
      `[${index + 1}/${total}] ${variant} ${record.id}${forkLabel}${on} (${record.rows} row(s) × ${record.requests}, ${made} runs): ${results.map(describeResult).join('; ')}${disturbed}` +
      ` [${duration(elapsed)} elapsed${index + 1 < total ? `, about ${duration(left)} left` : ''}]`;
    this.stream.write(`${this.live ? '\r\x1b[K' : ''}${line}\n`);
  }

  private status(planned: Visit, repetition: number): void {
    if (!this.live) return;
    const elapsed = performance.now() - this.started;
    const inVisits = this.visitsMs + performance.now() - this.visitStarted;
    const left = estimateLeftMs(this.costs, this.caseIndex, repetition / Math.max(1, planned.runs), inVisits, this.outsideMs);
    this.stream.write(
      `\r\x1b[Kcase ${this.caseIndex + 1}/${this.plan.length} ${planned.variant} ${planned.record.id}, repetition ${repetition}/${planned.runs}, ` +
        `elapsed ${duration(elapsed)}, about ${duration(left)} left`,
    );
  }
}
