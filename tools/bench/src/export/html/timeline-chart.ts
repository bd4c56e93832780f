// A timeline of calls by outcome: one column per time bin, its calls stacked (ok, failed, hung), with
// marked moments across the plot (a fault injected, undone): bench:service's recovery timelines.
import { CHART_HEIGHT, CHART_WIDTH, PLOT_TOP, chartSvg, yAxis, type Box, type ChartShell } from './frame';
import { FAILED, INK, MUTED } from './palette';
import { linear, zeroTicks } from './scale';
import { group, line, rect, text, title } from './svg';

export interface TimelineColumn {
  /** Start of the bin, ms since the run's start. */
  atMs: number;
  ok: number;
  failed: number;
  hung: number;
}

export interface TimelineChart extends ChartShell {
  binMs: number;
  columns: readonly TimelineColumn[];
  /** Moments drawn as dashed verticals with their label (ms since the run's start). */
  marks: readonly { atMs: number; label: string }[];
}

/** The outcomes' colours: ok calm, failed the report's failure red, hung amber. */
export const OUTCOME_COLOUR = Object.freeze({ ok: '#4c8c4a', failed: FAILED, hung: '#d98e04' });

const BOX: Box = { left: 44, right: CHART_WIDTH - 10, top: PLOT_TOP, bottom: CHART_HEIGHT - 34 };

export function renderTimelineChart(chart: TimelineChart): string {
  const endMs = Math.max(chart.binMs, ...chart.columns.map((c) => c.atMs + chart.binMs), ...chart.marks.map((m) => m.atMs));
  const top = Math.max(1, ...chart.columns.map((c) => c.ok + c.failed + c.hung));
  const ticks = zeroTicks(top);
  const y = linear(0, ticks.at(-1) ?? top, BOX.bottom, BOX.top);
  const x = linear(0, endMs, BOX.left, BOX.right);
  const width = Math.max(0.5, x(chart.binMs) - x(0) - 0.3);
  const columns = chart.columns.map((c) => {
    let base = 0;
    const segments = (['ok', 'failed', 'hung'] as const).map((outcome) => {
      const n = c[outcome];
      const from = base;
      base += n;
      return n > 0 ? rect(x(c.atMs), y(base), width, y(from) - y(base), { fill: OUTCOME_COLOUR[outcome], 'data-outcome': outcome }) : '';
    });
    return group({ 'data-bin': c.atMs }, title(`${(c.atMs / 1000).toFixed(1)} s: ${c.ok} ok, ${c.failed} failed, ${c.hung} hung`), ...segments);
  });
  const marks = chart.marks.map((m) =>
    group(
      { 'data-mark': m.label },
      line(x(m.atMs), BOX.top, x(m.atMs), BOX.bottom, { stroke: INK, 'stroke-width': 1, 'stroke-dasharray': '3 3' }),
      text(x(m.atMs) + 2, BOX.top + 9, m.label, { 'font-size': 9, fill: INK }),
    ),
  );
  const seconds = Array.from({ length: Math.floor(endMs / 1000) + 1 }, (_, s) => text(x(s * 1000), BOX.bottom + 13, `${s}`, { 'font-size': 10, fill: MUTED, 'text-anchor': 'middle' }));
  return chartSvg(
    chart,
    yAxis(BOX, ticks, y, `calls per ${chart.binMs} ms bin (by due time)`),
    ...columns,
    ...marks,
    ...seconds,
    text((BOX.left + BOX.right) / 2, CHART_HEIGHT - 6, 's since the run started', { 'font-size': 10, fill: MUTED, 'text-anchor': 'middle' }),
  );
}
