// Every transport of a case ranked: the rows of analysis/ranking.ts, the same as results.md's table.
import { type Cell } from '../../model';
import { ranking } from '../../analysis';
import { RANKING_FIRST_NUMBER, RANKING_HEADER, RANKING_HEADING, RANKING_NOTE, rankingCells } from '../ranking';
import { escapeHtml } from './escape';
import { el } from './svg';
import { renderTableSection } from './table-section';

/** The section, or '' when no case ran over three transports or more. */
export function renderRankingHtmlSection(results: readonly Cell[]): string {
  const groups = ranking(results);
  if (groups.length === 0) return '';
  const last = RANKING_HEADER.length - 1;
  const body = groups.flatMap((g) =>
    g.cells.map((c) =>
      el(
        'tr',
        { 'data-network': g.place, 'data-variant': g.variant, 'data-case': g.case, 'data-transport': c.transport, 'data-rank': c.rank === null ? 'failed' : String(c.rank) },
        ...rankingCells(g, c).map((text, i) => el('td', i >= RANKING_FIRST_NUMBER && i < last ? { class: 'num' } : {}, escapeHtml(text))),
      ),
    ),
  );
  return renderTableSection({ id: 'ranking', heading: RANKING_HEADING, header: RANKING_HEADER, body, note: RANKING_NOTE });
}
