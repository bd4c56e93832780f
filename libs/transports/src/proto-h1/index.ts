import type { TransportDefinition } from '../contract';
import { ProtoH1Transport } from './client';

/** proto-h1: the blog's rows as one protobuf body over HTTP/1.1 to server-a, served by the Nest client. */
export const PROTO_H1: TransportDefinition = {
  nest: ({ settings, http }) => new ProtoH1Transport(http, settings),
};
