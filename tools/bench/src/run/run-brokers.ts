// The run's brokers: the ones its transports go through (each transport's registration names its broker,
// libs/transports' brokersOf), started once per network before the first set of apps and stopped after
// the last. On loopback they listen on 127.0.0.1 beside the apps; on a network stage in a namespace of
// their own behind the router, so a call crosses client → broker → server with the profile's delay on
// each hop. A broker given by its URL variable (REDIS_URL, …) is the user's own: used as given, not started.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BROKER_URL_ENV, type BrokerKind } from '@bench/config';
import { brokersOf, type TransportName } from '@bench/transports';
import { brokerMissing, startBrokers, type Broker } from '../brokers';
import type { BrokerRunRecord, Transport } from '../model';
import type { BrokerMeter } from '../measure';
import type { Stage } from '../network/stage';

/** The brokers a run's transports need that the bench starts: those whose URL the environment does not give. */
export function brokersToStart(transports: readonly string[], env: NodeJS.ProcessEnv = process.env): BrokerKind[] {
  return brokersOf(transports as TransportName[]).filter((kind) => !env[BROKER_URL_ENV[kind]]?.trim());
}

/** Why the run cannot start its brokers here (one not installed: the install command named), or null. */
export function brokersCannotRun(transports: readonly string[]): string | null {
  const why = brokersToStart(transports).map(brokerMissing).filter((w): w is string => w !== null);
  return why.length > 0 ? why.join('; ') : null;
}

/** The brokers started for one network: the apps' environment naming them, their record, and their stop. */
export interface RunBrokers {
  env: Record<string, string>;
  /** The running brokers (their counters() and sample()). */
  brokers: readonly Broker[];
  records: Record<string, BrokerRunRecord>;
  /** The broker a transport goes through, as the runner reads it around the cell's timed calls (none for a direct transport). */
  meterOf(transport: Transport): BrokerMeter | undefined;
  stop(): Promise<void>;
}

/**
 * Starts `kinds` for one network: on `stage`'s broker namespace when there is a stage, else on loopback;
 * each broker's folder in a temp folder of the run's own, removed at stop.
 */
export async function startRunBrokers(kinds: readonly BrokerKind[], stage: Stage | undefined): Promise<RunBrokers> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbx-run-brokers-'));
  const place = stage?.broker ?? null;
  let brokers: Broker[] = [];
  try {
    brokers = await startBrokers(kinds, { dir, ...(place ? { host: place.host, namespace: place.namespace } : {}) });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const placement = place ? `own namespace ${place.namespace} (${place.host})` : 'loopback, beside the apps';
  return {
    env: Object.fromEntries(brokers.map((b) => [BROKER_URL_ENV[b.kind], b.url])),
    brokers,
    records: Object.fromEntries(brokers.map((b) => [b.kind, { version: b.version, address: `${b.address.host}:${b.address.port}`, placement, config: b.config }])),
    meterOf: (transport) => {
      const [kind] = brokersOf([transport]);
      return brokers.find((b) => b.kind === kind);
    },
    stop: async () => {
      for (const broker of [...brokers].reverse()) await broker.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
