// The network stage's own CPU as a table: the rows of analysis/path-cost.ts in results.md's and report.html's words;
// a path profile's counters per cell (analysis/path-counter-rows.ts) likewise; each cell's kernel TCP counters are cell-counters.ts'.
import { count, ms, type Cell } from '../model';
import { pathCostRows, pathCostTotal, pathCounterRows, type PathCostRow, type PathCounterRow } from '../analysis';

const percent = (share: number | null) => (share === null ? '–' : `${(share * 100).toFixed(1)} %`);

export const PATH_COST_HEADING = "The network stage's own CPU (the delayer, per cell, timed calls only)";
export const PATH_COST_NOTE =
  "The delayer's CPU includes the router's forwarding of every packet it releases. The servers' network stack receives " +
  "those packets in a kernel thread of its own (threaded NAPI on their veth end, as a host's NIC would), shown apart; " +
  "– where the stage had none (that work is then in the delayer's CPU). Share = delayer ÷ (delayer + receive thread + " +
  'client + server) over the same calls; the last row adds every cell up: the delayer\'s share of the run\'s CPU.';
export const PATH_COST_HEADER = ['network', 'variant', 'case', 'transport', 'delayer CPU ms', 'packets', 'µs per packet', 'receive thread CPU ms', 'client + server CPU ms', 'delayer share'];
/** Columns from here on are numbers. */
export const PATH_COST_FIRST_NUMBER = 4;

/** One row's cells, in PATH_COST_HEADER's order (results.md and report.html alike). */
export function pathCostCells(r: PathCostRow): string[] {
  return [
    r.network,
    r.variant,
    r.case,
    r.transport,
    ms(r.delayerCpuMs),
    count(r.packets),
    r.perPacketUs === null ? '–' : r.perPacketUs.toFixed(1),
    r.receiveCpuMs === null ? '–' : ms(r.receiveCpuMs),
    r.appsCpuMs === null ? '–' : ms(r.appsCpuMs),
    percent(r.share),
  ];
}

/** A results.md section: heading, note, and a table whose columns from `firstNumber` on are numbers. */
export function markdownSection(heading: string, note: string, header: readonly string[], firstNumber: number, rows: readonly string[][]): string[] {
  const align = header.map((_, i) => (i < firstNumber ? '---' : '---:'));
  return [`## ${heading}`, '', note, '', `| ${header.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((cells) => `| ${cells.join(' | ')} |`), ''];
}

/** results.md's section, empty when no cell crossed a delayer. */
export function renderPathCostSection(results: readonly Cell[]): string[] {
  const cells = pathCostRows(results);
  const total = pathCostTotal(cells);
  if (total === null) return [];
  return markdownSection(PATH_COST_HEADING, PATH_COST_NOTE, PATH_COST_HEADER, PATH_COST_FIRST_NUMBER, [...cells, total].map(pathCostCells));
}

export const PATH_COUNTERS_HEADING = 'The production path per cell (DNS queries and sidecars, timed calls only)';
export const PATH_COUNTERS_NOTE =
  'Across a path profile (network/path/path.ts): the queries the DNS server beside the servers answered and the lookups they ' +
  "came from; the requests the caller's sidecar passed on (a call's requests and the client's two reads of the servers' CPU " +
  "around it), the connections it opened to the servers' sidecar (0: its pool was warm) and both sidecars' CPU (Envoy's " +
  'threads), each per timed call; – where the path has no such part.';
export const PATH_COUNTERS_HEADER = ['network', 'variant', 'case', 'transport', 'timed calls', 'DNS queries / call', 'lookups / call', 'sidecar requests / call', 'upstream connections', 'sidecar CPU µs / call'];
export const PATH_COUNTERS_FIRST_NUMBER = 4;

/** One row's cells, in PATH_COUNTERS_HEADER's order (results.md and report.html alike). */
export function pathCounterCells(r: PathCounterRow): string[] {
  const fixed = (x: number | null, digits: number) => (x === null ? '–' : x.toFixed(digits));
  return [r.network, r.variant, r.case, r.transport, count(r.calls), fixed(r.dnsQueriesPerCall, 2), fixed(r.lookupsPerCall, 2), fixed(r.sidecarRequestsPerCall, 2), r.upstreamConnections === null ? '–' : count(r.upstreamConnections), fixed(r.sidecarCpuUsPerCall, 0)];
}

/** results.md's section, empty when no cell crossed a path profile's parts. */
export function renderPathCountersSection(results: readonly Cell[]): string[] {
  const rows = pathCounterRows(results);
  return rows.length === 0 ? [] : markdownSection(PATH_COUNTERS_HEADING, PATH_COUNTERS_NOTE, PATH_COUNTERS_HEADER, PATH_COUNTERS_FIRST_NUMBER, rows.map(pathCounterCells));
}

