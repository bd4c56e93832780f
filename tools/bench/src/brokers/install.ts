// `bench:brokers -- install` and `-- status`: each broker at its pin, from its source, its packaged
// service kept down; and where each is, or why it is not.
import { keepServiceDown, installPackages } from './debian';
import { fetchKafkaJars } from './maven';
import { BROKER_DEFINITIONS } from './registry';
import type { BrokerDefinition } from './contract';

/** Each Debian broker's packaged service (it never runs: the bench starts its own instance). */
const SERVICES: Record<string, string> = { nats: 'nats-server', redis: 'redis-server', rabbitmq: 'rabbitmq-server', mosquitto: 'mosquitto' };

const pinFile = (d: BrokerDefinition) => `tools/bench/src/brokers/${d.record.kind}/record.ts`;

/** Installs every broker (or those named); throws with every failure's reason after trying them all. */
export function installBrokers(log: (line: string) => void, definitions: readonly BrokerDefinition[] = BROKER_DEFINITIONS): void {
  const failures: string[] = [];
  for (const d of definitions) {
    try {
      if (d.record.source.kind === 'debian') {
        installPackages(d.record.source.packages, pinFile(d), log);
        log(`${d.record.kind}: ${d.record.name} ${d.record.version}: ${d.installation()?.where ?? 'not found after install'}; packaged service: ${keepServiceDown(SERVICES[d.record.kind])}`);
      } else {
        log(`${d.record.kind}: ${d.record.name} ${d.record.version}: ${fetchKafkaJars(d.record.version, log)}`);
      }
    } catch (error) {
      failures.push(`${d.record.kind}: ${(error as Error).message}`);
    }
  }
  if (failures.length) throw new Error(`could not install every broker:\n  ${failures.join('\n  ')}`);
}

export interface BrokerStatus {
  kind: string;
  name: string;
  version: string;
  source: string;
  transports: readonly string[];
  /** Where it is installed, or null. */
  where: string | null;
}

export function brokerStatus(definitions: readonly BrokerDefinition[] = BROKER_DEFINITIONS): BrokerStatus[] {
  return definitions.map((d) => ({
    kind: d.record.kind,
    name: d.record.name,
    version: d.record.version,
    source: d.record.source.kind === 'debian' ? `Debian ${d.record.source.packages.map((p) => `${p.name}=${p.version}`).join(' ')}` : `Maven Central ${d.record.source.artifacts.join(' ')}`,
    transports: d.record.transports,
    where: d.installation()?.where ?? null,
  }));
}
