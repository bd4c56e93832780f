// The colour key, drawn with the same marks as the charts.
import { BLOG_TRANSPORTS } from '../../model';
import { PHASE_KEYS, PHASE_LABELS } from '../../analysis';
import { INK, PHASE_COLOUR, styleOf } from './palette';
import { el, line, rect } from './svg';

const swatch = (body: string, width = 16) => el('svg', { width, height: 14, viewBox: `0 0 ${width} 14`, 'aria-hidden': 'true' }, body);

function item(mark: string, label: string): string {
  return el('span', {}, mark, label);
}

/**
 * Transport colours, plus the extra marks a section's charts use; with 'phases', the colours of a
 * call's phases instead (those charts name the transport under each bar).
 */
export function renderLegend(marks: ReadonlyArray<'bars' | 'lines' | 'ci' | 'blog' | 'phases'>, transports: readonly string[] = BLOG_TRANSPORTS): string {
  const items: string[] = [];
  if (marks.includes('phases')) {
    for (const phase of PHASE_KEYS) items.push(item(swatch(rect(1, 1, 14, 12, { fill: PHASE_COLOUR[phase], rx: 2 })), PHASE_LABELS[phase]));
    items.push(item(swatch(line(1, 7, 23, 7, { stroke: INK, 'stroke-width': 2, 'stroke-dasharray': '5 3' }), 24), 'mean call time, where the phases drawn do not add up to it'));
  }
  for (const transport of marks.includes('phases') ? [] : transports) {
    const style = styleOf(transport);
    if (marks.includes('lines')) {
      items.push(item(swatch(line(1, 7, 23, 7, { stroke: style.colour, 'stroke-width': 2.5, 'stroke-dasharray': style.dash }), 24), transport));
    } else {
      items.push(item(swatch(rect(1, 1, 14, 12, { fill: style.colour, rx: 2 })), transport));
    }
  }
  if (marks.includes('ci')) {
    const whisker = [line(8, 1, 8, 13), line(4, 1, 12, 1), line(4, 13, 12, 13)].join('');
    items.push(item(swatch(el('g', { stroke: INK, 'stroke-width': 1.5 }, whisker)), '95% confidence interval of the median (only with ≥ 6 samples)'));
  }
  if (marks.includes('blog')) {
    const blog = line(1, 7, 16, 7, { stroke: INK, 'stroke-width': 1, 'stroke-dasharray': '2 2' }) + el('path', { d: 'M19 2.5 L23.5 7 L19 11.5 L14.5 7 Z', fill: INK });
    items.push(item(swatch(blog, 24), 'the blog’s average (2022, its machine)'));
  }
  return el('div', { class: 'legend', 'data-legend': true }, ...items);
}
