// bench:service's Markdown and HTML, from results.json alone (pure): the sweep, each strategy's
// saturation point, every replica's share (from its own counters) and latency against offered rate.
import { count, ms, presetOf, type DnsCounts } from '../../model';
import { renderBarChart } from '../../export';
import { renderLogChart } from '../../export';
import type { SuiteDocument } from '../common/document';
import { renderSuitePage } from '../common/page';
import { htmlTable, markdownTable, type Table } from '../common/tables';
import type { ServiceCell, ServiceResults, ServiceSettings } from './measure';
import { faultCharts, faultIntro, faultTable } from './render-faults';
import { recoveryFaultTable, recoveryIntro, recoverySteadyTable } from './render-recovery';
import { FAULT_SCHEDULE } from './faults';

export type ServiceDocument = SuiteDocument<ServiceSettings, ServiceResults>;

/** The transports' colours and dashes in the charts (TRANSPORT_STYLE keys). */
const SERIES = { 'http-json': 'json', grpc: 'grpc', 'nest-tcp': 'nest-tcp', 'nest-redis': 'nest-redis', 'nest-nats': 'nest-nats', 'nest-rmq': 'nest-rmq', 'nest-mqtt': 'nest-mqtt', 'nest-kafka': 'nest-kafka' } as const;

const pct = (part: number, whole: number) => (whole > 0 ? `${Math.round((100 * part) / whole)}%` : '—');

/** Requests per replica as shares, e.g. "100% / 0% / 0%". */
export function sharesText(cell: ServiceCell): string {
  const total = cell.replicas.reduce((n, r) => n + r.requests, 0);
  return cell.replicas.map((r) => (r.gone ? 'gone' : r.unread ? 'unread' : pct(r.requests, total))).join(' / ');
}

/** The replicas' apps that died during the sweeps: which, how, when, in which step. */
function deathLines(results: ServiceResults): string[] {
  return results.cells.flatMap((c) => (c.events ?? []).map((e) => `- ${c.strategy} × ${c.transport}: replica ${e.replica}'s ${e.app} (pid ${e.pid}) ${e.how} at ${e.at}, during ${e.during}; the sweep went on with the other replicas (its counters read as gone from then on)`));
}

/** Queries the cluster DNS received (results from before it was counted have none: —). */
const queries = (dns: DnsCounts | undefined) => (dns ? count(dns.queries) : '—');

function throttledText(cell: ServiceCell): string {
  if (cell.replicas.every((r) => r.throttling === null)) return 'no limit';
  return cell.replicas.map((r) => (r.throttling ? `${Math.round(r.throttling.throttledMs)}` : '—')).join(' / ');
}

/** Requests the replicas served per completed call: 1 when each call reached one replica, the replica count when every replica got every call (Redis pub/sub). */
export function requestsPerCall(cell: ServiceCell): number | null {
  return cell.ok > 0 ? cell.replicas.reduce((n, r) => n + r.requests, 0) / cell.ok : null;
}

const perCallText = (cell: ServiceCell) => {
  const n = requestsPerCall(cell);
  return n === null ? '—' : n.toFixed(2);
};

function sweepTable(cells: readonly ServiceCell[]): Table {
  return {
    header: ['strategy', 'transport', 'offered/s', 'completed/s', 'p50 ms', 'p99 ms', 'p99.9 ms', 'p99 ms (uncorrected)', 'errors', 'requests per replica', 'replica requests per call', 'CPU ms per replica', 'broker CPU ms', 'throttled ms per replica', 'CPU ms / 1,000 calls', 'DNS queries', 'saturated'],
    numeric: [false, false, true, true, true, true, true, true, true, false, true, false, true, false, true, true, false],
    rows: cells.map((c) => [
      c.strategy,
      c.transport,
      count(c.offeredPerS),
      count(Math.round(c.throughputPerS)),
      ms(c.corrected.p50Ms),
      ms(c.corrected.p99Ms),
      ms(c.corrected.p999Ms),
      ms(c.service.p99Ms),
      count(c.errors),
      sharesText(c),
      perCallText(c),
      c.replicas.map((r) => Math.round(r.cpuMs)).join(' / '),
      c.cpuMs.broker == null ? '—' : count(Math.round(c.cpuMs.broker)),
      throttledText(c),
      c.cpuPer1000CallsMs === null ? '—' : count(Math.round(c.cpuPer1000CallsMs)),
      queries(c.dns),
      c.saturated ?? '',
    ]),
  };
}

