import * as fs from 'node:fs';
import { openBridge, type Bridge } from './bridge';
import { allowedRttErrorMs, bulkBytesFor, judge, type Achieved, type Expected, type Verdict } from './calibration';
import { cleanupLeftovers, runTeardown } from './cleanup';
import { DELAYER_QUEUE, queueRuleCommand, roundTripHoldUs, setupCommands, teardownPlan, vethEnds } from './commands';
import { DELAYER_BINARY, DelayerProcess, type DelayerSnapshot } from './delayer';
import { expectedGoodputMbit, round, summarize, type Summary } from './figures';
import { brokerHopRtts, brokerPlaceFor, brokerQueueRuleCommand, brokerSetupCommands, judgeBrokerHops, type BrokerPlace } from './broker-hop';
import { CALIBRATION_TOLERANCE } from './limits';
import { acquireLock } from './lock';
import { createWorkDir } from './work-dirs';
import { namespacePids, removeNetnsEtc } from './namespaces';
import { removeRunCgroups, runNamespaces } from './run-extras';
import { checkPrerequisites } from './prerequisites';
import { bulkTransfer, connectRtts, offloadState, pingRtts, queueDrops, routerRuleCounters, startProbeServer } from './probes';
import { usesDelayer, usesStage, type NetworkProfile } from './profile';
import { napiThreads, ReceiveThreads, receiveThreadCommands, type ReceiveThread } from './receive-thread';
import { run } from './shell';
import { readTcpCounters } from './tcp-counters';
import { chooseCongestionControl, isStageNamespace, tcpSettingsFor, topologyFor, type StageHost, type TcpSettings, type Topology } from './topology';
import { errorText, whenProcessEnds } from '../../cli';
import { rttMs, type TcpCounters } from '../../model';

export interface StageOptions {
  /** Names the namespaces (nbx-<runId>-client, …): letters, digits and dashes are kept. */
  runId: string;
  /** Where the bridge's unix sockets go (created if missing); a fresh temp dir by default. */
  workDir?: string;
  delayerBinary?: string;
  /** A namespace of its own for the brokers, behind the router (client → broker → server, each hop delayed); broker-hop.ts. */
  broker?: boolean;
}

/** How the delayer's hold was tuned so the RTT is the profile's (see trimDelay). */
export interface DelayTrim {
  /** Each step: how long the delayer held each client → server packet, and the TCP connect RTT (median) measured with it. */
  steps: { holdUs: number; rttMs: number }[];
  /** What the stage adds beyond 2 × the profile's delay at the profile's delay (veths, router, delayer wake-ups). */
  overheadMs: number;
  /** The hold the delayer was left with (the whole round trip's delay: only the client → server direction is held). */
  configuredHoldUs: number;
}

/** The stage as built: what goes into results.json beside the calibration. */
export interface StageRecord {
  runId: string;
  namespaces: Topology['namespaces'];
  addresses: Topology['addresses'];
  tcp: TcpSettings;
  /** GSO/TSO/GRO in force on each veth end (`namespace/device`). */
  offloads: Record<string, { gso: boolean | null; tso: boolean | null; gro: boolean | null }>;
  rate: { qdisc: 'htb'; rateMbit: number; on: string[] } | null;
  loss: { match: 'iptables statistic, mode random'; probability: number } | null;
  delayer: { pid: number; queue: number; trim: DelayTrim | null; jitterUs: number } | null;
  /** The kernel thread(s) doing the servers' receive work on what the delayer releases (receive-thread.ts); null without a delayer. */
  receiveThread: ReceiveThread | null;
  /** Where the brokers sit: a namespace of their own behind the router; absent without one (they then sit with the servers or on loopback). */
  broker?: { placement: 'own-namespace'; namespace: string; address: string };
}

/** Calibration as recorded: a plain JSON-able object for results.json provenance (`network`). */
export interface Calibration extends Verdict {
  measuredAt: string;
  durationS: number;
  profile: NetworkProfile;
  expected: Expected;
  tolerance: typeof CALIBRATION_TOLERANCE;
  achieved: Achieved;
  stage: StageRecord;
  delayerCpu: DelayerCpu | null;
  /** With a broker namespace: each hop's TCP connect RTT, judged like the client → server one. */
  brokerHops?: { clientToBrokerMs: Summary; serverToBrokerMs: Summary };
}

