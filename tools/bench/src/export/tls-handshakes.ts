import { type Cell, ms, placeLabeller, securityOf } from '../model';

export const TLS_HEADING = 'TLS: the handshakes behind each cell';
export const TLS_HEADER = ['where', 'variant', 'case', 'transport', 'negotiated', 'cold call ms', 'cold handshakes × mean ms (resumed)', 'handshakes during the timed calls'];
export const TLS_NOTE =
  'A handshake is timed in the client from TCP connected to secureConnect (every library opens its TLS through ' +
  "node:tls; the Go client around crypto/tls); the cold call's fresh connection holds them, resumed when the client " +
  'offered a session it kept (tuning tls-session-reuse; a fresh agent or pool of the libraries\' defaults has none). ' +
  'Handshakes during the timed calls are connections ' +
  "the client opened again (e.g. beyond the 256 idle sockets of Node's agent), resumed when its library kept the session.";

/**
 * The TLS handshakes behind each cell over TLS (--security tls / mtls): the cold call's and how many the
 * timed calls made again, resumed or not; one row of cells per result, the same for Markdown and HTML.
 * Empty when no cell ran over TLS.
 */
export function tlsRows(results: readonly Cell[]): { result: Cell; cells: string[] }[] {
  const placeOf = placeLabeller(results);
  return results
    .filter((r) => securityOf(r) !== 'plain' && r.ok)
    .map((r) => {
      const cold = r.tls?.cold ?? null;
      const timed = r.tls?.timed ?? null;
      const cells = [
        placeOf(r),
        r.variant,
        r.case,
        r.transport,
        cold ? `${cold.protocol ?? '?'} ${cold.alpn ?? 'no ALPN'}` : '—',
        ms(r.coldMs),
        cold ? `${cold.count} × ${ms(cold.meanMs)} (max ${ms(cold.maxMs)}; ${cold.resumed} resumed)` : '—',
        timed ? `${timed.count} (${timed.resumed} resumed)` : '0',
      ];
      return { result: r, cells };
    });
}

/** results.md's section (no lines when no cell ran over TLS). */
export function renderTlsSection(results: readonly Cell[]): string[] {
  const rows = tlsRows(results);
  if (rows.length === 0) return [];
  return [`## ${TLS_HEADING}`, '', `| ${TLS_HEADER.join(' | ')} |`, '|---|---|---|---|---|---:|---|---|', ...rows.map((row) => `| ${row.cells.join(' | ')} |`), '', TLS_NOTE, ''];
}
