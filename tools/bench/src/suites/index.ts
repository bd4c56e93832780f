// suites/: bench:echo, latency, serialization, pingpong, load, soak and bench:suites: a shared frame in
// common/, the echo and lookup calls per transport in callers/ (libs/transports' callers), one folder per suite. May import every room but its entry
// points (main.ts, compare-main.ts at src/'s top). No room imports suites/: it is entered through its
// main.ts files, so this face is empty.
export {};
