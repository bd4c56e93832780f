// What the bench starts outside itself (a stage's namespaces, a broker) must come down with it: when the
// process exits or gets SIGINT / SIGTERM / SIGHUP. SIGKILL runs nothing: each owner's next start sweeps.
// One hook per signal serves every owner: a run with five brokers, a stage and its apps holds a dozen
// owners at once, and a listener each went past Node's limit of 10 (MaxListenersExceededWarning).

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Every owner's stop not yet run, in the order they were hooked. */
const owners = new Set<() => void>();
let hooked = false;

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', stopAll);
  SIGNALS.forEach((signal) => process.on(signal, onSignal));
}

function unhook(): void {
  if (!hooked) return;
  hooked = false;
  process.off('exit', stopAll);
  SIGNALS.forEach((signal) => process.off(signal, onSignal));
}

function stopAll(): void {
  unhook();
  const stops = [...owners];
  owners.clear();
  stops.forEach((stop) => stop());
}

function onSignal(signal: NodeJS.Signals): void {
  stopAll();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

/**
 * Runs `now` once when the process exits or gets one of SIGNALS; a signal nobody else handles is raised
 * again afterwards, so the process still ends the way it would have. Returns what unhooks it (call it
 * from `now`'s own path when the owner stops first).
 */
export function whenProcessEnds(now: () => void): () => void {
  const own = () => now();
  owners.add(own);
  hook();
  return () => {
    owners.delete(own);
    if (owners.size === 0) unhook();
  };
}
