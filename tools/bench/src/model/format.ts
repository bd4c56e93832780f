import type { TcpCounters } from './path-counters';
import { describePath, pathFigures, type PathRecord } from './path-record';
import { rttMs } from './round-trip';
import type { BenchSettings } from './model';
import type { CalibrationRecord, NetworkPathRecord, NetworkRecord } from './document';
import type { AppRuntime, RuntimeProvenance } from './run-records';
/** Milliseconds for a table: 3 significant decimals under 10 ms, fewer above. */
export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (value < 10) return value.toFixed(3);
  if (value < 1000) return value.toFixed(1);
  return Math.round(value).toLocaleString('en-US');
}

/** Bytes with a binary unit. */
export function bytes(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value < 1024) return `${value} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = value / 1024;
  let unit = 0;
  while (v >= 1024 && unit < units.length - 1) {
    v /= 1024;
    unit++;
  }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[unit]}`;
}

export function ratio(value: number | null): string {
  return value === null ? '—' : `${value.toFixed(2)}×`;
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** Per-case exceptions to a setting, e.g. "①-3: 1", from a settings.<name>PerCase record. */
function exceptionsTo(value: number, perCase: unknown): string {
  const odd = Object.entries((perCase ?? {}) as Record<string, number>).filter(([, n]) => n !== value);
  return odd.length > 0 ? ` (${odd.map(([id, n]) => `${id}: ${n}`).join(', ')})` : '';
}

/**
 * How the cases were visited, in words, from settings.forks/forksPerCase and visits/visitsPerCase.
 * Runs from before visits existed (forks only: each fork one visit on new apps) and from before forks
 * existed (neither) read as they ran.
 */
export function describeVisits(settings: Pick<BenchSettings, 'forks' | 'forksPerCase' | 'visits' | 'visitsPerCase'>): string {
  const { forks, forksPerCase, visits, visitsPerCase } = settings;
  if (typeof visits !== 'number') {
    if (typeof forks !== 'number' || forks === 0) return 'one set of apps for all cases of a variant, one visit per case';
    return `each case in ${forks} forks (its runs split over ${forks} visits on new apps, round-robin over the cases)${exceptionsTo(forks, forksPerCase)}`;
  }
  const spread = `each case's runs split over ${visits} visits${exceptionsTo(visits, visitsPerCase)} spread evenly over the run`;
  if (typeof forks !== 'number' || forks === 0) return `${spread}, all served by one set of apps per variant`;
  return `${spread}, dealt in turn to ${forks} forks per case${exceptionsTo(forks, forksPerCase)}: sets of new apps kept up between their visits; ` +
    "a fork's first visit makes the cold call and warm-up, later ones re-warm";
}

/**
 * provenance.memoryReclaim in words: null for runs that did not record it; DAMON's daemons otherwise
 * (a VM that pages out idle memory makes idle apps fault it back in, so a reader should know).
 */
export function describeMemoryReclaim(value: unknown): string | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) return 'no DAMON interface (no proactive memory reclaim)';
  const running = value.filter((k) => (k as { state?: unknown })?.state === 'on');
  if (running.length === 0) return 'DAMON present, not running (no proactive memory reclaim)';
  const schemes = running.flatMap((k) => ((k as { schemes?: unknown }).schemes ?? []) as { action?: unknown; minIdleS?: unknown }[]);
  const what = schemes.map((s) => `${String(s.action)}${typeof s.minIdleS === 'number' ? ` of memory idle ≥ ${s.minIdleS} s` : ''}`);
  return `DAMON running: ${what.length > 0 ? what.join(', ') : 'monitoring only'}`;
}

/** One line of what the stage achieved: "client → servers: RTT 20.41 ms by TCP connect (ping 20.60 ms), 941 Mbit/s …". */
export function describeCalibration(calibration: CalibrationRecord): string {
  const { tcpConnectRttMs, pingRttMs, throughput } = calibration.achieved;
  return (
    `client → servers: RTT ${tcpConnectRttMs.median.toFixed(2)} ms by TCP connect` +
    (pingRttMs ? ` (ping ${pingRttMs.median.toFixed(2)} ms)` : '') +
    `, ${Math.round(throughput.steadyMbit)} Mbit/s in one bulk transfer`
  );
}

/** What a run with --client-url knows of its network besides its name: the client's and the bench's addresses and the RTT the client measured before the first visit. */
export interface DeployedFacts {
  clients?: unknown;
  bench?: unknown;
  path?: Record<string, PathRecord>;
}

