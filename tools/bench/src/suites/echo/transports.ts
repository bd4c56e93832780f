import type { EchoTransport } from '../callers/echo-callers';

/** One row of experiment §4: a transport, and what the authors measured for it (Go server, C# client). */
export interface EchoTransportRecord {
  id: EchoTransport;
  description: string;
  published: { elapsedS: number; jobsPerS: number };
}

/** The experiment's four rows, in its order, as data. */
export const ECHO_TRANSPORTS: readonly EchoTransportRecord[] = Object.freeze([
  { id: 'grpc-unary', description: 'gRPC unary UnaryTest on one channel (server-b)', published: { elapsedS: 1.983, jobsPerS: 5043 } },
  { id: 'grpc-bidi', description: 'gRPC BiStreamTest: one stream, one message at a time (server-b)', published: { elapsedS: 1.131, jobsPerS: 8843 } },
  { id: 'rest-protobuf', description: 'POST /echo/protobuf, application/x-protobuf body, HTTP/1.1 keep-alive (server-a)', published: { elapsedS: 3.329, jobsPerS: 3004 } },
  { id: 'rest-json', description: 'POST /echo/json, JSON body, HTTP/1.1 keep-alive (server-a)', published: { elapsedS: 4.221, jobsPerS: 2369 } },
]);
