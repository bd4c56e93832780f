// The brokers' part of each cell (analysis/broker-rows.ts) in results.md's, results.csv's and the terminal's
// words; report.html draws the same rows (html/brokers.ts). Kept in a file of its own: the brokers' columns
// and section are added to the other exports from here.
import { bytes, count, ms, type Cell, type NetworkRecord } from '../model';
import { brokerHopsOf, brokerRow, brokerTables, type BrokerHops, type BrokerRow, type BrokerTable } from '../analysis';

export const BROKERS_HEADING = "The brokers' own counters and CPU per cell (timed calls only)";
export const BROKERS_NOTE =
  "For a transport through a broker (nest-redis, nest-nats, nest-rmq, nest-mqtt, nest-kafka): the broker's own counters, " +
  'read from the broker itself just before a visit\'s first timed call and just after its last (the other transports of the ' +
  'visit go through other brokers or none), per timed call; a call is the case\'s requests (②-1: 10), each a request and ' +
  "its reply. The broker's CPU (user + system of its process, read around each timed call of its transport) per 1,000 calls " +
  "beside the apps' (client + server over the same calls) and both together; a direct transport's rows (json, grpc, nest-tcp) " +
  "show the apps' alone. – : the broker does not count it (docs/brokers.md says what each counts, and where the bench's own " +
  'readings add to a counter).';
export const BROKERS_HEADER = [
  'variant',
  'case',
  'transport',
  'broker',
  'timed calls',
  'messages in / call',
  'messages out / call',
  'bytes in / call',
  'bytes out / call',
  'broker CPU ms',
  'broker CPU ms / 1,000 calls',
  'apps CPU ms / 1,000 calls',
  'apps + broker CPU ms / 1,000 calls',
  'broker peak RSS',
];
/** Columns from here on are numbers. */
export const BROKERS_FIRST_NUMBER = 4;

const fixed = (x: number | null, digits: number) => (x === null ? '–' : x.toFixed(digits));
const rounded = (x: number | null) => (x === null ? '–' : count(Math.round(x)));

/** One row's cells, in BROKERS_HEADER's order (results.md and report.html alike). */
export function brokerCells(r: BrokerRow): string[] {
  const brokered = r.broker !== null;
  const only = (text: string) => (brokered ? text : '');
  return [
    r.variant,
    r.case,
    r.transport,
    r.broker ?? 'none (direct)',
    count(r.calls),
    only(fixed(r.messagesInPerCall, 2)),
    only(fixed(r.messagesOutPerCall, 2)),
    only(rounded(r.bytesInPerCall)),
    only(rounded(r.bytesOutPerCall)),
    only(r.brokerCpuMs === null ? '–' : ms(r.brokerCpuMs)),
    only(rounded(r.brokerCpuPer1000CallsMs)),
    rounded(r.appsCpuPer1000CallsMs),
    rounded(r.totalCpuPer1000CallsMs),
    only(r.brokerPeakRssBytes === null ? '–' : bytes(r.brokerPeakRssBytes)),
  ];
}

/** "client → broker 19.88 ms, server → broker 20.06 ms, client → servers 19.99 ms (TCP connect RTT, medians of the stage's calibration)". */
export function describeHops(hops: BrokerHops | null): string {
  if (!hops) return 'no broker hop delay (the brokers on 127.0.0.1 beside the apps, or a stage without a broker namespace)';
  const f = (x: number) => x.toFixed(2);
  return `client → broker ${f(hops.clientToBrokerMs)} ms, server → broker ${f(hops.serverToBrokerMs)} ms, client → servers ${f(hops.clientToServerMs)} ms (TCP connect RTT, medians of the stage's calibration)`;
}

/**
 * "kafka: 37,000 records in 370 rounds, 9.5 s, a round 132.85 → 7.23 ms (medians of its batches), settled;
 * then 2,816 Nest requests in 256 rounds, 6.1 s, a round 38.1 → 21.4 ms, settled": what warming one Kafka
 * instance took (the second part absent in runs before it).
 */
export function describeWarmUp(name: string, warmUp: BrokerTable['warmUps'][string]): string {
  if ('skipped' in warmUp) return `${name}: not warmed (${warmUp.skipped})`;
  if ('error' in warmUp) return `${name}: not warmed (${warmUp.error})`;
  const settled = (done: boolean) => (done ? 'settled' : 'not settled within its bound');
  const requests = warmUp.requests;
  const cpu = requests?.brokerCpuPerCallMs;
  const judged = cpu && cpu.length > 0 ? `, the broker's CPU per request ${cpu[0]} → ${cpu[cpu.length - 1]} ms (judged on it)` : '';
  const then = requests ? `; then ${requests.calls.toLocaleString('en-US')} Nest requests in ${requests.rounds} rounds, ${(requests.ms / 1000).toFixed(1)} s, a round ${requests.firstMedianMs} → ${requests.lastMedianMs} ms${judged}, ${settled(requests.settled)}` : '';
  return `${name}: ${warmUp.records.toLocaleString('en-US')} records in ${warmUp.rounds} rounds, ${(warmUp.ms / 1000).toFixed(1)} s, a round ${warmUp.firstMedianMs} → ${warmUp.lastMedianMs} ms (medians of its batches), ${settled(warmUp.settled)}${then}`;
}