export interface SaturationPoint {
  strategy: string;
  transport: string;
  /** Highest completed rate in the sweep. */
  maxThroughputPerS: number;
  /** The highest offered rate that was not saturated, with its p99 and CPU cost; null if even the first was. */
  sustained: { offeredPerS: number; p99Ms: number; cpuPer1000CallsMs: number | null; shares: string } | null;
  saturatedAt: number | null;
}

export function saturationPoints(cells: readonly ServiceCell[]): SaturationPoint[] {
  const keys = [...new Set(cells.map((c) => `${c.strategy}\u0000${c.transport}`))];
  return keys.map((key) => {
    const [strategy, transport] = key.split('\u0000');
    const mine = cells.filter((c) => c.strategy === strategy && c.transport === transport);
    const ok = mine.filter((c) => !c.saturated).sort((a, b) => b.offeredPerS - a.offeredPerS)[0];
    return {
      strategy,
      transport,
      maxThroughputPerS: Math.max(...mine.map((c) => c.throughputPerS)),
      sustained: ok ? { offeredPerS: ok.offeredPerS, p99Ms: ok.corrected.p99Ms, cpuPer1000CallsMs: ok.cpuPer1000CallsMs, shares: sharesText(ok) } : null,
      saturatedAt: mine.find((c) => c.saturated)?.offeredPerS ?? null,
    };
  });
}

function saturationTable(cells: readonly ServiceCell[]): Table {
  return {
    header: ['strategy', 'transport', 'sustained rate/s', 'p99 ms there', 'CPU ms / 1,000 calls there', 'requests per replica there', 'max completed/s', 'saturated at /s'],
    numeric: [false, false, true, true, true, false, true, true],
    rows: saturationPoints(cells).map((p) => [
      p.strategy,
      p.transport,
      p.sustained ? count(p.sustained.offeredPerS) : 'none',
      p.sustained ? ms(p.sustained.p99Ms) : '—',
      p.sustained?.cpuPer1000CallsMs == null ? '—' : count(Math.round(p.sustained.cpuPer1000CallsMs)),
      p.sustained?.shares ?? '—',
      count(Math.round(p.maxThroughputPerS)),
      p.saturatedAt === null ? 'not reached' : count(p.saturatedAt),
    ]),
  };
}

function changeTable(results: ServiceResults): Table {
  return {
    header: ['strategy', 'transport', 'rate/s', 'joined: first request after', 'its requests', 'left: drained in', 'errors', 'lost', 'p99 ms', 'worst bin ms', 'DNS queries steady / joined / left'],
    numeric: [false, false, true, false, true, false, true, true, true, true, false],
    rows: results.changes.map((c) => [
      c.strategy,
      c.transport,
      count(c.offeredPerS),
      c.added.firstRequestAfterMs === null ? 'never (in the run)' : `${count(Math.round(c.added.firstRequestAfterMs))} ms${c.added.firstRequestPhase === 'after the oldest left' ? ' (after the oldest left)' : ''}`,
      count(c.added.requests),
      `${count(Math.round(c.removed.drainedInMs))} ms`,
      count(c.errors),
      count(c.lost),
      ms(c.corrected.p99Ms),
      ms(Math.max(0, ...c.bins.map((b) => b.maxMs))),
      c.dns ? [c.dns.steady, c.dns.joined, c.dns.left].map(queries).join(' / ') : '—',
    ]),
  };
}

