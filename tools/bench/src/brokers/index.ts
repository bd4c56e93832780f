// brokers/: the real brokers the Nest transports go through (issue #42): NATS, Redis, RabbitMQ and
// Mosquitto from Debian's packages, Kafka (KRaft) from Maven Central's jars; installed by
// `bench:brokers -- install`, started per run in its temp folder, read (version, counters, CPU and
// memory) and stopped with their data removed, after Ctrl-C and a SIGKILL too. Imports cli/.
export {
  BROKER_KINDS,
  countersBetween,
  type Broker,
  type BrokerCounters,
  type BrokerDefinition,
  type BrokerKind,
  type BrokerRecord,
  type BrokerSample,
  type InstallSource,
} from './contract';
export { BROKER_DEFINITIONS, BROKERS_INSTALL_COMMAND, brokerDefinition, brokerMissing, brokerOfTransport, isBrokerKind } from './registry';
export { startBrokers, type StartOptions } from './start';
export { sweepLeftovers, type SweepReport } from './leftovers';
export { installBrokers, brokerStatus, type BrokerStatus } from './install';
export { brokerCacheDir } from './maven';
export { warmKafka } from './kafka/warm-up';
