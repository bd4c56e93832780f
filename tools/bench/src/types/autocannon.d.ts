// The part of autocannon 9's programmatic API the load suite uses (the package ships no types, and
// @types/autocannon describes version 7). Field meanings from autocannon's README and lib/run.js.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    /** Concurrent connections, each with `pipelining` requests in flight. */
    connections: number;
    pipelining?: number;
    /** Seconds (fractions allowed). */
    duration: number;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    /**
     * Spread into each https connection's tls.connect (the CA, a client certificate). autocannon sets
     * rejectUnauthorized false after it: it never verifies the server's certificate itself.
     */
    tlsOptions?: import('node:tls').ConnectionOptions;
  }

  interface Result {
    requests: { total: number; average: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }

  /** Resolves with the result; emits 'response' (client, statusCode, bytes, responseTimeMs) per reply. */
  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
