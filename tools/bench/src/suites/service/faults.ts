// bench:service's faults (issue #45), as data: what each does to one component behind the Service, when
// it is injected into a steady open-loop rate, how it is undone, and which strategies have that
// component at all. fault-run.ts injects them; what the callers saw is read from the calls and the
// replicas' own counters (fault-figures.ts).
import { inNs, type Command } from '../../network/stage';
import type { BalancingStrategy, ServiceTransport } from '../../network/service';

export type FaultName = 'replica-kill' | 'replica-freeze' | 'replica-lost' | 'sidecar-kill' | 'dns-outage' | 'broker-kill';

/** What a fault acts on: one replica's app, the l7-proxy's Envoy, the cluster DNS server, or the transport's broker. */
export type FaultTarget = 'replica' | 'sidecar' | 'dns' | 'broker';

export interface Fault {
  name: FaultName;
  target: FaultTarget;
  /** What the bench does when it injects it. */
  does: string;
  /** What it stands for in a cluster. */
  models: string;
  /** How the bench undoes it, at the end of the fault phase. */
  undo: string;
  /** Why it does not apply to a strategy (that strategy has no such component), or null. */
  notFor(strategy: Pick<BalancingStrategy, 'name' | 'address'>, transport: ServiceTransport): string | null;
}

/**
 * The same for every fault: three phases of `faultPhaseMs` at `faultRate` calls/s: steady; the fault
 * injected at the phase's end, into the replica the callers used most in it (by the replicas' own
 * counters); undone at the end of the second; the third shows what came back. The Service's endpoints
 * are left as they are, as in a cluster before a readiness probe fails (Kubernetes' default: 3 × 10 s,
 * longer than a phase): what recovers within the fault phase is the clients' and proxies' own doing.
 */
export const FAULT_SCHEDULE = Object.freeze({
  phases: ['steady', 'fault', 'undone'] as const,
  binMs: 100,
  pollMs: 100,
  /** A counters read during a fault run gives up after this long (a frozen or lost replica answers nothing). */
  counterTimeoutMs: 300,
  description:
    'three phases at a fixed rate: steady; the fault injected into the replica the callers used most (by its own counter), or the component; undone after a second phase; a third phase after it. The endpoints stay as they are (as before a readiness probe fails), so what recovers is the clients\' and proxies\' own doing.',
});

const everyStrategy = () => null;

export const FAULTS: readonly Fault[] = Object.freeze([
  {
    name: 'replica-kill',
    target: 'replica',
    does: "SIGKILL of the busiest replica's app serving the transport (server-b for gRPC and Nest's transports, server-a for JSON): the kernel resets its connections",
    models: 'a container OOM-killed or crashed: its connections reset, its address refuses until it is started again',
    undo: "its apps started again (as the kubelet restarts a container), an endpoint throughout",
    notFor: everyStrategy,
  },
  {
    name: 'replica-freeze',
    target: 'replica',
    does: "SIGSTOP of the busiest replica's app serving the transport: its connections stay open, nothing answers",
    models: 'a stalled process (a long GC pause, a hung event loop, a node under memory pressure)',
    undo: 'SIGCONT',
    notFor: everyStrategy,
  },
  {
    name: 'replica-lost',
    target: 'replica',
    does: "every packet to or from the busiest replica's address dropped by iptables in the stage's server namespace (the node's side of its link; FORWARD, INPUT and OUTPUT): no reset, no answer",
    models: 'a node gone (powered off, partitioned): its pods vanish without closing a connection',
    undo: 'the same rules deleted',
    notFor: everyStrategy,
  },
  {
    name: 'sidecar-kill',
    target: 'sidecar',
    does: "SIGKILL of the l7-proxy's Envoy",
    models: 'the proxy or mesh sidecar in front of the replicas crashing',
    undo: 'Envoy started again with the same endpoints',
    notFor: (s) => (s.address === 'proxy' ? null : `${s.name} has no Envoy on its path (only l7-proxy)`),
  },
  {
    name: 'dns-outage',
    target: 'dns',
    does: 'the cluster DNS server (dnsmasq, the headless name\'s records) stopped',
    models: 'kube-dns / CoreDNS unavailable',
    undo: 'dnsmasq started again with the same records',
    notFor: (s) => (s.address === 'dns-name' ? null : `${s.name} resolves no name (only dns-round-robin asks the cluster DNS)`),
  },
  {
    name: 'broker-kill',
    target: 'broker',
    does: "SIGKILL of the broker the transport goes through",
    models: 'the message broker crashing',
    undo: 'not undone: the broker stays down for the rest of the run (broker-kill runs last for its transport)',
    notFor: (s, t) => (s.address !== 'broker' ? `${s.name} has no broker (only the broker strategy)` : t.startsWith('nest-') && t !== 'nest-tcp' ? null : `${t} goes through no broker`),
  },
]);

export const FAULT_NAMES: readonly FaultName[] = Object.freeze(FAULTS.map((f) => f.name));

export function findFault(name: string): Fault {
  const fault = FAULTS.find((f) => f.name === name);
  if (!fault) throw new Error(`unknown fault "${name}" (known: ${FAULT_NAMES.join(', ')})`);
  return fault;
}

/** The faults asked for, once each, in the records' order (broker-kill last: it is not undone). */
export function parseFaults(names: readonly string[] | undefined): Fault[] {
  const asked = new Set((names ?? []).map((n) => findFault(n).name));
  return FAULTS.filter((f) => asked.has(f.name));
}

/** --fault's help, made from the records. */
export function faultOptionHelp(): string {
  return `faults injected under load after the sweeps, each per strategy × transport it applies to (suites/service/faults.ts): ${FAULTS.map((f) => `${f.name}: ${f.does}; undone: ${f.undo}`).join(' | ')}`;
}

/** replica-lost's rules in the server namespace: the replica's traffic dropped whichever way it goes (routed: FORWARD; to or from Envoy and the DNS server there: INPUT, OUTPUT). */
export function lostReplicaCommands(serverNamespace: string, address: string, action: 'inject' | 'clear'): Command[] {
  const rules: [string, string][] = [
    ['FORWARD', '-s'],
    ['FORWARD', '-d'],
    ['INPUT', '-s'],
    ['OUTPUT', '-d'],
  ];
  return rules.map(([chain, side]) => ({
    argv: inNs(serverNamespace, ['iptables', '-w', ...(action === 'inject' ? ['-I', chain, '1'] : ['-D', chain]), side, address, '-j', 'DROP']),
    why: `${action === 'inject' ? 'drop' : 'restore'} the traffic of replica ${address} (fault replica-lost)`,
  }));
}