/** "client eth0 198.19.240.4, bench eth0 198.19.240.5; RTT client → server-a 0.11 ms, client → server-b 0.10 ms (TCP connect, before the first visit)" */
function describeDeployedNetwork(name: string, facts: DeployedFacts): string {
  const addresses = (who: string, info: unknown) => ((info as { confinement?: ConfinementLike } | undefined)?.confinement?.addresses ?? []).map((a) => `${who} ${a}`);
  const held = [...Object.values((facts.clients ?? {}) as Record<string, unknown>).flatMap((info) => addresses('client', info)), ...addresses('bench', facts.bench)];
  const rtts = Object.entries(facts.path ?? {})
    .filter(([key]) => key.startsWith(`${name}/`))
    .flatMap(([, record]) => {
      const figures = pathFigures(record.before);
      return (['server-a', 'server-b'] as const).filter((server) => figures[`${server} RTT (TCP connect) ms`]).map((server) => `client → ${server} ${ms(figures[`${server} RTT (TCP connect) ms`].median)} ms`);
    });
  return [held.length ? held.join(', ') : 'addresses not reported', rtts.length ? `RTT ${rtts.join(', ')} (TCP connect, before the first visit)` : 'RTT not measured'].join('; ');
}

/**
 * One line per network of the run (provenance.networks): what was asked for, what was achieved, the
 * delayer's cost. With `clientUrl` (apps the bench did not start) there is no stage: the line says which
 * network the deployment put the apps on (its description), with the addresses and RTT measured on it.
 */
export function describeNetworks(networks: Record<string, NetworkRecord> | undefined, clientUrl?: unknown, deployed: DeployedFacts = {}): string[] {
  // Keyed by the network's name, or a path profile's (region+names+mesh) on the network profile's stage.
  return Object.entries(networks ?? {}).map(([name, { profile, calibration, delayerCpu, refused, path }]) => {
    if (!calibration && typeof clientUrl === 'string') return `${name}: ${profile.description}; ${describeDeployedNetwork(name, deployed)}`;
    if (!calibration) return `${name}: ${refused ?? 'every app on 127.0.0.1, no network stage'}`;
    const asked = `asked ${rttMs(profile)} ms RTT${profile.rateMbit === null ? '' : `, ${profile.rateMbit} Mbit/s`}${profile.loss > 0 ? `, ${profile.loss * 100}% loss` : ''}`;
    const receive = delayerCpu?.receiveCpuMs === undefined ? '' : ` (servers' receive thread ${ms(delayerCpu.receiveCpuMs)} ms)`;
    const cost = delayerCpu ? `; delayer ${ms(delayerCpu.cpuMs)} ms CPU for ${count(delayerCpu.packets)} packets while measuring${receive}` : '';
    return `${name} (${asked}): ${describeCalibration(calibration)}${refused ? `; refused: ${refused}` : ''}${cost}${path ? `; ${describeNetworkPath(path)}` : ''}`;
  });
}

/** "path check ok: a lookup 40.3 ms (2 round trips, expected 40.1); through the sidecars 23.8 ms (one round trip 20.0 + their own 3.8); Envoy 1.40.0, HTTP/2 windows 256 MiB per stream, 256 MiB per connection" */
export function describeNetworkPath(path: NetworkPathRecord): string {
  const { check, mesh } = path;
  const parts = [
    check.lookup ? `a lookup ${ms(check.lookup.medianMs)} ms (${check.lookup.roundTrips} round trips, expected ${ms(check.lookup.expectedMs)})` : null,
    check.meshRequest ? `through the sidecars ${ms(check.meshRequest.medianMs)} ms (one round trip ${ms(check.meshRequest.expectedMs)} + their own ${ms(check.meshRequest.sidecarsMs)})` : null,
    mesh ? `Envoy ${mesh.envoy}${mesh.http2 ? `, HTTP/2 windows ${bytes(mesh.http2.initialStreamWindowSize)} per stream, ${bytes(mesh.http2.initialConnectionWindowSize)} per connection` : ''}` : null,
  ].filter((part) => part !== null);
  return `path check ${check.verdict}${check.reasons.length ? ` (${check.reasons.join('; ')})` : ''}: ${parts.join('; ')}`;
}

interface ConfinementLike {
  cpus?: string | null;
  cpuCount?: number;
  memoryLimitBytes?: number | null;
  heapLimitBytes?: number;
  deployment?: string | null;
  addresses?: string[];
}

