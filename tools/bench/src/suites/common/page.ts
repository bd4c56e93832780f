// A suite's report.html: heading, what the authors published, one section per chart group with its
// table, and how the run was made. Pure: document in, markup out.
import { escapeHtml, htmlDocument, INK, styleOf, renderValue, el, line, rect, renderCpuProfilesSection } from '../../export';
import type { SuiteDocument } from './document';
import { describeProfiledRun, presetOf } from '../../model';

export interface SuiteSection {
  id: string;
  heading: string;
  intro: string;
  /** Series shown in the charts, for the colour key. */
  legend?: { ids: readonly string[]; marks: 'bars' | 'lines'; published?: boolean };
  charts?: readonly string[];
  /** Markup of a table (htmlTable). */
  table?: string;
}

export interface SuitePage {
  title: string;
  /** One sentence: what the suite measures and how. */
  summary: string;
  /** The published figures this suite reproduces (experiments.md), as sentences. */
  published: readonly string[];
  sections: readonly SuiteSection[];
}

function legend(spec: NonNullable<SuiteSection['legend']>): string {
  const swatch = (body: string, width = 24) => el('svg', { width, height: 14, viewBox: `0 0 ${width} 14`, 'aria-hidden': 'true' }, body);
  const items = spec.ids.map((id) => {
    const style = styleOf(id);
    const mark =
      spec.marks === 'lines'
        ? swatch(line(1, 7, 23, 7, { stroke: style.colour, 'stroke-width': 2.5, 'stroke-dasharray': style.dash }))
        : swatch(rect(1, 1, 14, 12, { fill: style.colour, rx: 2 }), 16);
    return el('span', {}, mark, escapeHtml(id));
  });
  if (spec.published) {
    items.push(el('span', {}, swatch(el('path', { d: 'M12 2.5 L16.5 7 L12 11.5 L7.5 7 Z', fill: INK })), 'the authors’ published figure (their machine)'));
  }
  return el('div', { class: 'legend', 'data-legend': true }, ...items);
}

function section(s: SuiteSection): string {
  return el(
    'section',
    { id: s.id, 'data-section': s.id },
    el('h2', {}, escapeHtml(s.heading)),
    el('p', {}, escapeHtml(s.intro)),
    s.legend ? legend(s.legend) : '',
    s.charts && s.charts.length > 0 ? el('div', { class: 'grid' }, ...s.charts.map((svg) => el('figure', { class: 'chart' }, svg))) : '',
    s.table ?? '',
  );
}

export function renderSuitePage<S, R>(doc: SuiteDocument<S, R>, page: SuitePage): string {
  const commit = String(doc.provenance.gitCommit ?? 'unknown').slice(0, 12);
  const warning = doc.incomplete
    ? el('div', { class: 'warning', role: 'alert', 'data-warning': 'incomplete' }, 'Incomplete run: it stopped before every planned cell ran. What is here was measured.')
    : '';
  const profiled = describeProfiledRun(doc.settings as { cpuProfile?: { intervalUs: number } });
  const body = el(
    'main',
    {},
    el(
      'header',
      {},
      el('h1', {}, escapeHtml(page.title)),
      el(
        'p',
        { class: 'run' },
        `Run started ${escapeHtml(String(doc.settings.startedAt))} · preset ${escapeHtml(presetOf(doc.settings))}${doc.settings.security && doc.settings.security !== 'plain' ? ` · security ${escapeHtml(doc.settings.security)}` : ''} · commit <code>${escapeHtml(commit)}</code>` +
          (doc.provenance.gitDirty === true ? ' (with uncommitted changes)' : ''),
      ),
      warning,
      profiled === null ? '' : el('div', { class: 'warning', role: 'alert', 'data-warning': 'profiled' }, escapeHtml(profiled)),
      el('p', {}, escapeHtml(page.summary)),
      el('p', {}, escapeHtml(doc.settings.cores)),
      page.published.length > 0
        ? el('section', { class: 'howto', id: 'published' }, el('strong', {}, 'What the authors published'), el('ul', {}, ...page.published.map((p) => el('li', {}, escapeHtml(p)))))
        : '',
    ),
    ...page.sections.map(section),
    // --cpu-profile: bench:all's section, a group per unit's case (common/profiling.ts).
    renderCpuProfilesSection(doc.cpuProfiles ?? []),
    el(
      'section',
      { id: 'provenance', 'data-section': 'provenance' },
      el('h2', {}, 'How the run was made'),
      el('details', { open: true }, el('summary', {}, 'settings'), renderValue(doc.settings)),
      el('details', {}, el('summary', {}, 'plan (the data records used)'), renderValue(doc.plan)),
      el('details', {}, el('summary', {}, 'provenance'), renderValue(doc.provenance)),
    ),
    el('footer', {}, `Generated from results.json (schema version ${doc.schemaVersion}). A single file: no scripts, nothing fetched.`),
  );
  return htmlDocument(page.title, body);
}
