// A stacked bar chart: one bar per transport whose segments are the parts of one value (a call's
// phases), stacked from zero; optionally a dashed level across a bar where its parts do not add up
// to its total, and a note above the plot saying why.
import type { Transport } from '../../model';
import { escapeHtml } from './escape';
import { CHART_HEIGHT, CHART_WIDTH, PLOT_TOP, chartSvg, yAxis, type Box, type ChartShell } from './frame';
import { INK, MUTED } from './palette';
import { linear, zeroTicks } from './scale';
import { el, group, line, rect, text, title } from './svg';
import { missingMark, type Missing } from './missing-mark';

export interface StackSegment {
  /** data-phase of its rect. */
  phase: string;
  /** Height in the chart's unit, at least 0 (callers leave out what cannot be drawn). */
  value: number;
  colour: string;
  /** Hover text with the exact value. */
  tooltip: string;
  /** Written inside the segment when it is tall enough, e.g. "22%". */
  label?: string;
}

export interface StackedBar {
  transport: Transport;
  /** Bottom first; empty for a bar that is `missing`. */
  segments: StackSegment[];
  /** Under the transport name, e.g. "30.4". */
  valueLabel: string;
  /** A level marked across the bar, for a total its segments do not add up to. */
  total?: { value: number; tooltip: string } | null;
  /** What to write instead of a bar, e.g. "n/a". */
  missing?: Missing;
}

export interface StackedBarChart extends ChartShell {
  /** Unit of the y axis, written above it. */
  unit: string;
  bars: StackedBar[];
  /** A remark above the plot, at the right (e.g. why a bar's parts exceed its total). */
  note?: { kind: string; text: string; tooltip: string } | null;
}

const BOX: Box = { left: 52, right: CHART_WIDTH - 12, top: PLOT_TOP, bottom: CHART_HEIGHT - 40 };
const MAX_BAR_WIDTH = 64;
/** Segments shorter than this (svg units) carry no label inside. */
const MIN_LABELLED_HEIGHT = 13;

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

function highest(bars: readonly StackedBar[]): number {
  return Math.max(0, ...bars.map((b) => Math.max(sum(b.segments.map((s) => Math.max(0, s.value))), b.total?.value ?? 0)));
}

function drawBar(bar: StackedBar, cx: number, width: number, y: (v: number) => number): string {
  const parts: string[] = [];
  const base = y(0);
  if (bar.missing || bar.segments.length === 0) {
    parts.push(missingMark(bar.missing, bar.transport, cx, base));
  } else {
    let below = 0;
    for (const segment of bar.segments) {
      const value = Math.max(0, segment.value);
      const [bottom, top] = [y(below), y(below + value)];
      below += value;
      parts.push(
        rect(
          cx - width / 2,
          top,
          width,
          bottom - top,
          // The exact value as a string: numeric attributes are rounded to two decimals.
          { fill: segment.colour, stroke: '#ffffff', 'stroke-width': 0.6, 'data-phase': segment.phase, 'data-transport': bar.transport, 'data-value': String(value) },
          title(segment.tooltip),
        ),
      );
      if (segment.label && bottom - top >= MIN_LABELLED_HEIGHT) {
        parts.push(text(cx, (top + bottom) / 2 + 3.5, segment.label, { 'font-size': 10, fill: INK, 'text-anchor': 'middle', 'data-label': 'share', 'pointer-events': 'none' }));
      }
    }
  }
  if (bar.total) {
    const ty = y(bar.total.value);
    parts.push(
      group(
        { 'data-total': bar.transport },
        title(bar.total.tooltip),
        line(cx - width / 2 - 6, ty, cx + width / 2 + 6, ty, { stroke: INK, 'stroke-width': 2, 'stroke-dasharray': '5 3' }),
      ),
    );
  }
  parts.push(text(cx, BOX.bottom + 14, bar.transport, { 'text-anchor': 'middle', 'font-size': 11, 'font-weight': 'bold', fill: INK, 'data-label': 'transport' }));
  parts.push(text(cx, BOX.bottom + 27, bar.valueLabel, { 'text-anchor': 'middle', 'font-size': 10, fill: MUTED, 'data-label': 'value' }));
  return group({ 'data-stack': bar.transport }, ...parts);
}

/** The chart as an svg element; every segment is a rect[data-phase][data-transport]. */
export function renderStackedBarChart(chart: StackedBarChart): string {
  const ticks = zeroTicks(highest(chart.bars));
  const y = linear(0, ticks[ticks.length - 1], BOX.bottom, BOX.top);
  const slot = (BOX.right - BOX.left) / Math.max(1, chart.bars.length);
  const width = Math.min(MAX_BAR_WIDTH, slot * 0.5);
  const bars = chart.bars.map((bar, i) => drawBar(bar, BOX.left + slot * (i + 0.5), width, y));
  const note = chart.note
    ? el(
        'text',
        { x: CHART_WIDTH - 10, y: BOX.top - 12, 'font-size': 10.5, 'font-weight': 'bold', fill: INK, 'text-anchor': 'end', 'data-note': chart.note.kind },
        escapeHtml(chart.note.text),
        title(chart.note.tooltip),
      )
    : '';
  return chartSvg(chart, yAxis(BOX, ticks, y, chart.unit), ...bars, note);
}
