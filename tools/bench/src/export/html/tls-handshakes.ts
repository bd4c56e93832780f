// The TLS handshakes behind each cell over TLS: the rows of tlsRows(), the same as results.md's table.
import { type Cell, securityOf } from '../../model';
import { TLS_HEADER, TLS_HEADING, TLS_NOTE, tlsRows } from '../tls-handshakes';
import { escapeHtml } from './escape';
import { el } from './svg';
import { renderTableSection } from './table-section';

/** The section, or '' when no cell ran over TLS. */
export function renderTlsHtmlSection(results: readonly Cell[]): string {
  const rows = tlsRows(results);
  if (rows.length === 0) return '';
  const body = rows.map(({ result, cells }) =>
    el('tr', { 'data-security': securityOf(result), 'data-variant': result.variant, 'data-case': result.case, 'data-transport': result.transport }, ...cells.map((cell, i) => el('td', i === 5 ? { class: 'num' } : {}, escapeHtml(cell)))),
  );
  return renderTableSection({ id: 'tls', heading: TLS_HEADING, header: TLS_HEADER, body, note: TLS_NOTE });
}
