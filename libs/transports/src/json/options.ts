import type { Settings } from '@bench/config';
import { rowStreamingFor, SAMPLES_ROUTE, type RowStreaming } from '../common/streamed-rows';

/**
 * What a json client is made of beyond the HTTP/1.1 client every server-a transport shares
 * (common/http1-transport.ts: axios, or undici-pool, with the run's TLS and cached-lookup).
 */
export interface JsonOptions {
  /** Where server-a serves these replies: the blog's `/server-a/`, or a payload's `/server-a/orders/`; the row count follows. */
  routePrefix: string;
  /** Tuning stream-json-replies on the blog's route (null: one body per reply). */
  streaming: RowStreaming | null;
}

/** The variant's json options for a route (default: the blog's). */
export function jsonOptions(settings: Settings, routePrefix = SAMPLES_ROUTE): JsonOptions {
  return { routePrefix, streaming: rowStreamingFor(settings, routePrefix) };
}