/** What each sweep's driver asked the cluster DNS while it connected and warmed up (its first lookups). */
function driverStartText(results: ServiceResults): string {
  const starts = (results.driverStarts ?? []).filter((d) => d.dns.queries > 0);
  if (starts.length === 0) return 'No driver asked the cluster DNS anything while it connected.';
  const types = (d: DnsCounts) => Object.entries(d.byType).map(([type, n]) => `${n} ${type}`).join(', ');
  return `DNS queries while each driver connected and warmed up (every other strategy dials an address): ${starts.map((d) => `${d.strategy} × ${d.transport} ${d.dns.queries} (${types(d.dns)}; ${d.dns.nxdomain} NXDOMAIN)`).join('; ')}.`;
}

function skippedLines(results: ServiceResults): string[] {
  return [
    ...results.skipped.map((s) => `- not run: ${s.strategy}${s.transport === 'all' ? '' : ` × ${s.transport}`}: ${s.why}`),
    ...results.failures.map((f) => `- FAILED ${f.strategy} × ${f.transport}: ${f.error}`),
  ];
}

/** How each broker shared the requests among the replicas (the broker strategy's mechanisms), or nothing. */
function sharingTable(results: ServiceResults): Table | null {
  if (!results.sharing?.length) return null;
  const at = (transport: string) => results.cells.filter((c) => c.strategy === 'broker' && c.transport === transport && c.ok > 0);
  return {
    header: ['transport', 'broker', 'mechanism', 'spreads', 'configured', 'requests per replica (all steps)', 'replica requests per call'],
    numeric: [false, false, false, false, false, false, true],
    rows: results.sharing.map((s) => {
      const cells = at(s.transport);
      const names = cells[0]?.replicas.map((r) => r.name) ?? [];
      const byReplica = names.map((name) => cells.reduce((n, c) => n + (c.replicas.find((r) => r.name === name)?.requests ?? 0), 0));
      const ok = cells.reduce((n, c) => n + c.ok, 0);
      return [
        s.transport,
        s.broker,
        s.mechanism,
        s.spreads ? 'yes: each request to one replica' : 'no: every replica gets every request',
        `${s.configured}${s.partitions === null ? '' : ` (${s.partitions} partitions)`}`,
        byReplica.length ? byReplica.map(count).join(' / ') : '—',
        ok > 0 ? (byReplica.reduce((a, b) => a + b, 0) / ok).toFixed(2) : '—',
      ];
    }),
  };
}

function describeReplicas(results: ServiceResults): string {
  const limit = results.replicas[0]?.cpuLimit;
  return `${results.replicas.length} replicas (${results.replicas.map((r) => `${r.name} ${r.address}`).join(', ')}), each ${limit ? `limited to ${limit.millicores}m CPU (cgroup ${limit.version}: ${limit.setting})` : 'without a CPU limit'}`;
}

/** What --security tls|mtls changes behind the Service, said in both reports; '' in cleartext. */
function securityText(settings: ServiceDocument['settings']): string {
  const mode = settings.security;
  if (!mode || mode === 'plain') return '';
  const mutual = mode === 'mtls' ? ' Under mtls the replicas and Envoy require the client’s certificate, and Envoy presents one to the replicas.' : '';
  return (
    ` Under ${mode}: the replicas listen with TLS 1.3, one certificate from a CA made for the run naming what is dialled (the virtual IP, the headless name and its FQDN, the proxy's and each replica's address);` +
    ` the l7-proxy's Envoy ends the client's TLS and opens its own to the replicas, checking their certificate against the run's CA and the Service's FQDN.${mutual}`
  );
}

const BROKER_INTRO =
  "Strategy broker: no Service; every replica's server-b subscribes to the one broker (in the stage's broker namespace, so a call crosses client → broker → replica and back), which hands each request to a replica by its own mechanism. Requests per replica from the replicas' own counters; CPU per 1,000 calls includes the broker's (its process, read from /proc).";

function sharingOrNothing<T>(results: ServiceResults, render: (table: Table) => T[]): T[] {
  const table = sharingTable(results);
  return table ? render(table) : [];
}

