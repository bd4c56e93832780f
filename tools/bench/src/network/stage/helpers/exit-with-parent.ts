/**
 * Helpers run inside a namespace with `ip netns exec`; if the bench dies by SIGKILL they would go on
 * running there. Node has no parent-death signal, so each helper polls: when its parent changes
 * (re-parented to init or a subreaper), it exits.
 */
export function exitWithParent(onExit: () => void = () => undefined): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) {
      onExit();
      process.exit(0);
    }
  }, 500).unref();
}
