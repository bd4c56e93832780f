import type { LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { http2WindowFor, type Settings } from '@bench/config';
import { lookupFor } from '../common/client-lookup';
import { clientTls, tlsSessionsFor } from '../common/client-tls';
import { rowStreamingFor, SAMPLES_ROUTE, type RowStreaming } from '../common/streamed-rows';
import type { TlsSessions } from '../common/tls-sessions';

/** What a json-h2 client is made of: server-a's h2c listener, its route, and what the variant's tunings set. */
export interface JsonH2Options {
  origin: string;
  /** Tuning http2-window (null: node:http2's 64 KiB). */
  windowBytes: number | null;
  routePrefix: string;
  /** Tuning stream-json-replies (null: one body per reply). */
  streaming: RowStreaming | null;
  /** The run's TLS (null in cleartext), tls-session-reuse's sessions, cached-lookup's lookup. */
  tls: ConnectionOptions | null;
  sessions: TlsSessions | null;
  lookup: LookupFunction | null;
}

/** The variant's json-h2 options for the blog's route. */
export function jsonH2Options(settings: Settings): JsonH2Options {
  return {
    origin: settings.serverAH2Url,
    windowBytes: http2WindowFor(settings.variant),
    routePrefix: SAMPLES_ROUTE,
    streaming: rowStreamingFor(settings, SAMPLES_ROUTE),
    tls: clientTls(settings),
    sessions: tlsSessionsFor(settings),
    lookup: lookupFor(settings),
  };
}
