/**
 * Every suite, in the order bench:suites runs them (the in-process one first, the heaviest last),
 * with the Nx target and entry point of each. Adding a suite is adding a record here and a target.
 */
export const SUITES: readonly { id: string; experiment: string; main: string }[] = Object.freeze([
  { id: 'serialization', experiment: '§3a protobuf vs JSON vs gzipped JSON, in process', main: 'serialization/main.js' },
  { id: 'echo', experiment: '§4 gRPC unary vs bidirectional stream vs REST', main: 'echo/main.js' },
  { id: 'latency', experiment: '§2 latency distribution and keep-alive', main: 'latency/main.js' },
  { id: 'pingpong', experiment: '§3b fixed-duration ping-pong, HDR histogram', main: 'pingpong/main.js' },
  { id: 'load', experiment: 'sustained load and a concurrency sweep', main: 'load/main.js' },
  { id: 'soak', experiment: 'both servers under minutes of load: errors and memory growth', main: 'soak/main.js' },
]);
