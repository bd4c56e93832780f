// The report's charts for one case, each built from that case's results (pure: view in, svg out).
import { type Cell, type ProcessCost, bytes, count, ms } from '../../model';
import { PHASE_LABELS, failedCellText, phaseParts } from '../../analysis';
import { renderBarChart, type Bar, type BarGroup } from './bar-chart';
import { describeShape, type CaseView } from './cases';
import { PHASE_COLOUR } from './palette';
import { renderPercentileChart } from './percentile-chart';
import { byteUnit } from './scale';
import { renderStackedBarChart, type StackedBar, type StackedBarChart } from './stacked-bar-chart';

function failedBar(cell: Cell, extra: Partial<Bar> = {}): Bar {
  return {
    transport: cell.transport,
    value: null,
    valueLabel: '—',
    tooltip: '',
    missing: { label: 'FAILED', tooltip: `${cell.transport} failed: ${failedCellText(cell)}`, failed: true },
    ...extra,
  };
}

function noValue(cell: Cell, why: string, extra: Partial<Bar> = {}): Bar {
  return { transport: cell.transport, value: null, valueLabel: '—', tooltip: '', missing: { label: 'n/a', tooltip: `${cell.transport}: ${why}`, failed: false }, ...extra };
}

function shell(view: CaseView, kind: string, what: string) {
  return { kind, caseId: view.id, subheading: describeShape(view), label: `${view.id}: ${what}` };
}

/** Median per transport with the 95 % CI of the median as a whisker and the blog's figure as a diamond. */
export function mediansChart(view: CaseView): string {
  const bars = view.cells.map((cell): Bar => {
    // Payload cases were not in the blog: no diamond.
    const marker =
      cell.blogMs === null ? null : { value: cell.blogMs, tooltip: `${cell.transport}, blog (2022, its own machine): ${ms(cell.blogMs)} ms average` };
    const s = cell.summary;
    if (!cell.ok) return failedBar(cell, { marker });
    if (!s) return noValue(cell, 'no timed samples', { marker });
    const ci = s.medianCi;
    return {
      transport: cell.transport,
      value: s.median,
      valueLabel: ms(s.median),
      tooltip:
        `${cell.transport} median ${ms(s.median)} ms over ${s.n} timed call${s.n === 1 ? '' : 's'}; ` +
        `mean ${ms(s.mean)}, min ${ms(s.min)}, p95 ${ms(s.p95)}, max ${ms(s.max)} ms` +
        (s.noisy ? `; noisy: ${s.noise.join(', ')}` : ''),
      interval: ci
        ? {
            low: ci.low,
            high: ci.high,
            tooltip: `${cell.transport}: ${Math.round(ci.level * 100)}% CI of the median ${ms(ci.low)} – ${ms(ci.high)} ms (exact coverage ${(ci.coverage * 100).toFixed(1)}%)`,
          }
        : null,
      marker,
    };
  });
  return renderBarChart({ ...shell(view, 'bars', 'median time per call, JSON vs gRPC'), unit: 'ms', groups: [{ label: '', bars }] });
}

const percent = (share: number | null) => (share === null ? '?' : `${(share * 100).toFixed(1)}%`);

/** Where notes come from when a bar's measured phases do not add up to its mean call time. */
const PHASE_NOTES = {
  overlap: {
    kind: 'overlap',
    text: 'phases overlap: parallel requests',
    tooltip:
      'A call fires all its requests at once: their build, encode and decode times are added up but ran at the same time, so together they exceed the mean call time. ' +
      'Only the measured phases are drawn (no remainder); the dashed line is the mean call time.',
  },
  unreported: {
    kind: 'unreported',
    text: 'a phase was not reported',
    tooltip: 'A process did not report one of the phases: the others are drawn, no remainder; the dashed line is the mean call time.',
  },
} as const;

/**
 * Where a call's time goes, one stacked bar per transport: server build, server encode, client
 * decode and the remainder, in ms per call, adding up to the mean call time. A negative remainder
 * (parallel requests' phases overlapping) or an unknown phase is never drawn: the measured phases
 * are, with the mean call time as a dashed level and a note saying why.
 */