/** The delayer's CPU and work so far (or between two readings, with delayerCpuBetween). */
export interface DelayerCpu {
  pid: number;
  cpuMs: number;
  packets: number;
  cpuPerPacketUs: number | null;
  lateMeanUs: number;
  lateMaxUs: number;
  overruns: number;
  /** Packets it timed from when it read them, for want of a kernel receive timestamp (absent: an older delayer). */
  unstamped?: number;
  /**
   * CPU of the servers' receive thread so far (their network stack's work on the packets the delayer
   * released); absent when the stage could not give that work a thread (it is then part of cpuMs).
   */
  receiveCpuMs?: number;
}

export interface CalibrateOptions {
  rttSamples?: number;
  pingCount?: number;
  bulkBytes?: number;
}

export interface Stage {
  readonly profile: NetworkProfile;
  readonly topology: Topology;
  /** Addresses apps listen on / connect to: the client app in the client namespace, both servers in the server namespace. */
  readonly hosts: { client: string; server: string };
  readonly workDir: string;
  /** The brokers' namespace and address (StageOptions.broker), or null. */
  readonly broker: BrokerPlace | null;
  /** argv prefixed so it runs in the host's namespace (`ip netns exec <ns> …`). */
  wrap(host: StageHost, argv: readonly string[]): string[];
  /** Makes clientAddress:port (in the client namespace) reachable from here; returns http://127.0.0.1:<port>. */
  exposeOnHost(clientAddress: string, port: number): Promise<string>;
  calibrate(options?: CalibrateOptions): Promise<Calibration>;
  /** The delayer's counters now; null when the profile has no delay (no delayer). */
  delayerCpu(): Promise<DelayerCpu | null>;
  /** The server namespace's kernel TCP counters now (running totals: listen queue, SYN cookies, resets). */
  tcpCounters(): Promise<TcpCounters>;
  record(): StageRecord;
  /** Takes everything down (processes, namespaces, lock). Safe to call twice. */
  stop(): Promise<DelayerCpu | null>;
}

/** Builds the stage for `profile`. Throws a plain message when it cannot (see checkPrerequisites). */
export async function startStage(profile: NetworkProfile, options: StageOptions): Promise<Stage> {
  if (!usesStage(profile)) throw new Error(`profile "${profile.name}" needs no stage: start the apps on 127.0.0.1 as without a network profile`);
  const binary = options.delayerBinary ?? DELAYER_BINARY;
  const why = checkPrerequisites(profile, binary);
  if (why) throw new Error(why);
  const t = topologyFor(options.runId);
  const releaseLockFile = acquireLock({ runId: t.runId, profile: profile.name, namespaces: t.namespaces });
  const ownWorkDir = options.workDir === undefined;
  const workDir = options.workDir ?? createWorkDir();
  fs.mkdirSync(workDir, { recursive: true });
  const teardown = new StageTeardown(t, () => {
    if (ownWorkDir) fs.rmSync(workDir, { recursive: true, force: true });
    releaseLockFile();
  });
  try {
    cleanupLeftovers(); // we hold the lock: any namespace of ours is a killed run's
    const tcp = tcpSettingsFor(chooseCongestionControl(readHostList('net/ipv4/tcp_allowed_congestion_control'), readHostList('net/ipv4/tcp_congestion_control')[0] ?? null));
    for (const command of setupCommands(t, profile, tcp)) run(command);
    if (options.broker) for (const command of brokerSetupCommands(t, profile, tcp)) run(command);
    const wrap = (host: StageHost, argv: readonly string[]) => ['ip', 'netns', 'exec', t.namespaces[host], ...argv];
    const delay = usesDelayer(profile) ? await startDelay(profile, t, wrap, binary, teardown, options.broker === true) : NO_DELAY;
    return liveStage(profile, t, workDir, wrap, tcp, delay, teardown, options.broker ? brokerPlaceFor(t) : null);
  } catch (error) {
    teardown.now();
    throw error;
  }
}

/**
 * What takes a stage down, once, whoever asks first: stop(), an error while it starts, the process's
 * exit or a signal (re-raised if no one else handles it, so the process still ends the way it would
 * have). SIGKILL runs nothing: the next start cleans up.
 */
class StageTeardown {
  delayer: DelayerProcess | null = null;
  readonly bridges: Bridge[] = [];
  stopped = false;
  private readonly unhook: () => void;

  constructor(
    private readonly t: Topology,
    private readonly last: () => void,
  ) {
    this.unhook = whenProcessEnds(() => this.now());
  }

