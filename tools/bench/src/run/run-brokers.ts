// The run's brokers: the ones its transports go through (each transport's registration names its broker,
// libs/transports' brokersOf), started once per network before the first set of apps and stopped after
// the last. On loopback they listen on 127.0.0.1 beside the apps; on a network stage in a namespace of
// their own behind the router, so a call crosses client → broker → server with the profile's delay on
// each hop. A broker given by its URL variable (REDIS_URL, …) is the user's own: used as given, not started.
import * as fs from 'node:fs';
import { BROKER_URL_ENV, brokerTuningsFor, parseNestVariant, type BrokerKind } from '@bench/config';
import { brokersOf, type TransportName } from '@bench/transports';
import { brokerMissing, startBrokers, warmKafka, type Broker } from '../brokers';
import type { BrokerRunRecord, Failure, KafkaWarmUp, RawResult, Transport } from '../model';
import { describeFailure, type BrokerMeter } from '../measure';
import { describeWarmUp } from '../export';
import type { Stage } from '../network/stage';
import { ownedTempDir } from './dead-runs';

/** The brokers a run's transports need that the bench starts: those whose URL the environment does not give. */
export function brokersToStart(transports: readonly string[], env: NodeJS.ProcessEnv = process.env): BrokerKind[] {
  return brokersOf(transports as TransportName[]).filter((kind) => !env[BROKER_URL_ENV[kind]]?.trim());
}

/** Why the run cannot start its brokers here (one not installed: the install command named), or null. */
export function brokersCannotRun(transports: readonly string[]): string | null {
  const why = brokersToStart(transports).map(brokerMissing).filter((w): w is string => w !== null);
  return why.length > 0 ? why.join('; ') : null;
}

/** The brokers started for one network: each variant's apps' environment naming them, their record, and their stop. */
export interface RunBrokers {
  envFor(variant: string): Record<string, string>;
  /** The brokers a variant's apps reach that ended during the run (killed, crashed), each with how: `redis killed by SIGKILL`. */
  endedFor(variant: string): Map<BrokerKind, string>;
  /** The URLs of the instances at their defaults: what a suite's servers reach (a suite tunes no broker). */
  env: Record<string, string>;
  /** The running instances (their counters() and sample()). */
  brokers: readonly Broker[];
  records: Record<string, BrokerRunRecord>;
  /** The broker a transport goes through for a variant's apps (the instance that variant reached), as the runner reads it around the cell's timed calls (none for a direct transport). */
  meterOf(transport: Transport, variant: string): BrokerMeter | undefined;
  stop(): Promise<void>;
}

/** The broker tunings (libs/config brokerTuningsFor) a variant's apps need of `kind`; none for a variant that is not Nest's (bare, go). */
export function variantBrokerTunings(variant: string, kind: BrokerKind): string[] {
  const nest = parseNestVariant(variant);
  return nest ? brokerTuningsFor(nest, kind) : [];
}

/** One instance to start: a broker and the tunings of its config, and the variants that reach it. */
interface Wanted {
  kind: BrokerKind;
  tunings: string[];
  variants: string[];
}

/** `BENCH_KAFKA_WARM_UP=off` leaves Kafka cold, as runs before the warm-up were (to measure what it changes). */
export const KAFKA_WARM_UP_ENV = 'BENCH_KAFKA_WARM_UP';

/**
 * Warms a Kafka instance before the run's first timed visit (brokers/kafka/warm-up.ts: untimed round trips
 * until they settle), so that a Kafka cell's figure no longer depends on how long the broker's JVM has been
 * up; in its namespace across a stage. A warm-up that fails is recorded with its reason and the run goes on.
 */
async function warmedUp(broker: Broker, namespace: string | null): Promise<KafkaWarmUp | { error: string } | { skipped: string }> {
  if (process.env[KAFKA_WARM_UP_ENV] === 'off') return { skipped: `${KAFKA_WARM_UP_ENV}=off` };
  const wrap = namespace ? (argv: readonly string[]) => ['ip', 'netns', 'exec', namespace, ...argv] : undefined;
  try {
    const warm = await warmKafka(broker.url, broker.pid, wrap);
    console.log(describeWarmUp(`kafka at ${broker.url} warmed`, warm));
    return warm;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`kafka at ${broker.url} not warmed: ${reason}`);
    return { error: reason };
  }
}

