// A grouped bar chart: groups along x (e.g. "client", "server"), one bar per transport in each, with
// optional error bars (a confidence interval) and reference markers (the blog's figure).
import type { Transport } from '../../model';
import { CHART_HEIGHT, CHART_WIDTH, PLOT_TOP, chartSvg, yAxis, type Box, type ChartShell } from './frame';
import { INK, MUTED, styleOf } from './palette';
import { linear, zeroTicks } from './scale';
import { escapeHtml } from './escape';
import { el, group, line, rect, text, title } from './svg';
import { missingMark, type Missing } from './missing-mark';

export interface Bar {
  /** The series the bar belongs to (a transport, or a suite's variant id): its colour and label. */
  transport: Transport | string;
  /** Height in the chart's unit; null draws no bar but `missing` where it would be. */
  value: number | null;
  /** Under the transport name, e.g. "32.0". */
  valueLabel: string;
  /** Hover text with exact values. */
  tooltip: string;
  /** What to write instead of a bar, e.g. "FAILED" or "n/a". */
  missing?: Missing;
  /** data-series of the bar, when a chart has more than one per transport. */
  series?: string;
  /** Whisker from low to high, e.g. the 95 % CI of the median. */
  interval?: { low: number; high: number; tooltip: string } | null;
  /** A reference value drawn as a diamond, e.g. the blog's figure. */
  marker?: { value: number; tooltip: string } | null;
}

export interface BarGroup {
  /** Written under the group; empty for a chart with a single group. */
  label: string;
  bars: Bar[];
}

export interface BarChart extends ChartShell {
  /** Unit of the y axis, written above it ("ms", "MiB"). */
  unit: string;
  groups: BarGroup[];
}

const BOX: Box = { left: 52, right: CHART_WIDTH - 12, top: PLOT_TOP, bottom: CHART_HEIGHT - 52 };
const MAX_BAR_WIDTH = 46;

function highest(groups: readonly BarGroup[]): number {
  let max = 0;
  for (const b of groups.flatMap((g) => g.bars)) {
    max = Math.max(max, b.value ?? 0, b.interval?.high ?? 0, b.marker?.value ?? 0);
  }
  return max;
}

function diamond(cx: number, cy: number, size: number): string {
  return `M${cx} ${cy - size} L${cx + size} ${cy} L${cx} ${cy + size} L${cx - size} ${cy} Z`;
}

function drawBar(bar: Bar, cx: number, width: number, slot: number, y: (v: number) => number): string {
  const parts: string[] = [];
  const base = y(0);
  if (bar.value === null) {
    parts.push(missingMark(bar.missing, bar.transport, cx, base));
  } else {
    const top = y(bar.value);
    parts.push(
      rect(
        cx - width / 2,
        top,
        width,
        base - top,
        { fill: styleOf(bar.transport).colour, 'data-bar': true, 'data-transport': bar.transport, 'data-series': bar.series },
        title(bar.tooltip),
      ),
    );
  }
  if (bar.interval) {
    const cap = Math.min(12, width * 0.45);
    const [y1, y2] = [y(bar.interval.low), y(bar.interval.high)];
    parts.push(
      group(
        { 'data-interval': true, stroke: INK, 'stroke-width': 1.5 },
        title(bar.interval.tooltip),
        line(cx, y1, cx, y2),
        line(cx - cap / 2, y1, cx + cap / 2, y1),
        line(cx - cap / 2, y2, cx + cap / 2, y2),
      ),
    );
  }
  if (bar.marker) {
    // Beside the bar, not on it, so it never hides the whisker; a dotted tick carries its level across.
    const my = y(bar.marker.value);
    const mx = cx + width / 2 + 6;
    parts.push(
      group(
        { 'data-marker': 'blog' },
        title(bar.marker.tooltip),
        line(cx - width / 2, my, mx, my, { stroke: INK, 'stroke-width': 1, 'stroke-dasharray': '2 2' }),
        el('path', { d: diamond(mx, my, 4.5), fill: INK, stroke: '#ffffff', 'stroke-width': 1 }),
      ),
    );
  }
  const styleLabel = { 'text-anchor': 'middle' };
  // A series name wider than its slot (e.g. "rest-protobuf" among four bars) wraps at its first hyphen.
  const cut = bar.transport.indexOf('-');
  const wraps = bar.transport.length * 6.2 > slot && cut > 0;
  const name = wraps ? [bar.transport.slice(0, cut + 1), bar.transport.slice(cut + 1)] : [bar.transport];
  const nameAttrs = { ...styleLabel, 'font-size': wraps ? 10 : 11, fill: INK, 'data-label': 'transport' };
  parts.push(
    wraps
      ? el('text', { x: cx, y: BOX.bottom + 14, ...nameAttrs }, ...name.map((part, i) => el('tspan', { x: cx, dy: i === 0 ? 0 : 11 }, escapeHtml(part))))
      : text(cx, BOX.bottom + 14, bar.transport, nameAttrs),
  );
  parts.push(text(cx, BOX.bottom + 27 + (wraps ? 10 : 0), bar.valueLabel, { ...styleLabel, 'font-size': 10, fill: MUTED, 'data-label': 'value' }));
  return group({}, ...parts);
}

/** The chart as an svg element; every bar is a rect[data-bar][data-transport]. */
export function renderBarChart(chart: BarChart): string {
  const ticks = zeroTicks(highest(chart.groups));
  const y = linear(0, ticks[ticks.length - 1], BOX.bottom, BOX.top);
  const groupWidth = (BOX.right - BOX.left) / Math.max(1, chart.groups.length);
  const body = chart.groups.map((g, gi) => {
    const inner = groupWidth * 0.8;
    const slot = inner / Math.max(1, g.bars.length);
    const width = Math.min(MAX_BAR_WIDTH, slot * 0.78);
    const start = BOX.left + gi * groupWidth + (groupWidth - inner) / 2;
    const bars = g.bars.map((bar, bi) => drawBar(bar, start + slot * (bi + 0.5), width, slot, y));
    const label = g.label
      ? text(BOX.left + (gi + 0.5) * groupWidth, BOX.bottom + 43, g.label, {
          'font-size': 11,
          'font-weight': 'bold',
          fill: INK,
          'text-anchor': 'middle',
          'data-label': 'group',
        })
      : '';
    return group({ 'data-group': g.label || null }, ...bars, label);
  });
  return chartSvg(chart, yAxis(BOX, ticks, y, chart.unit), ...body);
}
