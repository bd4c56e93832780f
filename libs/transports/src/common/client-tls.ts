import { Agent as HttpsAgent } from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import { clientTlsOptions, isTuned, type SecuritySettings, type Settings } from '@bench/config';
import { GLOBAL_AGENT_OPTIONS, lookupFor, lookupOption } from './client-lookup';
import { TlsSessions } from './tls-sessions';

/**
 * The TLS options of every connection the client opens to a server under its security (BENCH_SECURITY):
 * TLS 1.3 only, the run's CA, the client certificate under mtls; null in cleartext. Each library keeps
 * its own defaults otherwise (session caches included: docs/security.md says which resume), unless
 * tuning tls-session-reuse offers every new connection the last session its server gave (tlsSessionsFor).
 */
export function clientTls(settings: Settings): ConnectionOptions | null {
  return callerTls(settings.security);
}

/** The same from a security alone (a suite's caller, which has no variant): TLS 1.3, the CA, the client certificate under mtls; null in cleartext. */
export function callerTls(security: SecuritySettings): ConnectionOptions | null {
  return security.mode === 'plain' ? null : clientTlsOptions(security);
}

/** What an HTTP/1.1 client offers by ALPN (Node's https offers nothing unless told; undici offers this itself). */
export const HTTP1_ALPN = ['http/1.1'];

/**
 * An https.Agent with what Node's global agent has (keep-alive, LIFO, 5-s socket timeout; its TLS
 * session cache of 100) plus the run's trust: the blog's axios under TLS, looking names up through the
 * process's cache with tuning cached-lookup. Undefined in cleartext (httpAgentFor's case).
 */
export function httpsAgentFor(settings: Settings): HttpsAgent | undefined {
  const tls = clientTls(settings);
  if (!tls) return undefined;
  const options = { ...GLOBAL_AGENT_OPTIONS, ...tls, ALPNProtocols: HTTP1_ALPN, ...lookupOption(lookupFor(settings)) };
  return tlsSessionsFor(settings)?.httpsAgent(options) ?? new HttpsAgent(options);
}

/** The one store of this client process (its connections to each server share the server's sessions). */
const PROCESS_SESSIONS = new TlsSessions();

/**
 * The TLS sessions every new connection of this client offers (tuning tls-session-reuse), shared by all
 * its transports and kept across fresh connections; null in cleartext and when the variant leaves each
 * library to its defaults.
 */
export function tlsSessionsFor(settings: Settings): TlsSessions | null {
  return settings.security.mode !== 'plain' && isTuned(settings.variant, 'tls-session-reuse') ? PROCESS_SESSIONS : null;
}
