import { Agent as HttpsAgent } from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import { clientTlsOptions, type Settings } from '@bench/config';

/**
 * The TLS options of every connection the client opens to a server under its security (BENCH_SECURITY):
 * TLS 1.3 only, the run's CA, the client certificate under mtls; null in cleartext. Each library keeps
 * its own defaults otherwise (session caches included: docs/security.md says which resume).
 */
export function clientTls(settings: Settings): ConnectionOptions | null {
  return settings.security.mode === 'plain' ? null : clientTlsOptions(settings.security);
}

/** What an HTTP/1.1 client offers by ALPN (Node's https offers nothing unless told; undici offers this itself). */
export const HTTP1_ALPN = ['http/1.1'];

/**
 * An https.Agent with what Node's global agent has (keep-alive, LIFO, 5-s socket timeout; its TLS
 * session cache of 100) plus the run's trust: the blog's axios under TLS. Undefined in cleartext,
 * where the blog's shared calls use the global http agent itself.
 */
export function httpsAgentFor(settings: Settings): HttpsAgent | undefined {
  const tls = clientTls(settings);
  return tls ? new HttpsAgent({ keepAlive: true, scheduling: 'lifo', timeout: 5000, ...tls, ALPNProtocols: HTTP1_ALPN }) : undefined;
}
