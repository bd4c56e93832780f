// The brokers by kind, which transport needs which, and the one message a missing broker gets.
import { BROKER_KINDS, type BrokerDefinition, type BrokerKind } from './contract';
import { kafkaBroker } from './kafka';
import { mosquittoBroker } from './mosquitto';
import { natsBroker } from './nats';
import { rabbitmqBroker } from './rabbitmq';
import { redisBroker } from './redis';

const DEFINITIONS: Record<BrokerKind, BrokerDefinition> = { redis: redisBroker, nats: natsBroker, rabbitmq: rabbitmqBroker, mosquitto: mosquittoBroker, kafka: kafkaBroker };

/** The one command that installs every broker (also run by .ci/run). */
export const BROKERS_INSTALL_COMMAND = 'npx nx run bench:brokers -- install';

export function brokerDefinition(kind: BrokerKind): BrokerDefinition {
  return DEFINITIONS[kind];
}

export const BROKER_DEFINITIONS: readonly BrokerDefinition[] = BROKER_KINDS.map(brokerDefinition);

export function isBrokerKind(name: string): name is BrokerKind {
  return (BROKER_KINDS as readonly string[]).includes(name);
}

/** The broker a transport goes through (`nest-nats` → nats), or null for a transport without one. */
export function brokerOfTransport(transport: string): BrokerKind | null {
  return BROKER_DEFINITIONS.find((d) => d.record.transports.includes(transport))?.record.kind ?? null;
}

/** Why the broker cannot start here — not installed, or not at its pin — naming the install command; null when it can. */
export function brokerMissing(kind: BrokerKind): string | null {
  const { record, installation } = brokerDefinition(kind);
  if (installation()) return null;
  const what = record.source.kind === 'debian' ? `Debian's ${record.source.packages.map((p) => `${p.name} ${p.version}`).join(', ')}` : `Kafka ${record.version}'s jars and java ≥ 17`;
  return `${record.name} ${record.version} (for ${record.transports.join(', ')}) is not installed (${what}): run \`${BROKERS_INSTALL_COMMAND}\``;
}