  now(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.unhook();
    const t = this.t;
    this.delayer?.kill();
    // Replicas' namespaces (../service/replicas.ts) are named after the run too: they come down with the stage.
    const namespaces = [...new Set([t.namespaces.client, t.namespaces.server, t.namespaces.router, ...runNamespaces(t.runId)])];
    // Only a delayer still running is signalled by PID: an exited one's PID may already be reused.
    runTeardown(teardownPlan(namespaces, new Map(namespaces.map((ns) => [ns, namespacePids(ns)])), this.delayer?.running ? this.delayer.pid : null));
    removeNetnsEtc(namespaces, isStageNamespace);
    removeRunCgroups(t.runId);
    for (const bridge of this.bridges) void bridge.close().catch(() => undefined);
    this.last();
  }
}

/** The delay's parts: the servers' receive thread, the delayer and its queue rule, the trim that makes the RTT the profile's. */
interface Delay {
  delayer: DelayerProcess | null;
  trim: DelayTrim | null;
  receiveThreads: ReceiveThreads | string | null;
}

const NO_DELAY: Delay = { delayer: null, trim: null, receiveThreads: null };

async function startDelay(profile: NetworkProfile, t: Topology, wrap: Stage['wrap'], binary: string, teardown: StageTeardown, broker: boolean): Promise<Delay> {
  const receiveThreads = startReceiveThread(t);
  const { holdUs, jitterUs } = roundTripHoldUs(profile.oneWayDelayMs, profile.jitterMs);
  const delayer = await DelayerProcess.start(t, holdUs, jitterUs, binary);
  teardown.delayer = delayer;
  run(queueRuleCommand(t));
  if (broker) run(brokerQueueRuleCommand(t));
  const trim = await trimDelay(profile, t, wrap, delayer);
  return { delayer, trim, receiveThreads };
}

/** The running stage's face: its record, calibration, meters, bridges to the host, and stop. */
function liveStage(profile: NetworkProfile, t: Topology, workDir: string, wrap: Stage['wrap'], tcp: StageRecord['tcp'], delay: Delay, teardown: StageTeardown, broker: BrokerPlace | null): Stage {
  const { delayer, trim, receiveThreads } = delay;
  const record = (): StageRecord => ({
    runId: t.runId,
    namespaces: t.namespaces,
    addresses: t.addresses,
    tcp,
    offloads: Object.fromEntries(vethEnds(t).map(([ns, dev]) => [`${ns}/${dev}`, offloadState(ns, dev)])),
    rate: profile.rateMbit === null ? null : { qdisc: 'htb', rateMbit: profile.rateMbit, on: [`${t.namespaces.router}/${t.interfaces.routerToClient}`, `${t.namespaces.router}/${t.interfaces.routerToServer}`] },
    loss: profile.loss > 0 ? { match: 'iptables statistic, mode random', probability: profile.loss } : null,
    delayer: delayer ? { pid: delayer.pid, queue: DELAYER_QUEUE, trim, jitterUs: (profile.jitterMs ?? 0) * 1000 } : null,
    receiveThread: receiveThreadRecord(`${t.namespaces.server}/${t.interfaces.server}`, receiveThreads),
    ...(broker ? { broker: { placement: 'own-namespace' as const, namespace: broker.namespace, address: broker.host } } : {}),
  });
  const receiveCpu = () => {
    const cpuMs = receiveThreads instanceof ReceiveThreads ? receiveThreads.cpuMs() : undefined;
    return cpuMs === undefined ? {} : { receiveCpuMs: cpuMs };
  };
  const delayerCpu = async () => (delayer ? { ...cpuOf(await delayer.stats()), ...receiveCpu() } : null);
  return {
    profile,
    topology: t,
    hosts: { client: t.addresses.client, server: t.addresses.server },
    workDir,
    broker,
    wrap,
    exposeOnHost: async (clientAddress, port) => {
      const bridge = await openBridge((argv) => wrap('client', argv), workDir, clientAddress, port);
      teardown.bridges.push(bridge);
      return bridge.hostUrl;
    },
    calibrate: async (calibrateOptions = {}) => withBrokerHops(await calibrate(profile, t, wrap, record(), delayerCpu, calibrateOptions), t, broker, calibrateOptions),
    delayerCpu,
    tcpCounters: () => readTcpCounters((argv) => wrap('server', argv)),
    record,
    stop: async () => {
      if (teardown.stopped) return null;
      await Promise.all(teardown.bridges.map((bridge) => bridge.close().catch(() => undefined)));
      teardown.bridges.length = 0;
      const received = receiveCpu();
      const last = delayer ? await delayer.stop() : null;
      teardown.now();
      return last ? { ...cpuOf(last), ...received } : null;
    },
  };
}

