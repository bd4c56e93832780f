// A line chart on log–log axes: x = a size (bytes) or a count, y = a time or a rate, one line per
// series. Suites whose x spans several orders of magnitude (message sizes from a few bytes to 100 KB)
// would squash every small value into the floor of a linear chart.
import { CHART_HEIGHT, CHART_WIDTH, PLOT_TOP, chartSvg, type Box, type ChartShell } from './frame';
import { GRID, INK, MUTED, styleOf } from './palette';
import { circle, group, line, polyline, rect, text, title } from './svg';

export interface LogSeries {
  /** Series id: its colour, dash and label. */
  id: string;
  /** [x, y] points, both positive; others are left out (a log axis has no zero). */
  points: ReadonlyArray<readonly [number, number]>;
}

export interface LogChart extends ChartShell {
  xLabel: string;
  /** Unit of the y axis, written above it. */
  unit: string;
  series: LogSeries[];
  /** How an x or y value is written in ticks and tooltips. */
  formatX?: (value: number) => string;
  formatY?: (value: number) => string;
}

const BOX: Box = { left: 56, right: CHART_WIDTH - 96, top: PLOT_TOP, bottom: CHART_HEIGHT - 40 };

/** Powers of ten covering [min, max] (at least one decade), with 2 and 5 between them when few. */
export function logTicks(min: number, max: number): number[] {
  let low = Math.floor(Math.log10(min));
  let high = Math.ceil(Math.log10(max));
  if (high === low) high += 1;
  if (high - low > 8) low = high - 8;
  const ticks: number[] = [];
  for (let e = low; e <= high; e++) {
    ticks.push(10 ** e);
    if (high - low <= 2 && e < high) ticks.push(2 * 10 ** e, 5 * 10 ** e);
  }
  return ticks.map((t) => Number(t.toPrecision(6)));
}

function shortNumber(value: number): string {
  if (value >= 1e9) return `${value / 1e9}G`;
  if (value >= 1e6) return `${value / 1e6}M`;
  if (value >= 1e3) return `${value / 1e3}k`;
  return String(value);
}

function logScale(ticks: readonly number[], r0: number, r1: number): (value: number) => number {
  const d0 = Math.log10(ticks[0]);
  const d1 = Math.log10(ticks[ticks.length - 1]);
  return (value) => r0 + ((Math.log10(value) - d0) / (d1 - d0 || 1)) * (r1 - r0);
}

export function renderLogChart(chart: LogChart): string {
  const fx = chart.formatX ?? shortNumber;
  const fy = chart.formatY ?? shortNumber;
  const series = chart.series.map((s) => ({ ...s, points: s.points.filter(([x, y]) => x > 0 && y > 0 && Number.isFinite(x) && Number.isFinite(y)) }));
  const all = series.flatMap((s) => s.points);
  const xs = all.map(([x]) => x);
  const ys = all.map(([, y]) => y);
  const xTicks = logTicks(Math.min(...xs, 1), Math.max(...xs, 10));
  const yTicks = logTicks(Math.min(...ys, 1), Math.max(...ys, 10));
  const x = logScale(xTicks, BOX.left, BOX.right);
  const y = logScale(yTicks, BOX.bottom, BOX.top);
  const axes = group(
    {},
    group(
      { 'data-axis': 'y' },
      ...yTicks.map((t) =>
        group(
          {},
          line(BOX.left, y(t), BOX.right, y(t), { stroke: GRID, 'stroke-width': 1 }),
          text(BOX.left - 5, y(t) + 3.5, shortNumber(t), { 'font-size': 10, fill: MUTED, 'text-anchor': 'end' }),
        ),
      ),
      text(8, BOX.top - 12, chart.unit, { 'font-size': 10, fill: MUTED, 'data-label': 'unit' }),
    ),
    group(
      { 'data-axis': 'x' },
      ...xTicks.map((t) =>
        group(
          {},
          line(x(t), BOX.top, x(t), BOX.bottom, { stroke: GRID, 'stroke-width': 1 }),
          text(x(t), BOX.bottom + 13, shortNumber(t), { 'font-size': 10, fill: MUTED, 'text-anchor': 'middle' }),
        ),
      ),
      text((BOX.left + BOX.right) / 2, BOX.bottom + 28, chart.xLabel, { 'font-size': 10, fill: MUTED, 'text-anchor': 'middle' }),
    ),
  );
  const lines = series
    .filter((s) => s.points.length > 0)
    .map((s) => {
      const style = styleOf(s.id);
      const points = [...s.points].sort((a, b) => a[0] - b[0]);
      const marks = points.map(([px, py]) => {
        const tip = `${s.id}: ${fy(py)} ${chart.unit} at ${fx(px)} ${chart.xLabel}`;
        const common = { fill: style.colour, stroke: '#ffffff', 'stroke-width': 0.8, 'data-point': s.id };
        return style.marker === 'square' ? rect(x(px) - 3, y(py) - 3, 6, 6, common, title(tip)) : circle(x(px), y(py), 3.2, common, title(tip));
      });
      return group(
        { 'data-series': s.id },
        polyline(points.map(([px, py]) => [x(px), y(py)] as const), { stroke: style.colour, 'stroke-width': 2, 'stroke-dasharray': style.dash, 'data-line': s.id }),
        ...marks,
      );
    });
  // Labels beside the last point of each line, pushed apart so they never overlap.
  const drawn = series.filter((s) => s.points.length > 0);
  const ends = drawn.map((s) => y([...s.points].sort((a, b) => a[0] - b[0])[s.points.length - 1][1]) + 3.5).map((v, i) => ({ v, i }));
  ends.sort((a, b) => a.v - b.v);
  for (let k = 1; k < ends.length; k++) ends[k].v = Math.max(ends[k].v, ends[k - 1].v + 12);
  const labels = ends.map(({ v, i }) =>
    group(
      {},
      line(BOX.right + 5, v - 3.5, BOX.right + 15, v - 3.5, { stroke: styleOf(drawn[i].id).colour, 'stroke-width': 2.5 }),
      text(BOX.right + 18, v, drawn[i].id, { 'font-size': 10, fill: INK, 'data-label': 'series' }),
    ),
  );
  return chartSvg(chart, axes, ...lines, ...labels);
}
