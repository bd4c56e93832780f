// What the bench starts outside itself (a stage's namespaces, a broker) must come down with it: when the
// process exits or gets SIGINT / SIGTERM / SIGHUP. SIGKILL runs nothing: each owner's next start sweeps.

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs `now` once when the process exits or gets one of SIGNALS; a signal nobody else handles is raised
 * again afterwards, so the process still ends the way it would have. Returns what unhooks it (call it
 * from `now`'s own path when the owner stops first).
 */
export function whenProcessEnds(now: () => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    now();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.once('exit', now);
  SIGNALS.forEach((signal) => process.once(signal, onSignal));
  return () => {
    process.off('exit', now);
    SIGNALS.forEach((signal) => process.off(signal, onSignal));
  };
}