/** Threaded NAPI on the servers' veth end; a kernel that refuses it leaves that work in the delayer's context, recorded with why. */
function startReceiveThread(t: Topology): ReceiveThreads | string {
  const before = new Set(napiThreads(t.interfaces.server));
  try {
    receiveThreadCommands(t).forEach((command) => run(command));
  } catch (error) {
    return errorText(error);
  }
  // Our namespaces are the only ones with this device name that a stage creates, and one stage runs at a time.
  return new ReceiveThreads(t.interfaces.server, before);
}

function receiveThreadRecord(device: string, threads: ReceiveThreads | string | null): ReceiveThread | null {
  if (threads === null) return null;
  if (typeof threads === 'string') return { device, pids: [], why: threads };
  const pids = threads.pids();
  return pids.length > 0 ? { device, pids } : { device, pids: [], why: 'no napi thread has started yet (no packet released so far)' };
}

/**
 * The delayer adds its own time to each pass (netlink round trip, wake-ups of its threads): about
 * half a millisecond to a millisecond of RTT on the machines this was built on, and not constant (it
 * grows with how long the delayer sleeps, as the CPU idles deeper). The profile's RTT is what the apps
 * should see, so the stage measures the TCP connect RTT and moves the delayer's delay by half the
 * error, until the RTT is within a third of the tolerance (0.3 ms at most), and keeps the best setting it measured.
 * Calibration then checks what this achieved, independently.
 */
async function trimDelay(profile: NetworkProfile, t: Topology, wrap: (host: StageHost, argv: readonly string[]) => string[], delayer: DelayerProcess): Promise<DelayTrim> {
  const MAX_STEPS = 6;
  const SAMPLES = 21;
  const targetMs = rttMs(profile);
  const hold = roundTripHoldUs(profile.oneWayDelayMs, profile.jitterMs);
  const jitterUs = hold.jitterUs;
  const timeoutMs = 30_000 + 50 * targetMs * SAMPLES;
  // A third of the tolerance, and never more than 0.3 ms: long RTTs get trimmed too.
  const closeEnoughMs = Math.min(allowedRttErrorMs(targetMs) / 3, 0.3);
  const server = await startProbeServer(wrap, t);
  try {
    // The first connections after the stage is built are slower (page faults, JIT, ARP): not measured.
    await connectRtts(wrap, t, server.port, 5, timeoutMs);
    const steps: DelayTrim['steps'] = [];
    let holdUs = hold.holdUs;
    for (;;) {
      const rttMs = summarize(await connectRtts(wrap, t, server.port, SAMPLES, timeoutMs)).median;
      steps.push({ holdUs: Math.round(holdUs), rttMs });
      const errorMs = rttMs - targetMs;
      if (Math.abs(errorMs) <= closeEnoughMs || steps.length === MAX_STEPS) break;
      // One hold per round trip: the RTT moves by as much as the hold.
      const next = Math.max(jitterUs, holdUs - errorMs * 1000);
      if (Math.abs(next - holdUs) < 1) break; // at the floor: the stage alone is slower than the profile
      holdUs = next;
      await delayer.setDelay(holdUs, jitterUs);
    }
    const best = steps.reduce((a, b) => (Math.abs(b.rttMs - targetMs) < Math.abs(a.rttMs - targetMs) ? b : a));
    if (best.holdUs !== Math.round(holdUs)) await delayer.setDelay(best.holdUs, jitterUs);
    return { steps, overheadMs: round(steps[0].rttMs - targetMs), configuredHoldUs: best.holdUs };
  } finally {
    server.close();
  }
}