/** The instances `variants` need: per broker one at its defaults and one per distinct set of tunings a variant applies to it. */
export function brokerInstances(kinds: readonly BrokerKind[], variants: readonly string[]): Wanted[] {
  const wanted = new Map<string, Wanted>();
  for (const kind of kinds) {
    for (const variant of variants.length > 0 ? variants : ['blog']) {
      const tunings = variantBrokerTunings(variant, kind);
      const key = [kind, ...tunings].join('+');
      const entry = wanted.get(key) ?? { kind, tunings, variants: [] };
      entry.variants.push(variant);
      wanted.set(key, entry);
    }
  }
  return [...wanted.values()];
}

/** A broker's name in provenance: its kind, with the tunings of its config when it has any (`nats+nats-max-payload`). */
function instanceKey(kind: BrokerKind, tunings: readonly string[]): string {
  return [kind, ...tunings].join('+');
}

/**
 * Starts `kinds` for one network: on `stage`'s broker namespace when there is a stage, else on loopback;
 * each broker's folder in a temp folder of the run's own, removed at stop. A broker whose config a
 * variant tunes (nats-max-payload, …) starts once more with that config, and that variant's apps reach it.
 */
export async function startRunBrokers(kinds: readonly BrokerKind[], stage: Stage | undefined, variants: readonly string[] = []): Promise<RunBrokers> {
  const dir = ownedTempDir('nbx-run-brokers-');
  const place = stage?.broker ?? null;
  const instances = brokerInstances(kinds, variants);
  const started: { wanted: Wanted; broker: Broker; warmUp?: Awaited<ReturnType<typeof warmedUp>> }[] = [];
  const stopAll = async () => {
    for (const { broker } of started.reverse()) await broker.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const wanted of instances) {
      const [broker] = await startBrokers([wanted.kind], { dir, ...(place ? { host: place.host, namespace: place.namespace } : {}), tunings: { [wanted.kind]: wanted.tunings } });
      started.push({ wanted, broker, ...(broker.kind === 'kafka' ? { warmUp: await warmedUp(broker, place?.namespace ?? null) } : {}) });
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  const placement = place ? `own namespace ${place.namespace} (${place.host})` : 'loopback, beside the apps';
  // The instances a variant's apps reach: per broker, the one with the variant's tunings of its config.
  const reached = (variant: string) => started.filter(({ wanted }) => instanceKey(wanted.kind, variantBrokerTunings(variant, wanted.kind)) === instanceKey(wanted.kind, wanted.tunings)).map(({ broker }) => broker);
  const tuned = (wanted: Wanted) => (wanted.tunings.length > 0 ? { tunings: wanted.tunings, variants: wanted.variants } : {});
  return {
    envFor: (variant) => Object.fromEntries(reached(variant).map((broker) => [BROKER_URL_ENV[broker.kind], broker.url])),
    endedFor: (variant) => new Map(reached(variant).flatMap((broker) => (broker.exited() ? [[broker.kind, `${broker.kind} ${broker.exited()}`] as const] : []))),
    records: Object.fromEntries(started.map(({ wanted, broker: b, warmUp }) => [instanceKey(wanted.kind, wanted.tunings), { version: b.version, address: `${b.address.host}:${b.address.port}`, placement, config: b.config, ...tuned(wanted), ...(warmUp ? { warmUp } : {}) }])),
    env: Object.fromEntries(started.filter(({ wanted }) => wanted.tunings.length === 0).map(({ broker }) => [BROKER_URL_ENV[broker.kind], broker.url])),
    brokers: started.map(({ broker }) => broker),
    meterOf: (transport, variant) => {
      const [kind] = brokersOf([transport as TransportName]);
      return reached(variant).find((broker) => broker.kind === kind);
    },
    stop: stopAll,
  };
}

/**
 * A visit's failed results through a broker that ended during the run, blamed on it: each keeps its own
 * message (the call's deadline, its connection's state) and says which broker ended and how; the other
 * transports' results are left as they are.
 */
export function blameEndedBrokers(results: RawResult[], ended: ReadonlyMap<BrokerKind, string>): RawResult[] {
  if (ended.size === 0) return results;
  return results.map((result) => {
    const gone = brokersOf([result.transport as TransportName]).flatMap((kind) => ended.get(kind) ?? []);
    if (result.failure === null || gone.length === 0) return result;
    const failure: Failure = { ...result.failure, message: `the broker ended during the run (${gone.join(', ')}): ${result.failure.message}` };
    return { ...result, failure, error: describeFailure(failure) };
  });
}
