// The brokers' part of each cell in report.html: a table per network (its hops above it), the same rows
// as results.md's (export/brokers.ts), drawn as the other table sections are.
import { type Cell, type NetworkRecord } from '../../model';
import { brokerTables } from '../../analysis';
import { BROKERS_FIRST_NUMBER, BROKERS_HEADER, BROKERS_HEADING, BROKERS_NOTE, brokerCells, describeBrokerTable } from '../brokers';
import { escapeHtml } from './escape';
import { el } from './svg';

/** The section, or '' for a run without brokers. */
export function renderBrokersHtmlSection(results: readonly Cell[], networks: Record<string, NetworkRecord> | undefined): string {
  const tables = brokerTables(results, networks);
  if (tables.length === 0) return '';
  const head = el('thead', {}, el('tr', {}, ...BROKERS_HEADER.map((h) => el('th', { scope: 'col' }, escapeHtml(h)))));
  const sources = (rows: (typeof tables)[number]['rows']) => [...new Map(rows.filter((r) => r.broker && r.source).map((r) => [r.broker!, r.source!]))];
  const perNetwork = tables.map((t) =>
    el(
      'div',
      { 'data-broker-network': t.network },
      el('h3', {}, escapeHtml(t.network)),
      el('p', { class: 'notes' }, escapeHtml(describeBrokerTable(t))),
      el(
        'div',
        { class: 'table-wrap' },
        el(
          'table',
          { 'data-table': `brokers-${t.network}` },
          head,
          el('tbody', {}, ...t.rows.map((row) => el('tr', { 'data-variant': row.variant, 'data-case': row.case, 'data-transport': row.transport }, ...brokerCells(row).map((cell, i) => el('td', i < BROKERS_FIRST_NUMBER ? {} : { class: 'num' }, escapeHtml(cell)))))),
        ),
      ),
      ...sources(t.rows).map(([broker, source]) => el('p', { class: 'notes' }, `${escapeHtml(broker)}: ${escapeHtml(source)}`)),
    ),
  );
  return el('section', { id: 'brokers', 'data-section': 'brokers' }, el('h2', {}, escapeHtml(BROKERS_HEADING)), el('p', { class: 'notes' }, escapeHtml(BROKERS_NOTE)), ...perNetwork);
}
