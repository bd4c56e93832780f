import { hasCommand, run } from './shell';
import { helperScript } from './helpers';
import { runToEnd, spawnUntilFirstLine } from './spawn-ready';
import { parsePing, parseQueueCounters, parseRuleCounters } from './figures';
import { DELAYER_QUEUE } from './commands';
import type { StageHost, Topology } from './topology';

type Wrap = (host: StageHost, argv: string[]) => string[];

/** The calibration's listener in the server namespace; close it when done. */
export interface ProbeServer {
  port: number;
  close(): void;
}

export async function startProbeServer(wrap: Wrap, t: Topology): Promise<ProbeServer> {
  const { child, line } = await spawnUntilFirstLine(wrap('server', [process.execPath, helperScript('probe-server'), t.addresses.server]));
  return { port: (JSON.parse(line) as { port: number }).port, close: () => void child.kill('SIGTERM') };
}

/** TCP connect times from the client namespace to the server (ms), one connection after another. */
export async function connectRtts(wrap: Wrap, t: Topology, port: number, count: number, timeoutMs: number): Promise<number[]> {
  const out = await runToEnd(wrap('client', [process.execPath, helperScript('probe-client'), 'rtt', t.addresses.server, String(port), String(count)]), timeoutMs);
  return (JSON.parse(out) as { samplesMs: number[] }).samplesMs;
}

export interface BulkResult {
  bytes: number;
  seconds: number;
  firstByteSeconds: number;
  averageMbit: number;
  steadyMbit: number;
}

/** One bulk transfer server → client (the direction of a large reply). */
export async function bulkTransfer(wrap: Wrap, t: Topology, port: number, bytes: number, timeoutMs: number): Promise<BulkResult> {
  const out = await runToEnd(wrap('client', [process.execPath, helperScript('probe-client'), 'fetch', t.addresses.server, String(port), String(bytes)]), timeoutMs);
  return JSON.parse(out) as BulkResult;
}

/** ping RTTs from the client namespace to the server, or null when ping is not installed. */
export async function pingRtts(wrap: Wrap, t: Topology, count: number, intervalS: number, timeoutMs: number): Promise<{ rttsMs: number[]; transmitted: number } | null> {
  if (!hasCommand('ping')) return null;
  const out = await runToEnd(wrap('client', ['ping', '-n', '-c', String(count), '-i', String(intervalS), '-W', '2', t.addresses.server]), timeoutMs).catch((error: Error) => error.message);
  return parsePing(out);
}

/** Packets seen by the router's FORWARD rules: [all forwarded, dropped by the loss rule (if any), …]. */
export function routerRuleCounters(t: Topology): number[] {
  return parseRuleCounters(run(['ip', 'netns', 'exec', t.namespaces.router, 'iptables', '-w', '-L', 'FORWARD', '-v', '-x', '-n', '--line-numbers']));
}

/** Packets the kernel dropped because the delayer's queue was full or its socket overflowed. */
export function queueDrops(t: Topology): { queueDropped: number; userDropped: number } | null {
  try {
    return parseQueueCounters(run(['ip', 'netns', 'exec', t.namespaces.router, 'cat', '/proc/net/netfilter/nfnetlink_queue']), DELAYER_QUEUE);
  } catch {
    return null;
  }
}

/** The offload settings actually in force on a veth end (`ethtool -k`). */
export function offloadState(ns: string, dev: string): Record<'gso' | 'tso' | 'gro', boolean | null> {
  let text = '';
  try {
    text = run(['ip', 'netns', 'exec', ns, 'ethtool', '-k', dev]);
  } catch {
    return { gso: null, tso: null, gro: null };
  }
  const on = (label: string) => {
    const m = new RegExp(`^${label}: (on|off)`, 'm').exec(text);
    return m ? m[1] === 'on' : null;
  };
  return { gso: on('generic-segmentation-offload'), tso: on('tcp-segmentation-offload'), gro: on('generic-receive-offload') };
}
