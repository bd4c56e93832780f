// The brokers' part of each cell, as the reports show it (issue #42, item 3): per network, each cell's
// broker counters per call (what proves the path: a NATS request and its reply are 2 messages in and 2 out
// per request), the broker's CPU per 1,000 calls beside the apps' and both together, its peak memory, and
// each broker hop's RTT from the stage's calibration. Read from the cells and provenance; written by no run.
import type { BrokerCost, BrokerRunRecord, Cell, NetworkRecord } from '../model';
import { networkOf, placeLabeller } from '../model';

/** One cell's row: a brokered transport's figures, or a direct transport's apps alone (broker null) to compare with. */
export interface BrokerRow {
  /** Where it ran (its network, with the runtime and security mode when the run has several). */
  place: string;
  variant: string;
  case: string;
  transport: string;
  /** The broker it went through; null: a direct transport (json, grpc, nest-tcp). */
  broker: string | null;
  /** Requests per call (a ②-1 call is 10 requests, each a request and its reply through the broker). */
  requests: number;
  /** Timed calls the figures are over. */
  calls: number;
  messagesInPerCall: number | null;
  messagesOutPerCall: number | null;
  bytesInPerCall: number | null;
  bytesOutPerCall: number | null;
  brokerCpuMs: number | null;
  brokerCpuPer1000CallsMs: number | null;
  /** Client + server CPU per 1,000 timed calls (null: not reported). */
  appsCpuPer1000CallsMs: number | null;
  /** Apps + broker: what 1,000 calls cost the machine's CPU (a direct transport's is its apps'). */
  totalCpuPer1000CallsMs: number | null;
  brokerPeakRssBytes: number | null;
  /** Where the counters were read and what they leave out (brokers/<broker>). */
  source: string | null;
}

/** Each broker hop's TCP connect RTT (median of the stage's calibration), and the direct one beside them. */
export interface BrokerHops {
  clientToServerMs: number;
  clientToBrokerMs: number;
  serverToBrokerMs: number;
}

/** One network's table: its hops (null on loopback, or a stage without a broker namespace), where the brokers sat, its rows. */
export interface BrokerTable {
  network: string;
  hops: BrokerHops | null;
  /** Each broker's placement as the run recorded it (provenance.networks.<n>.brokers), by kind. */
  placements: Record<string, string>;
  /** What warming each Kafka instance took before the first timed visit (provenance's warmUp), by its name there; absent: not warmed. */
  warmUps: Record<string, NonNullable<BrokerRunRecord['warmUp']>>;
  rows: BrokerRow[];
}

const cpuOf = (cost: { cpuUserMs: number; cpuSystemMs: number } | null | undefined) => (cost ? cost.cpuUserMs + cost.cpuSystemMs : null);
const brokerCpuOf = (cost: BrokerCost | null) => cost?.cpuMs ?? null;

/** x per call, or null when x is unknown or there were no calls. */
const perCall = (x: number | null | undefined, calls: number) => (x === null || x === undefined || calls === 0 ? null : x / calls);

function appsPer1000(cell: Cell): number | null {
  const client = cpuOf(cell.client);
  const server = cpuOf(cell.server);
  const calls = cell.samplesMs.length;
  return client === null || server === null || calls === 0 ? null : (1000 * (client + server)) / calls;
}

function brokerFigures(broker: BrokerCost | null): Pick<BrokerRow, 'calls' | 'messagesInPerCall' | 'messagesOutPerCall' | 'bytesInPerCall' | 'bytesOutPerCall' | 'brokerCpuMs' | 'brokerCpuPer1000CallsMs' | 'brokerPeakRssBytes' | 'source'> | null {
  if (!broker) return null;
  const counters = broker.counters;
  const cpu = brokerCpuOf(broker);
  return {
    calls: broker.calls,
    messagesInPerCall: perCall(counters?.messagesIn, broker.calls),
    messagesOutPerCall: perCall(counters?.messagesOut, broker.calls),
    bytesInPerCall: perCall(counters?.bytesIn, broker.calls),
    bytesOutPerCall: perCall(counters?.bytesOut, broker.calls),
    brokerCpuMs: cpu,
    brokerCpuPer1000CallsMs: cpu === null ? null : (perCall(cpu, broker.calls) ?? 0) * 1000,
    brokerPeakRssBytes: broker.peakRssBytes,
    source: counters?.source ?? null,
  };
}

/** A cell's row: its broker's figures over its timed calls, its apps' CPU, and both together. */
export function brokerRow(cell: Cell, place: string): BrokerRow {
  const figures = brokerFigures(cell.broker ?? null);
  const apps = appsPer1000(cell);
  const brokerPer1000 = figures?.brokerCpuPer1000CallsMs ?? null;
  const through = cell.broker === undefined ? null : (cell.broker?.kind ?? 'unknown');
  return {
    place,
    variant: cell.variant,
    case: cell.case,
    transport: cell.transport,
    broker: through,
    requests: cell.requests,
    calls: figures?.calls ?? cell.samplesMs.length,
    messagesInPerCall: null,
    messagesOutPerCall: null,
    bytesInPerCall: null,
    bytesOutPerCall: null,
    brokerCpuMs: null,
    brokerCpuPer1000CallsMs: null,
    brokerPeakRssBytes: null,
    source: null,
    ...figures,
    appsCpuPer1000CallsMs: apps,
    // A brokered cell whose broker could not be read has no total; a direct one's is its apps'.
    totalCpuPer1000CallsMs: apps === null ? null : through === null ? apps : brokerPer1000 === null ? null : apps + brokerPer1000,
  };
}

/** The hops a stage's calibration measured (absent on loopback and without a broker namespace). */
export function brokerHopsOf(record: NetworkRecord | undefined): BrokerHops | null {
  const calibration = record?.calibration;
  const hops = calibration?.brokerHops;
  if (!calibration || !hops) return null;
  return { clientToServerMs: calibration.achieved.tcpConnectRttMs.median, clientToBrokerMs: hops.clientToBrokerMs.median, serverToBrokerMs: hops.serverToBrokerMs.median };
}

/**
 * One table per network where a cell went through a broker: every succeeded cell of that network (the
 * direct transports too, their apps' CPU to compare with), in the results' order; none for a run without brokers.
 */
export function brokerTables(results: readonly Cell[], networks: Record<string, NetworkRecord> | undefined): BrokerTable[] {
  const placeOf = placeLabeller(results);
  const brokered = new Set(results.filter((r) => r.broker !== undefined).map(networkOf));
  return [...brokered].map((network) => {
    const record = networks?.[network];
    return {
      network,
      hops: brokerHopsOf(record),
      placements: Object.fromEntries(Object.entries(record?.brokers ?? {}).map(([kind, b]) => [kind, b.placement])),
      warmUps: Object.fromEntries(Object.entries(record?.brokers ?? {}).flatMap(([kind, b]) => (b.warmUp ? [[kind, b.warmUp]] : []))),
      rows: results.filter((r) => r.ok && networkOf(r) === network).map((r) => brokerRow(r, placeOf(r))),
    };
  });
}