export function renderServiceMarkdown(doc: ServiceDocument): string {
  const s = doc.settings;
  const r = doc.results;
  return [
    `# bench:service: ${s.startedAt} (preset ${presetOf(s)}, network ${s.network ?? '?'}, security ${s.security ?? 'plain'})`,
    '',
    `${describeReplicas(r)}. Load at fixed rates (open loop) from a driver in the client namespace, ${s.warmupMs} ms warm-up then ${s.stepMs} ms per rate; latency counted from each call's due time (corrected for coordinated omission), "uncorrected" from when it was sent. Requests and CPU per replica from the replicas' own counters; throttled time from each replica's cgroup. CPU per 1,000 calls: driver + replicas + proxy + broker + delayer + the servers' receive thread. ${s.cores}.${securityText(s)}`,
    '',
    '## Where each strategy saturates',
    '',
    markdownTable(saturationTable(r.cells)),
    '',
    '## The sweep',
    '',
    markdownTable(sweepTable(r.cells)),
    '',
    `DNS queries: what the cluster DNS (dnsmasq, the headless name's records) received in the step, from its log. ${driverStartText(r)}`,
    '',
    ...(sharingOrNothing(r, (t) => ['## Replicas behind a broker', '', BROKER_INTRO, '', markdownTable(t), ''])),
    ...(r.changes.length
      ? ['## Change under load', '', `At a fixed rate: ${s.changePhaseMs} ms steady, a replica joins (an endpoint once its apps listen: the rules, the DNS records — dnsmasq reads its hosts file again on SIGHUP — and Envoy's EDS), ${s.changePhaseMs} ms later the oldest leaves gracefully (out of the endpoints, then SIGTERM: it drains). The new replica's counter is polled until the run ends.`, '', markdownTable(changeTable(r)), '']
      : []),
    ...(r.faults?.length ? ['## Faults under load', '', faultIntro(r, s.faultPhaseMs, s.faultRate), '', markdownTable(faultTable(r)), '', 'Every 100 ms bin of each run (ok / failed / hung, p99) is in `fault-timeline.csv`, the recovery timelines in report.html.', ''] : []),
    ...(r.recovery || r.faults?.some((f) => f.recoveryTuning && f.recoveryTuning !== 'none')
      ? ['## Recovery tunings', '', recoveryIntro(r), '', '### Under the faults', '', markdownTable(recoveryFaultTable(r)), '', `### What each costs when nothing fails (${s.stepMs} ms at each rate)`, '', markdownTable(recoverySteadyTable(r)), '', 'Every figure per recovery, pair and fault or rate is in `recovery.csv`.', '']
      : []),
    ...(deathLines(r).length ? ['## Replicas that died during the sweeps', '', ...deathLines(r), ''] : []),
    ...skippedLines(r),
    '',
  ].join('\n');
}