/** "under docker-compose, CPUs 0-1 (2), memory limit 6.00 GiB, V8 heap 4.20 GiB, eth0 198.19.240.3" (libs/config confinement.ts). */
export function describeConfinement(c: ConfinementLike): string {
  return [
    c.deployment ? `under ${c.deployment}` : 'a plain process',
    `CPUs ${c.cpus ?? '?'}${c.cpuCount === undefined ? '' : ` (${c.cpuCount})`}`,
    c.memoryLimitBytes ? `memory limit ${bytes(c.memoryLimitBytes)}` : 'no memory limit of its own',
    c.heapLimitBytes === undefined ? null : `V8 heap ${bytes(c.heapLimitBytes)}`,
    c.addresses?.length ? c.addresses.join(', ') : 'loopback only',
  ]
    .filter((part) => part !== null)
    .join(', ');
}

/**
 * Where the apps ran when the bench did not start them (settings.clientUrl): the measuring client's and
 * the bench's own confinement, as each read it (provenance.clients, provenance.bench); null otherwise.
 * The servers are not visible from either: their placement is the deployment's.
 */
export function describeDeployedApps(settings: { clientUrl?: unknown }, provenance: { clients?: unknown; bench?: unknown }): string | null {
  if (typeof settings.clientUrl !== 'string') return null;
  type Deployed = { confinement?: ConfinementLike; kubernetes?: { podName?: string | null; nodeName?: string | null; placement?: string | null } };
  // On Kubernetes, the pod's own name and node and the overlay's placement rule (runtime-info.ts).
  const pod = (k: Deployed['kubernetes']) => (k ? ` (pod ${k.podName ?? '?'} on node ${k.nodeName ?? '?'}, placement ${k.placement ?? '?'})` : '');
  const clients = Object.entries((provenance.clients ?? {}) as Record<string, Deployed>);
  const bench = (provenance.bench ?? {}) as Deployed;
  const parts = [
    ...clients.filter(([, info]) => info?.confinement).map(([variant, info]) => `${variant} client ${describeConfinement(info.confinement!)}${pod(info.kubernetes)}`),
    ...(bench.confinement ? [`bench ${describeConfinement(bench.confinement)}${pod(bench.kubernetes)}`] : []),
  ];
  return `apps started by their deployment, not the bench (--client-url ${settings.clientUrl}): ${parts.length > 0 ? parts.join('; ') : 'their placement not reported'}; the servers as the deployment placed them`;
}

/** One line per network and variant of what the client measured of its path (provenance.path), with any change during the run. */
export function describePaths(paths: Record<string, PathRecord> | undefined): string[] {
  return Object.entries(paths ?? {}).map(
    ([key, record]) => `${key}: ${describePath(record.before)}${record.changed?.length ? `; **changed during the run**: ${record.changed.join(', ')}` : ''}`,
  );
}

/**
 * One line per runtime of the run (provenance.runtimes): the versions its apps ran on, as read from the
 * running processes (app-runtimes.ts); an app that ran on anything else is named.
 */
export function describeRuntimes(runtimes: Record<string, RuntimeProvenance> | undefined): string[] {
  return Object.entries(runtimes ?? {}).map(([name, runtime]) => {
    const apps = Object.entries(runtime.apps ?? {}).flatMap(([variant, byApp]) => Object.entries(byApp).map(([app, info]) => ({ label: `${variant} ${app}`, info })));
    const seen = apps.map((a) => a.info).find((info): info is AppRuntime => 'node' in info);
    const versions = seen ? `${seen.node} (V8 ${seen.v8}, OpenSSL ${seen.openssl}, llhttp ${seen.llhttp})` : `v${runtime.version}`;
    const odd = apps.filter((a) => 'error' in a.info || a.info.node !== seen?.node).map((a) => `${a.label}: ${'error' in a.info ? a.info.error : a.info.node}`);
    return `Node ${name}: ${versions} for ${apps.length} app(s)${odd.length ? `; **differs**: ${odd.join(', ')}` : ''}; ${runtime.binary} (${runtime.source})`;
  });
}

/**
 * What the server namespace's listen queue did, in words, or null when it neither overflowed nor
 * failed a SYN-cookie check: "server's listen queue overflowed 3,702 times, 106 SYN-cookie checks
 * failed (each answered with a reset)".
 */
export function describeListenQueue(tcp: TcpCounters | null | undefined): string | null {
  if (!tcp || (tcp.listenOverflows <= 0 && tcp.syncookiesFailed <= 0)) return null;
  const times = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;
  const overflowed = tcp.listenOverflows > 0 ? `server's listen queue overflowed ${times(tcp.listenOverflows, 'time', 'times')}` : null;
  const failed = tcp.syncookiesFailed > 0 ? `${times(tcp.syncookiesFailed, 'SYN-cookie check', 'SYN-cookie checks')} failed (each answered with a reset)` : null;
  return [overflowed, failed].filter(Boolean).join(', ');
}
