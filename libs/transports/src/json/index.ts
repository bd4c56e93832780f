import type { TransportDefinition } from '../contract';
import { BareJsonTransport } from './bare';
import { JsonTransport } from './client';

/** json: the blog's JSON over HTTP/1.1 to server-a; the Nest client's axios (or undici), the bare client's node:http. */
export const JSON_TRANSPORT: TransportDefinition = {
  nest: ({ settings, http }) => new JsonTransport(http, settings),
  bare: (settings) => new BareJsonTransport(settings),
};