export function renderServiceHtml(doc: ServiceDocument): string {
  const cells = doc.results.cells;
  const strategies = [...new Set(cells.map((c) => c.strategy))];
  const transports = [...new Set(cells.map((c) => c.transport))];
  const latencyCharts = strategies.map((strategy) =>
    renderLogChart({
      kind: 'service-latency',
      caseId: strategy,
      subheading: 'p99 (corrected) against offered rate',
      label: `${strategy}: p99 latency, corrected for coordinated omission, against the offered rate`,
      xLabel: 'offered calls/s',
      unit: 'ms',
      series: transports.map((transport) => ({ id: SERIES[transport], points: cells.filter((c) => c.strategy === strategy && c.transport === transport).map((c) => [c.offeredPerS, c.corrected.p99Ms] as const) })),
    }),
  );
  const shareCharts = strategies.map((strategy) => {
    const last = (transport: string) => cells.filter((c) => c.strategy === strategy && c.transport === transport && !c.saturated).at(-1) ?? cells.filter((c) => c.strategy === strategy && c.transport === transport).at(-1);
    const names = cells.find((c) => c.strategy === strategy)?.replicas.map((r) => r.name) ?? [];
    return renderBarChart({
      kind: 'service-shares',
      caseId: strategy,
      subheading: "each replica's share of the requests (its own counter), highest sustained rate",
      label: `${strategy}: share of requests per replica`,
      unit: '%',
      groups: names.map((name) => ({
        label: name,
        bars: transports.map((transport) => {
          const cell = last(transport);
          const total = cell ? cell.replicas.reduce((n, r) => n + r.requests, 0) : 0;
          const mine = cell?.replicas.find((r) => r.name === name);
          const value = cell && mine && total > 0 ? (100 * mine.requests) / total : null;
          return { transport: SERIES[transport], value, valueLabel: value === null ? '—' : `${Math.round(value)}%`, tooltip: `${transport}, ${name}: ${mine?.requests ?? 0} of ${total} requests at ${cell?.offeredPerS ?? '?'}/s` };
        }),
      })),
    });
  });
  return renderSuitePage(doc, {
    title: 'bench:service — behind a Service: replicas, balancing and load at a fixed rate',
    summary: `${describeReplicas(doc.results)}. Open-loop load per strategy and transport up to saturation; latency corrected for coordinated omission.${securityText(doc.settings)}`,
    published: [],
    sections: [
      { id: 'saturation', heading: 'Where each strategy saturates', intro: 'The highest offered rate each strategy and transport sustained (≥ 90 % completed, ≤ 1 % errors, p99 ≤ 1 s), its p99 and CPU cost.', table: htmlTable(saturationTable(cells)) },
      { id: 'shares', heading: "Each replica's share", intro: "Requests each replica served, by its own counter: under l4 one gRPC channel is one connection, so one replica.", legend: { ids: transports.map((t) => SERIES[t]), marks: 'bars' }, charts: shareCharts },
      { id: 'latency', heading: 'Latency against offered rate', intro: 'p99 from each call’s due time, per strategy.', legend: { ids: transports.map((t) => SERIES[t]), marks: 'lines' }, charts: latencyCharts },
      ...sharingOrNothing(doc.results, (table) => [{ id: 'brokers', heading: 'Replicas behind a broker', intro: BROKER_INTRO, table: htmlTable(table) }]),
      ...(doc.results.changes.length
        ? [{ id: 'change', heading: 'Change under load', intro: 'A replica joins, then the oldest leaves gracefully, under load at a fixed rate: when the new one first serves (polled until the run ends), errors, lost calls, the worst latency in any 250 ms bin and the DNS queries in each phase.', table: htmlTable(changeTable(doc.results)) }]
        : []),
      ...(doc.results.faults?.length
        ? [
            { id: 'faults', heading: 'Faults under load', intro: faultIntro(doc.results, doc.settings.faultPhaseMs, doc.settings.faultRate), table: htmlTable(faultTable(doc.results)) },
            ...faultCharts(doc.results).map((f) => ({ id: `fault-timeline-${f.strategy}`, heading: `Recovery timeline: ${f.strategy}`, intro: `Calls per ${FAULT_SCHEDULE.binMs} ms bin by their due time: ok (green), failed fast (red), hung to their deadline (amber); dashed: the fault injected and undone.`, charts: f.charts })),
          ]
        : []),
      ...(doc.results.recovery || doc.results.faults?.some((f) => f.recoveryTuning && f.recoveryTuning !== 'none')
        ? [
            { id: 'recovery-faults', heading: 'Recovery tunings under the faults', intro: recoveryIntro(doc.results), table: htmlTable(recoveryFaultTable(doc.results)) },
            { id: 'recovery-steady', heading: 'What each recovery tuning costs when nothing fails', intro: `A step of ${doc.settings.stepMs} ms at each rate with a fresh driver, the tuning on, no fault: p99 from the due time and everyone's CPU per 1,000 calls.`, table: htmlTable(recoverySteadyTable(doc.results)) },
          ]
        : []),
      { id: 'sweep', heading: 'The sweep', intro: [...deathLines(doc.results), ...skippedLines(doc.results)].join(' ') || 'Every strategy and transport ran.', table: htmlTable(sweepTable(cells)) },
    ],
  });
}
