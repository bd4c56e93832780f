import { type CaseResult, ms, placeLabeller, securityOf } from '../results';

/**
 * The TLS handshakes behind each cell over TLS (--security tls / mtls): the cold call's, timed from TCP
 * connected to secureConnect in the client, and how many the timed calls made again, resumed or not.
 * Empty when no cell ran over TLS.
 */
export function renderTlsSection(results: readonly CaseResult[]): string[] {
  const secure = results.filter((r) => securityOf(r) !== 'plain' && r.ok);
  if (secure.length === 0) return [];
  const placeOf = placeLabeller(results);
  const rows = secure.map((r) => {
    const cold = r.tls?.cold ?? null;
    const timed = r.tls?.timed ?? null;
    return [
      placeOf(r),
      r.variant,
      r.case,
      r.transport,
      cold ? `${cold.protocol ?? '?'} ${cold.alpn ?? 'no ALPN'}` : '—',
      ms(r.coldMs),
      cold ? `${cold.count} × ${ms(cold.meanMs)} (max ${ms(cold.maxMs)})` : '—',
      timed ? `${timed.count} (${timed.resumed} resumed)` : '0',
    ];
  });
  return [
    '## TLS: the handshakes behind each cell',
    '',
    '| where | variant | case | transport | negotiated | cold call ms | cold handshakes × mean ms | handshakes during the timed calls |',
    '|---|---|---|---|---|---:|---|---|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    'A handshake is timed in the client from TCP connected to secureConnect (every library opens its TLS through ' +
      "node:tls); the cold call's fresh connection holds them. Handshakes during the timed calls are connections " +
      'the client opened again (e.g. beyond the 256 idle sockets of Node\'s agent), resumed when its library kept the session.',
    '',
  ];
}
