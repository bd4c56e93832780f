// Every cell's modes, kernel TCP counters and disturbed visits (issue #43), as results.md and report.html
// show them: the rows of analysis/path-counter-rows.ts' tcpCounterRows, and each two-mode cell's note.
import { count, describeDisturbance, DISTURBED_SHARE, type Cell } from '../model';
import { cellModes, hasModeNote, tcpCounterRows, visitsOfRun, type TcpCounterRow } from '../analysis';
import { markdownSection } from './path-cost';

export const CELL_COUNTERS_HEADING = 'Modes and kernel TCP counters per cell';
export const CELL_COUNTERS_NOTE =
  "Modes: a gap test on each cell's sorted timed calls (docs/method.md#modes): two groups when a gap is wider than 3× the " +
  "wider group's interquartile range and 20 % of the faster group's centre, each group ≥ 3 calls and ≥ 5 % of them; shown as " +
  'calls × centre (median). Counters: the kernel TCP counters (/proc/net/netstat, /proc/net/snmp) of the namespace the servers ' +
  "listen in, over a cell's timed calls (in a visit that failed, over every call up to the failure): on a stage its server " +
  "namespace's; on loopback the host's, so every other connection on the host counts too. Overflows: handshakes completed " +
  'while the accept queue (the listen backlog) was full; each SYN the kernel then drops is sent again after the initial ' +
  "retransmission timeout, 1 s (SYN retransmissions). TW reused / reuse failed: TIME_WAIT ports taken for new connections, and " +
  `SYN-ACKs the timestamp check refused on them (PAWSActive). Visits disturbed: other processes and steal above ${(DISTURBED_SHARE * 100).toFixed(0)} % of the machine's CPU (docs/method.md#disturbance).`;
export const CELL_COUNTERS_HEADER = [
  'variant',
  'case',
  'transport',
  'network',
  'modes',
  'counted over',
  'listen overflows',
  'listen drops',
  'SYN retransmissions',
  'RTO timeouts',
  'segments retransmitted',
  'SYN cookies sent',
  'SYN cookies received',
  'SYN-cookie checks failed',
  'resets sent',
  'established connections reset',
  'TW reused',
  'TW reuse failed',
  'visits disturbed',
];
/** Columns from here on are numbers. */
export const CELL_COUNTERS_FIRST_NUMBER = 6;

const TCP_COLUMNS = ['listenOverflows', 'listenDrops', 'synRetrans', 'timeouts', 'retransSegs', 'syncookiesSent', 'syncookiesRecv', 'syncookiesFailed', 'outRsts', 'estabResets', 'twRecycled', 'pawsActive'] as const;

/** A cell's groups: "one mode", or "3 × 237 ms; 16 × 1,179 ms" (calls × centre); – for a failed cell. */
export function modesText(row: Pick<TcpCounterRow, 'modes'>): string {
  const m = row.modes;
  if (!m) return '–';
  if (m.groups.length === 1) return 'one mode';
  return m.groups.map((g) => `${count(g.calls)} × ${count(Math.round(g.centreMs))} ms`).join('; ');
}

/** One row's cells, in CELL_COUNTERS_HEADER's order (results.md and report.html alike). */
export function cellCounterCells(r: TcpCounterRow): string[] {
  const over = r.ok ? `${count(r.calls)} timed call${r.calls === 1 ? '' : 's'}${r.host && r.tcp ? ' (host)' : ''}` : 'calls up to the failure';
  const tcp = TCP_COLUMNS.map((k) => (r.tcp?.[k] === undefined ? '–' : count(r.tcp[k]!)));
  const visits = r.visits === null ? '–' : `${count(r.visits.disturbed)} of ${count(r.visits.recorded)}`;
  return [r.variant, r.case, r.transport, r.network, modesText(r), over, ...tcp, visits];
}

/** The notes of cells with two modes or a mechanism: "②-3 json (blog): two modes: …; 10 of 23 calls paid a 1-s SYN retransmission: …". */
export function modeNotes(results: readonly Cell[]): string[] {
  return results.flatMap((r) => {
    const m = cellModes(r);
    return m && hasModeNote(m) ? [`${r.case} ${r.transport} (${r.variant}${r.network && r.network !== 'loopback' ? `, ${r.network}` : ''}): ${m.note}`] : [];
  });
}

/** results.md's section: the table, then each two-mode cell's note; empty for a run without cells. */
export function renderCellCountersSection(results: readonly Cell[]): string[] {
  const rows = tcpCounterRows(results);
  if (rows.length === 0) return [];
  const notes = modeNotes(results);
  return [...markdownSection(CELL_COUNTERS_HEADING, CELL_COUNTERS_NOTE, CELL_COUNTERS_HEADER, CELL_COUNTERS_FIRST_NUMBER, rows.map(cellCounterCells)), ...(notes.length ? [...notes.map((n) => `- ${n}`), ''] : [])];
}

/**
 * The run's disturbance in one line: "2 of 40 visits disturbed (other processes or steal above 10 % of the
 * machine's CPU): blog ②-3 visit 1 (other processes 48 %, steal 0 % …), …"; null for a run from before issue #43.
 */
export function describeDisturbedVisits(results: readonly Cell[]): string | null {
  const visits = visitsOfRun(results);
  if (visits.length === 0) return null;
  const disturbed = visits.filter((v) => v.disturbed);
  const rule = `other processes and steal above ${(DISTURBED_SHARE * 100).toFixed(0)} % of the machine's CPU`;
  const worst = Math.max(...visits.map((v) => v.outsideShare + v.stealShare));
  const which = disturbed.map((v) => `${v.variant} ${v.case}${v.network === 'loopback' ? '' : ` (${v.network})`} visit ${v.visit}${v.fork > 0 ? ` fork ${v.fork}` : ''} (${describeDisturbance(v)})`);
  return `${count(disturbed.length)} of ${count(visits.length)} visits disturbed (${rule}; the most: ${(worst * 100).toFixed(0)} %)${which.length ? `: ${which.join('; ')}` : ''}`;
}