export function phasesChart(view: CaseView): string {
  let note: StackedBarChart['note'] = null;
  const bars = view.cells.map((cell): StackedBar => {
    const t = cell.transport;
    if (!cell.ok) return { transport: t, segments: [], valueLabel: '—', missing: { label: 'n/a (failed)', tooltip: `${t} failed: ${failedCellText(cell)}`, failed: true } };
    // Documents written before phases were measured have no such field at all.
    const p = cell.phases ?? null;
    if (!p) return { transport: t, segments: [], valueLabel: '—', missing: { label: 'n/a', tooltip: `${t}: phases not recorded`, failed: false } };
    const parts = phaseParts(p);
    const drawn = parts.filter((part): part is typeof part & { ms: number } => part.ms !== null && part.ms >= 0);
    const segments = drawn.map((part) => ({
      phase: part.phase,
      value: part.ms,
      colour: PHASE_COLOUR[part.phase],
      label: part.share === null ? undefined : `${Math.round(part.share * 100)}%`,
      tooltip: `${t}, ${PHASE_LABELS[part.phase]}: ${ms(part.ms)} ms per call, ${percent(part.share)} of the ${ms(p.totalMs)} ms mean call`,
    }));
    const remainder = parts.find((part) => part.phase === 'remainder')!.ms;
    let total: StackedBar['total'] = null;
    if (remainder === null || remainder < 0) {
      const measured = drawn.reduce((a, part) => a + part.ms, 0);
      const why =
        remainder === null
          ? 'a phase was not reported, so no remainder is drawn'
          : `${ms(-remainder)} ms more: the parallel requests' phases overlap in time, so no remainder is drawn`;
      total = { value: p.totalMs, tooltip: `${t}: mean call ${ms(p.totalMs)} ms; the phases drawn add up to ${ms(measured)} ms, ${why}` };
      if (remainder !== null) note = PHASE_NOTES.overlap;
      else note ??= PHASE_NOTES.unreported;
    }
    return { transport: t, segments, valueLabel: ms(p.totalMs), total };
  });
  return renderStackedBarChart({ ...shell(view, 'phases', 'where the time of a call goes, per transport'), unit: 'ms per call (mean)', bars, note });
}

/** Percentile curves of the timed calls. */
export function distributionChart(view: CaseView): string {
  return renderPercentileChart({
    ...shell(view, 'percentiles', 'latency distribution of the timed calls'),
    series: view.cells.map((cell) => ({
      transport: cell.transport,
      samplesMs: cell.ok ? cell.samplesMs : [],
      // Older documents may lack outliers: nothing is marked then.
      outlierValues: cell.summary?.outliers?.values ?? [],
      missing: cell.ok ? 'no samples' : 'FAILED',
    })),
  });
}

type WarmthSeries = 'cold' | 'warmup-first' | 'warm';

/**
 * One call on a new connection (cold), the first warm-up call on the kept connection, and the warm
 * median: set-up cost, then what V8 still had to optimize (why the bench warms up before timing).
 */
export function coldChart(view: CaseView): string {
  const bar = (cell: Cell, series: WarmthSeries): Bar => {
    if (!cell.ok) return failedBar(cell, { series });
    const median = cell.summary?.median ?? null;
    const value = series === 'warm' ? median : series === 'cold' ? cell.coldMs : (cell.warmupMs[0] ?? null);
    if (value === null) {
      const why = { warm: 'no timed samples', cold: 'no cold call recorded', 'warmup-first': 'no warm-up call recorded' }[series];
      return noValue(cell, why, { series });
    }
    const more = median === null || series === 'warm' ? '' : `, ${ms(value - median)} ms more than the warm median`;
    const tooltip = {
      warm: `${cell.transport} warm median: ${ms(value)} ms`,
      cold: `${cell.transport} cold call (new connection, set-up included): ${ms(value)} ms${more}`,
      'warmup-first': `${cell.transport} first warm-up call (connection already open; ${count(cell.warmupMs.length)} warm-up call${cell.warmupMs.length === 1 ? '' : 's'} in all): ${ms(value)} ms${more}`,
    }[series];
    return { transport: cell.transport, value, valueLabel: ms(value), tooltip, series };
  };
  const groups: BarGroup[] = [
    { label: 'cold call', bars: view.cells.map((c) => bar(c, 'cold')) },
    { label: 'first warm-up', bars: view.cells.map((c) => bar(c, 'warmup-first')) },
    { label: 'warm median', bars: view.cells.map((c) => bar(c, 'warm')) },
  ];
  return renderBarChart({ ...shell(view, 'cold', 'cold call, first warm-up call and warm median'), unit: 'ms', groups });
}