/** The line above a network's table: its hops, where each broker sat, and what warming Kafka took. */
export function describeBrokerTable(table: BrokerTable): string {
  // Brokers placed alike are named together: "redis, nats: loopback, beside the apps".
  const byPlace = new Map<string, string[]>();
  for (const [kind, where] of Object.entries(table.placements)) byPlace.set(where, [...(byPlace.get(where) ?? []), kind]);
  const placed = [...byPlace].map(([where, kinds]) => `${kinds.join(', ')}: ${where}`);
  const warmed = Object.entries(table.warmUps ?? {}).map(([name, warmUp]) => describeWarmUp(name, warmUp));
  return `Hops: ${describeHops(table.hops)}.${placed.length ? ` Brokers: ${placed.join('; ')}.` : ''}${warmed.length ? ` Kafka's warm-up before the first timed visit: ${warmed.join('; ')}.` : ''}`;
}

/** Each counter source once: "- nats: /varz in_msgs …". */
function sourceLines(table: BrokerTable): string[] {
  const seen = new Map<string, string>();
  for (const r of table.rows) if (r.broker && r.source && !seen.has(r.broker)) seen.set(r.broker, r.source);
  return [...seen].map(([broker, source]) => `- ${broker}: ${source}`);
}

/** results.md's section: one table per network where a cell went through a broker; empty for a run without brokers. */
export function renderBrokersSection(results: readonly Cell[], networks: Record<string, NetworkRecord> | undefined): string[] {
  const tables = brokerTables(results, networks);
  if (tables.length === 0) return [];
  const align = BROKERS_HEADER.map((_, i) => (i < BROKERS_FIRST_NUMBER ? '---' : '---:'));
  return [
    `## ${BROKERS_HEADING}`,
    '',
    BROKERS_NOTE,
    '',
    ...tables.flatMap((t) => [
      `### ${t.network}`,
      '',
      describeBrokerTable(t),
      '',
      `| ${BROKERS_HEADER.join(' | ')} |`,
      `|${align.join('|')}|`,
      ...t.rows.map((r) => `| ${brokerCells(r).join(' | ')} |`),
      '',
      ...sourceLines(t),
      '',
    ]),
  ];
}

/** results.csv's broker columns, in order. */
export const BROKER_CSV_COLUMNS = [
  'broker',
  'broker_calls',
  'broker_messages_in',
  'broker_messages_out',
  'broker_bytes_in',
  'broker_bytes_out',
  'broker_messages_in_per_call',
  'broker_messages_out_per_call',
  'broker_cpu_ms',
  'broker_cpu_per_1000_calls_ms',
  'apps_cpu_per_1000_calls_ms',
  'apps_and_broker_cpu_per_1000_calls_ms',
  'broker_peak_rss_bytes',
  'broker_counters_source',
  'client_broker_rtt_ms',
  'server_broker_rtt_ms',
] as const;

type BrokerCsvRow = Partial<Record<(typeof BROKER_CSV_COLUMNS)[number], string | number | null>>;

/** A summary row's broker columns: the broker's counters as counted and per call, its CPU, the apps', and the network's hop RTTs. */
export function brokerCsvColumns(cell: Cell, networks: Record<string, NetworkRecord> | undefined): BrokerCsvRow {
  const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);
  const row = brokerRow(cell, '');
  const hops = cell.broker === undefined ? null : brokerHopsOf(networks?.[cell.network ?? 'loopback']);
  const counters = cell.broker?.counters;
  return {
    apps_cpu_per_1000_calls_ms: round(row.appsCpuPer1000CallsMs),
    apps_and_broker_cpu_per_1000_calls_ms: round(row.totalCpuPer1000CallsMs),
    ...(cell.broker === undefined
      ? {}
      : {
          broker: row.broker,
          broker_calls: cell.broker?.calls ?? null,
          broker_messages_in: counters?.messagesIn ?? null,
          broker_messages_out: counters?.messagesOut ?? null,
          broker_bytes_in: counters?.bytesIn ?? null,
          broker_bytes_out: counters?.bytesOut ?? null,
          broker_messages_in_per_call: round(row.messagesInPerCall),
          broker_messages_out_per_call: round(row.messagesOutPerCall),
          broker_cpu_ms: round(row.brokerCpuMs),
          broker_cpu_per_1000_calls_ms: round(row.brokerCpuPer1000CallsMs),
          broker_peak_rss_bytes: row.brokerPeakRssBytes,
          broker_counters_source: row.source,
          client_broker_rtt_ms: hops?.clientToBrokerMs ?? null,
          server_broker_rtt_ms: hops?.serverToBrokerMs ?? null,
        }),
  };
}

/** The terminal's lines: one per brokered cell, "loopback blog ①-1 nest-nats via nats: 2.00 in / 2.00 out messages per call; CPU per 1,000 calls: apps 812 + broker 95 = 907 ms". */
export function brokerTerminalLines(results: readonly Cell[], networks: Record<string, NetworkRecord> | undefined): string[] {
  return brokerTables(results, networks).flatMap((t) =>
    t.rows
      .filter((r) => r.broker !== null)
      .map(
        (r) =>
          `${r.place} ${r.variant} ${r.case} ${r.transport} via ${r.broker}: ${fixed(r.messagesInPerCall, 2)} in / ${fixed(r.messagesOutPerCall, 2)} out messages per call; ` +
          `CPU per 1,000 calls: apps ${rounded(r.appsCpuPer1000CallsMs)} + broker ${rounded(r.brokerCpuPer1000CallsMs)} = ${rounded(r.totalCpuPer1000CallsMs)} ms`,
      ),
  );
}
