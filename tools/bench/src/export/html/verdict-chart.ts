// The verdict's one chart: JSON's and gRPC's median per verdict row on one log axis (cases span
// 0.5 ms to tens of seconds), each with its 95 % CI as a whisker. Dots, not bars: a log axis has no
// zero for a bar to start at. Rows are in the verdict table's order.
import { type BlogTransport, ms } from '../../model';
import { type Verdict, type VerdictRow } from '../../analysis';
import { factorLabel, winnerLabel } from '../verdict';
import { logTicks } from './log-chart';
import { GRID, INK, MUTED, TRANSPORT_STYLE } from './palette';
import { circle, el, group, line, rect, text, title } from './svg';

const ROW = 24;
const TOP = 40;
const WIDTH = 900;
const RIGHT = WIDTH - 130;
/** Roughly the width of one character of the 11 px labels, to fit the longest row label. */
const CHAR = 6.4;

function rowLabel(v: Verdict, row: VerdictRow): string {
  return [row.case, ...(v.byVariant ? [row.variant] : []), ...(v.byNetwork ? [row.network] : []), ...(v.byRuntime ? [`Node ${row.runtime}`] : []), ...(v.bySecurity ? [row.security] : [])].join(' · ');
}

function tick(value: number): string {
  return value >= 1000 ? `${value / 1000} s` : `${value} ms`;
}

/** A mark for one median: JSON a circle, gRPC a square (told apart in greyscale too), its CI a whisker. */
function mark(row: VerdictRow, transport: BlogTransport, cy: number, x: (v: number) => number): string {
  const value = row.cell[transport];
  const ci = row.ci[transport];
  if (value === null) return '';
  const colour = TRANSPORT_STYLE[transport].colour;
  const tip = `${transport} median ${ms(value)} ms` + (ci ? `; 95% CI ${ms(ci.low)} – ${ms(ci.high)} ms` : '');
  const dy = transport === 'json' ? -4 : 4;
  const whisker = ci ? line(x(ci.low), cy + dy, x(ci.high), cy + dy, { stroke: colour, 'stroke-width': 1.5, 'data-interval': transport }) : '';
  const attrs = { fill: colour, stroke: '#ffffff', 'stroke-width': 0.8, 'data-point': transport };
  const dot = transport === 'json' ? circle(x(value), cy + dy, 4.2, attrs, title(tip)) : rect(x(value) - 4, cy + dy - 4, 8, 8, attrs, title(tip));
  return whisker + dot;
}

/** The chart as an svg[data-chart="verdict"], one g[data-row] per verdict row. */
export function renderVerdictChart(v: Verdict): string {
  const labels = v.rows.map((row) => rowLabel(v, row));
  const left = 16 + Math.max(8, ...labels.map((l) => l.length)) * CHAR;
  const values = v.rows.flatMap((row) => (['json', 'grpc'] as const).flatMap((t) => [row.cell[t], row.ci[t]?.low, row.ci[t]?.high])).filter((x): x is number => typeof x === 'number' && x > 0);
  // The axis spans the values drawn (a decade at least), not a fixed 1 ms floor.
  const ticks = values.length > 0 ? logTicks(Math.min(...values), Math.max(...values)) : [1, 10];
  const [d0, d1] = [Math.log10(ticks[0]), Math.log10(ticks[ticks.length - 1])];
  const x = (value: number) => left + ((Math.log10(value) - d0) / (d1 - d0 || 1)) * (RIGHT - left);
  const bottom = TOP + v.rows.length * ROW;
  const height = bottom + 46;
  const axis = group(
    { 'data-axis': 'x' },
    ...ticks.map((t) =>
      group({}, line(x(t), TOP - 4, x(t), bottom, { stroke: GRID, 'stroke-width': 1 }), text(x(t), bottom + 14, tick(t), { 'font-size': 10, fill: MUTED, 'text-anchor': 'middle' })),
    ),
    text((left + RIGHT) / 2, bottom + 32, 'median time per call (log scale)', { 'font-size': 11, fill: MUTED, 'text-anchor': 'middle', 'data-label': 'unit' }),
  );
  const legend = group(
    { 'data-legend': true },
    circle(left + 4, 16, 4.2, { fill: TRANSPORT_STYLE.json.colour }),
    text(left + 13, 20, 'JSON median', { 'font-size': 11, fill: INK }),
    rect(left + 100, 12, 8, 8, { fill: TRANSPORT_STYLE.grpc.colour }),
    text(left + 113, 20, 'gRPC median', { 'font-size': 11, fill: INK }),
    line(left + 205, 16, left + 225, 16, { stroke: INK, 'stroke-width': 1.5 }),
    text(left + 230, 20, '95% CI of the median', { 'font-size': 11, fill: INK }),
  );
  const rows = v.rows.map((row, i) => {
    const cy = TOP + i * ROW + ROW / 2;
    const verdictText = row.cell.winner === null ? '—' : row.cell.winner === 'tie' ? 'tie' : `${winnerLabel(row)} ${row.factor!.toFixed(1)}×`;
    return group(
      { 'data-row': i, 'data-case': row.case, 'data-network': row.network, 'data-runtime': row.runtime, 'data-security': row.security, 'data-variant': row.variant },
      title(`${labels[i]}: ${winnerLabel(row)} ${factorLabel(row)}; JSON ${ms(row.cell.json)} ms, gRPC ${ms(row.cell.grpc)} ms`),
      text(left - 10, cy + 4, labels[i], { 'font-size': 11, fill: INK, 'text-anchor': 'end', 'data-label': 'row' }),
      mark(row, 'json', cy, x),
      mark(row, 'grpc', cy, x),
      text(RIGHT + 12, cy + 4, verdictText, { 'font-size': 11, fill: INK, 'font-weight': row.cell.winner === 'tie' ? null : 'bold', 'data-label': 'winner' }),
    );
  });
  const label = 'Median time per call, JSON vs gRPC, for each row of the verdict table (log scale)';
  return el(
    'svg',
    {
      'data-chart': 'verdict',
      viewBox: `0 0 ${WIDTH} ${height}`,
      width: WIDTH,
      height,
      role: 'img',
      'aria-label': label,
      'font-family': 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif',
    },
    title(label),
    ...v.rows.map((_, i) => (i % 2 === 0 ? rect(8, TOP + i * ROW, WIDTH - 16, ROW, { fill: '#f6f6f4' }) : '')),
    legend,
    axis,
    ...rows,
  );
}
