// The servers' side of the stage receives what the delayer releases in a kernel thread of its own.
//
// Without it, the kernel does the servers' TCP receive work for each released packet inside the
// delayer's verdict system call (the packet goes router → veth → backlog, and the backlog is drained
// on the way out of that call), so a third of "the delayer's CPU" was the servers' network stack, and
// the client → server packets' receive work landed on neither app. With threaded NAPI on the server's
// veth end, that work runs in a `napi/<device>-<id>` kernel thread, as a real host's NIC receive
// would run apart from any router: measured on its own, reported beside the delayer.
import * as fs from 'node:fs';
import { inNs, type Command } from './commands';
import type { Topology } from './topology';

/**
 * A veth end hands packets to NAPI only when its receiver has GRO on and the sending end has no TSO
 * (veth's GRO eligibility check); then the end's NAPI can run threaded. GRO at the final receiver,
 * after the router, changes nothing the profile's loss or rate acts on.
 */
export function receiveThreadCommands(t: Topology): Command[] {
  const { router, server } = t.namespaces;
  const why = "give the servers' veth end its own receive thread (threaded NAPI)";
  return [
    { argv: inNs(router, ['ethtool', '-K', t.interfaces.routerToServer, 'tso', 'off']), why },
    { argv: inNs(server, ['ethtool', '-K', t.interfaces.server, 'gro', 'on']), why },
    // `ip netns exec` mounts the namespace's own /sys, where the device's `threaded` switch lives.
    { argv: inNs(server, ['sh', '-c', `echo 1 > /sys/class/net/${t.interfaces.server}/threaded`]), why },
  ];
}

/** PIDs of the kernel threads named napi/<device>-<napi id>. */
export function napiThreads(device: string, proc = '/proc'): number[] {
  const prefix = `napi/${device}-`;
  return fs
    .readdirSync(proc)
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`${proc}/${pid}/comm`, 'utf8').trim().startsWith(prefix);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number)
    .sort((a, b) => a - b);
}

/** CPU the threads have run, in ms (schedstat's ns, not stat's 10 ms ticks); a thread gone counts 0. */
export function threadsCpuMs(pids: readonly (number | string)[], proc = '/proc'): number {
  let ns = 0;
  for (const pid of pids) {
    try {
      ns += Number(fs.readFileSync(`${proc}/${pid}/schedstat`, 'utf8').split(' ')[0]) || 0;
    } catch {
      // gone: its device was deleted
    }
  }
  return Math.round(ns / 1000) / 1000;
}

/** What the stage recorded: the threads it measures, or why the receive work stays in the delayer's context. */
export type ReceiveThread = { device: string; pids: number[] } | { device: string; pids: []; why: string };

/**
 * The receive thread(s) of one veth end, found by name. The kernel starts a napi thread when the
 * device's NAPI first runs, not when `threaded` is switched on, so they are looked up until found;
 * threads of that name that existed before the switch (`before`) are never ours.
 */
export class ReceiveThreads {
  private found: number[] = [];

  constructor(
    private readonly device: string,
    private readonly before: ReadonlySet<number>,
    private readonly proc = '/proc',
  ) {}

  pids(): number[] {
    if (this.found.length === 0) this.found = napiThreads(this.device, this.proc).filter((pid) => !this.before.has(pid));
    return this.found;
  }

  /** Their CPU so far in ms; undefined while none has started. */
  cpuMs(): number | undefined {
    const pids = this.pids();
    return pids.length > 0 ? threadsCpuMs(pids, this.proc) : undefined;
  }
}
