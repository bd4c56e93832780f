// What every chart shares: the svg element with its test hooks, the case heading, a y axis with grid.
import { GRID, INK, MUTED } from './palette';
import { tickLabel } from './scale';
import { el, group, line, text, title } from './svg';

export const CHART_WIDTH = 360;
export const CHART_HEIGHT = 272;
/** Top of every plotting area: below the case id, its subheading and the unit of the y axis. */
export const PLOT_TOP = 66;

/** The plotting area inside a chart, in svg units. */
export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface ChartShell {
  /** data-chart: which kind of chart (bars, percentiles, cold, bytes, cpu, rss). */
  kind: string;
  caseId: string;
  /** Under the case id, e.g. "10,000 rows × 1 request". */
  subheading: string;
  /** Accessible name and hover text of the whole chart. */
  label: string;
}

/** The chart's svg element: data-chart/data-case hooks, a <title>, the case id as a text label. */
export function chartSvg(shell: ChartShell, ...body: string[]): string {
  return el(
    'svg',
    {
      'data-chart': shell.kind,
      'data-case': shell.caseId,
      viewBox: `0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`,
      width: CHART_WIDTH,
      height: CHART_HEIGHT,
      role: 'img',
      'aria-label': shell.label,
      'font-family': 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif',
    },
    title(shell.label),
    text(10, 19, shell.caseId, { 'font-size': 15, 'font-weight': 'bold', fill: INK, 'data-label': 'case' }),
    text(10, 35, shell.subheading, { 'font-size': 11, fill: MUTED }),
    ...body,
  );
}

/** Horizontal grid lines with their tick labels, the zero line, and the unit above the axis. */
export function yAxis(box: Box, ticks: readonly number[], y: (value: number) => number, unit: string): string {
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
  return group(
    { 'data-axis': 'y' },
    ...ticks.map((t) =>
      group(
        {},
        line(box.left, y(t), box.right, y(t), { stroke: t === 0 ? INK : GRID, 'stroke-width': 1 }),
        text(box.left - 5, y(t) + 3.5, tickLabel(t, step), { 'font-size': 10, fill: MUTED, 'text-anchor': 'end' }),
      ),
    ),
    text(8, box.top - 12, unit, { 'font-size': 10, fill: MUTED, 'data-label': 'unit' }),
  );
}
