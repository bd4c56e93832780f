// A latency distribution as a percentile curve: x = percentile 0…100, y = latency, one line per
// transport through its sorted samples (type-7 percentiles are exactly the straight lines between them).
import { type Transport, ms } from '../../model';
import { CHART_HEIGHT, CHART_WIDTH, PLOT_TOP, chartSvg, yAxis, type Box, type ChartShell } from './frame';
import { FAILED, GRID, INK, MUTED, styleOf } from './palette';
import { linear, zeroTicks } from './scale';
import { circle, group, line, polyline, rect, text, title } from './svg';

export interface PercentileSeries {
  /** The series (a transport, or a suite's variant id): its colour, dash and label. */
  transport: Transport | string;
  /** The timed samples in any order; empty with `missing` for a transport that has none. */
  samplesMs: readonly number[];
  /** Sample values flagged as outliers (reported, never dropped). */
  outlierValues?: readonly number[];
  missing?: string;
}

export interface PercentileChart extends ChartShell {
  series: PercentileSeries[];
  /** Names at the right end of each line (default). Off where a legend names long series ids, so the plot keeps its width. */
  endLabels?: boolean;
}

const NARROW: Box = { left: 52, right: CHART_WIDTH - 56, top: PLOT_TOP, bottom: CHART_HEIGHT - 40 };
const WIDE_BOX: Box = { ...NARROW, right: CHART_WIDTH - 14 };
/** Above this many samples the points are not drawn one by one (the line still passes through all). */
const MAX_POINTS = 120;

/** [percentile, value] for each sorted sample: sample i of n sits at 100·i/(n−1). */
export function percentilePoints(samples: readonly number[]): Array<[number, number]> {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 1) return [[0, sorted[0]], [100, sorted[0]]];
  return sorted.map((v, i) => [(100 * i) / (sorted.length - 1), v]);
}

/** Spreads label positions apart (at least `gap`) while keeping their order. */
function spread(ys: number[], gap: number): number[] {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
  for (let k = 1; k < order.length; k++) order[k].y = Math.max(order[k].y, order[k - 1].y + gap);
  const out = new Array<number>(ys.length);
  for (const o of order) out[o.i] = o.y;
  return out;
}

function pointMarker(transport: string, x: number, y: number, tooltip: string, outlier: boolean): string {
  const style = styleOf(transport);
  const common = { fill: style.colour, stroke: outlier ? INK : '#ffffff', 'stroke-width': outlier ? 1.5 : 0.8, 'data-point': transport, 'data-outlier': outlier };
  const size = outlier ? 4 : 2.8;
  return style.marker === 'square'
    ? rect(x - size, y - size, 2 * size, 2 * size, common, title(tooltip))
    : circle(x, y, size, common, title(tooltip));
}

export function renderPercentileChart(chart: PercentileChart): string {
  const endLabels = chart.endLabels !== false;
  const BOX = endLabels ? NARROW : WIDE_BOX;
  const drawn = chart.series.filter((s) => s.samplesMs.length > 0);
  const max = Math.max(0, ...drawn.flatMap((s) => s.samplesMs));
  const ticks = zeroTicks(max);
  const y = linear(0, ticks[ticks.length - 1], BOX.bottom, BOX.top);
  const x = linear(0, 100, BOX.left, BOX.right);

  const xAxis = group(
    { 'data-axis': 'x' },
    ...[0, 25, 50, 75, 100].map((p) =>
      group(
        {},
        line(x(p), BOX.top, x(p), BOX.bottom, { stroke: GRID, 'stroke-width': 1 }),
        text(x(p), BOX.bottom + 13, String(p), { 'font-size': 10, fill: MUTED, 'text-anchor': 'middle' }),
      ),
    ),
    text((BOX.left + BOX.right) / 2, BOX.bottom + 28, 'percentile of timed calls', { 'font-size': 10, fill: MUTED, 'text-anchor': 'middle' }),
  );

  const lines = drawn.map((s) => {
    const style = styleOf(s.transport);
    const points = percentilePoints(s.samplesMs);
    const outliers = [...(s.outlierValues ?? [])];
    const n = s.samplesMs.length;
    const markers =
      n <= MAX_POINTS
        ? points.slice(0, n).map(([p, v], i) => {
            const k = outliers.indexOf(v);
            if (k !== -1) outliers.splice(k, 1);
            const tip = `${s.transport} p${p.toFixed(1)}: ${ms(v)} ms (sample ${i + 1} of ${n}, sorted)${k !== -1 ? ', outlier' : ''}`;
            return pointMarker(s.transport, x(p), y(v), tip, k !== -1);
          })
        : [];
    return group(
      { 'data-series': s.transport },
      polyline(
        points.map(([p, v]) => [x(p), y(v)] as const),
        { stroke: style.colour, 'stroke-width': 2, 'stroke-dasharray': style.dash, 'data-line': s.transport },
        title(`${s.transport}: ${n} timed call${n === 1 ? '' : 's'}, ${ms(points[0][1])} … ${ms(points[points.length - 1][1])} ms`),
      ),
      ...markers,
    );
  });

  // Labels at the right end of each line, pushed apart when the lines end close together.
  const ends = spread(
    drawn.map((s) => y(Math.max(...s.samplesMs)) + 3.5),
    12,
  );
  const labels = (endLabels ? drawn : []).map((s, i) => {
    const style = styleOf(s.transport);
    return group(
      {},
      line(BOX.right + 5, ends[i] - 3.5, BOX.right + 17, ends[i] - 3.5, { stroke: style.colour, 'stroke-width': 2.5, 'stroke-dasharray': style.dash ? '4 2' : null }),
      text(BOX.right + 20, ends[i], s.transport, { 'font-size': 11, fill: INK, 'data-label': 'transport' }),
    );
  });
  const missing = chart.series
    .filter((s) => s.samplesMs.length === 0)
    .map((s, i) =>
      text(CHART_WIDTH - 10, 19 + 14 * i, `${s.transport}: ${s.missing ?? 'no samples'}`, {
        'font-size': 10,
        'font-weight': 'bold',
        fill: FAILED,
        'text-anchor': 'end',
        'data-missing': s.transport,
      }),
    );
  return chartSvg(chart, yAxis(BOX, ticks, y, 'ms'), xAxis, ...lines, ...labels, ...missing);
}
