import type { TransportDefinition } from '../contract';
import { JsonH2Transport } from './client';
import { jsonH2Options } from './options';

/** json-h2: the blog's JSON rows over HTTP/2 cleartext (node:http2), served by the Nest client. */
export const JSON_H2: TransportDefinition = {
  nest: ({ settings }) => new JsonH2Transport(jsonH2Options(settings)),
};