async function calibrate(
  profile: NetworkProfile,
  t: Topology,
  wrap: (host: StageHost, argv: readonly string[]) => string[],
  stage: StageRecord,
  delayerCpu: () => Promise<DelayerCpu | null>,
  options: CalibrateOptions,
): Promise<Calibration> {
  const started = Date.now();
  const expectedRttMs = rttMs(profile);
  const server = await startProbeServer(wrap, t);
  try {
    const rttSamples = options.rttSamples ?? 21;
    const tcpConnectRttMs = summarize(await connectRtts(wrap, t, server.port, rttSamples, 30_000 + 50 * expectedRttMs * rttSamples));
    const pingCount = options.pingCount ?? 20;
    const ping = await pingRtts(wrap, t, pingCount, 0.05, 10_000 + pingCount * (50 + 2 * expectedRttMs));
    const dropsBefore = queueDrops(t);
    const countersBefore = routerRuleCounters(t);
    const bytes = options.bulkBytes ?? bulkBytesFor(profile, Math.max(expectedRttMs, tcpConnectRttMs.median));
    const expectedSeconds = profile.rateMbit ? (bytes * 8) / (profile.rateMbit * 1e6) : 1;
    const throughput = await bulkTransfer(wrap, t, server.port, bytes, Math.max(30_000, 5000 * expectedSeconds));
    const countersAfter = routerRuleCounters(t);
    const dropsAfter = queueDrops(t);
    const forwarded = (countersAfter[0] ?? 0) - (countersBefore[0] ?? 0);
    const dropped = profile.loss > 0 ? (countersAfter[1] ?? 0) - (countersBefore[1] ?? 0) : 0;
    const delayerDrops = dropsBefore && dropsAfter ? dropsAfter.queueDropped - dropsBefore.queueDropped + (dropsAfter.userDropped - dropsBefore.userDropped) : 0;
    const achieved: Achieved = {
      tcpConnectRttMs,
      pingRttMs: ping === null ? null : { ...(ping.rttsMs.length ? summarize(ping.rttsMs) : { median: NaN, min: NaN, max: NaN, samples: 0 }), lost: ping.transmitted - ping.rttsMs.length },
      throughput: { ...throughput, averageMbit: round(throughput.averageMbit, 1), steadyMbit: round(throughput.steadyMbit, 1) },
      loss: profile.loss > 0 ? { forwarded, dropped, observed: forwarded ? round(dropped / forwarded, 6) : 0 } : null,
      delayerDrops,
    };
    const expected: Expected = { rttMs: expectedRttMs, goodputMbit: profile.rateMbit === null ? null : round(expectedGoodputMbit(profile.rateMbit, t.mtu), 1), loss: profile.loss };
    return {
      ...judge(profile, expected, achieved),
      measuredAt: new Date(started).toISOString(),
      durationS: round((Date.now() - started) / 1000, 2),
      profile,
      expected,
      tolerance: CALIBRATION_TOLERANCE,
      achieved,
      stage,
      delayerCpu: await delayerCpu(),
    };
  } finally {
    server.close();
  }
}

/** With a broker namespace: each hop's RTT measured and judged against the profile's, into the calibration. */
async function withBrokerHops(calibration: Calibration, t: Topology, broker: BrokerPlace | null, options: CalibrateOptions): Promise<Calibration> {
  if (!broker) return calibration;
  const expected = calibration.expected.rttMs;
  const samples = options.rttSamples ?? 21;
  const rtts = await brokerHopRtts(t, samples, 30_000 + 50 * expected * samples);
  const brokerHops = { clientToBrokerMs: summarize(rtts.clientToBroker), serverToBrokerMs: summarize(rtts.serverToBroker) };
  const reasons = [...calibration.reasons, ...judgeBrokerHops(expected, allowedRttErrorMs(expected), brokerHops)];
  return { ...calibration, brokerHops, reasons, verdict: reasons.length ? 'refuse' : calibration.verdict };
}

export function cpuOf(s: DelayerSnapshot): DelayerCpu {
  const cpuUs = s.cpuUserUs + s.cpuSystemUs;
  return {
    pid: s.pid,
    cpuMs: round(cpuUs / 1000),
    packets: s.received,
    cpuPerPacketUs: s.received ? round(cpuUs / s.received, 2) : null,
    lateMeanUs: round(s.lateMeanUs, 1),
    lateMaxUs: round(s.lateMaxUs, 1),
    overruns: s.overruns,
    ...(s.unstamped === undefined ? {} : { unstamped: s.unstamped }),
  };
}

/** The delayer's CPU and packets between two readings (e.g. before and after one measured case). */
export function delayerCpuBetween(before: DelayerCpu, after: DelayerCpu): DelayerCpu {
  const cpuMs = round(after.cpuMs - before.cpuMs);
  const packets = after.packets - before.packets;
  return {
    ...after,
    cpuMs,
    packets,
    cpuPerPacketUs: packets ? round((cpuMs * 1000) / packets, 2) : null,
    overruns: after.overruns - before.overruns,
    ...(after.unstamped === undefined ? {} : { unstamped: after.unstamped - (before.unstamped ?? 0) }),
    // A thread not started at the first reading had run nothing before it.
    ...(after.receiveCpuMs === undefined ? {} : { receiveCpuMs: round(after.receiveCpuMs - (before.receiveCpuMs ?? 0)) }),
  };
}

/** A host sysctl, read only (space-separated list), from /proc/sys. */
function readHostList(key: string): string[] {
  try {
    return fs.readFileSync(`/proc/sys/${key}`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
}