/** Size of one response body. */
export function bytesChart(view: CaseView): string {
  const unit = byteUnit(Math.max(0, ...view.cells.map((c) => c.bytes ?? 0)));
  const bars = view.cells.map((cell): Bar => {
    if (!cell.ok) return failedBar(cell);
    if (cell.bytes === null) return noValue(cell, 'response size not recorded');
    const v = cell.bytes / unit.divisor;
    return {
      transport: cell.transport,
      value: v,
      valueLabel: unit.divisor === 1 ? count(cell.bytes) : v.toFixed(v < 10 ? 2 : 1),
      tooltip:
        `${cell.transport}: ${count(cell.bytes)} B per response (${bytes(cell.bytes)})` +
        (cell.bytesPerCall !== null ? `; ${count(cell.bytesPerCall)} B per call (${count(cell.requests)} request${cell.requests === 1 ? '' : 's'})` : ''),
    };
  });
  return renderBarChart({ ...shell(view, 'bytes', 'bytes of one response body'), unit: `${unit.label} per response`, groups: [{ label: '', bars }] });
}

type Side = 'client' | 'server';
const SIDES: readonly Side[] = ['client', 'server'];

function cost(cell: Cell, side: Side): ProcessCost | null {
  return side === 'client' ? cell.client : cell.server;
}

/**
 * One group per side (client, serving server), one bar per transport: failed cells and unreported
 * costs are marked the same way in every cost chart; `bar` draws the rest.
 */
function sideGroups(view: CaseView, what: string, bar: (cell: Cell, cost: ProcessCost, side: Side) => Bar): BarGroup[] {
  return SIDES.map(
    (side): BarGroup => ({
      label: side,
      bars: view.cells.map((cell): Bar => {
        if (!cell.ok) return failedBar(cell, { series: side });
        const c = cost(cell, side);
        if (!c) return noValue(cell, `${side} ${what} not reported`, { series: side });
        return bar(cell, c, side);
      }),
    }),
  );
}

/** CPU time (user + system) per timed call, client and serving server. */
export function cpuChart(view: CaseView): string {
  const groups = sideGroups(view, 'CPU time', (cell, c, side): Bar => {
    const calls = cell.summary?.n ?? cell.samplesMs.length;
    const total = c.cpuUserMs + c.cpuSystemMs;
    const per = calls > 0 ? total / calls : total;
    return {
      transport: cell.transport,
      value: per,
      valueLabel: ms(per),
      series: side,
      tooltip:
        `${cell.transport}, ${side} CPU: ${ms(per)} ms per call; ${ms(total)} ms in total over ${calls} timed call${calls === 1 ? '' : 's'} ` +
        `(user ${ms(c.cpuUserMs)} + system ${ms(c.cpuSystemMs)} ms)`,
    };
  });
  return renderBarChart({ ...shell(view, 'cpu', 'CPU time per timed call, client and server'), unit: 'CPU ms per call', groups });
}

/** Peak resident memory over the timed calls, client and serving server. */
export function rssChart(view: CaseView): string {
  const unit = byteUnit(Math.max(0, ...view.cells.flatMap((cell) => SIDES.map((side) => cost(cell, side)?.peakRssBytes ?? 0))));
  const groups = sideGroups(view, 'memory', (cell, c, side): Bar => {
    const v = c.peakRssBytes / unit.divisor;
    return {
      transport: cell.transport,
      value: v,
      valueLabel: v.toFixed(v < 10 ? 2 : 1),
      series: side,
      tooltip: `${cell.transport}, ${side} peak RSS: ${bytes(c.peakRssBytes)} (${count(c.peakRssBytes)} B)`,
    };
  });
  return renderBarChart({ ...shell(view, 'rss', 'peak resident memory, client and server'), unit: `${unit.label} peak RSS`, groups });
}
