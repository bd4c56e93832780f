// Apache Kafka in KRaft mode (broker and controller in one JVM), from the jars in the bench's cache:
// its storage formatted in the instance's folder, ApiVersions as readiness, and its counters from its
// own JMX metrics (BrokerTopicMetrics), read with the JmxTool class of the kafka-tools jar.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BROKER_MESSAGE_LIMIT_BYTES } from '@bench/config';
import type { BrokerCounters, BrokerDefinition, Launch, LaunchContext } from '../contract';
import { cachedJars, classpathOf, javaMissing } from '../maven';
import { KAFKA } from './record';

/** kafka-server-start.sh's / kafka-run-class.sh's JVM flags but the heap (G1). */
const KAFKA_GC = ['-server', '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:InitiatingHeapOccupancyPercent=35', '-XX:+ExplicitGCInvokesConcurrent', '-Djava.awt.headless=true'];

/** The JVM flags of Kafka's own kafka-server-start.sh / kafka-run-class.sh (heap 1 GB, G1). */
export const KAFKA_JVM = ['-Xmx1G', '-Xms1G', ...KAFKA_GC];

/** kafka-max-message's JVM: a 2 GB heap, so a request of up to 512 MiB (read whole into the heap) and its copies fit. */
export const KAFKA_TUNED_JVM = ['-Xmx2G', '-Xms2G', ...KAFKA_GC];

/** kafka-max-message's broker settings: a record, a replica fetch and a request of up to BROKER_MESSAGE_LIMIT_BYTES. */
export function tunedMessageProperties(tunings: readonly string[]): string[] {
  if (!tunings.includes('kafka-max-message')) return [];
  return [`message.max.bytes=${BROKER_MESSAGE_LIMIT_BYTES}`, `replica.fetch.max.bytes=${BROKER_MESSAGE_LIMIT_BYTES}`, `socket.request.max.bytes=${BROKER_MESSAGE_LIMIT_BYTES}`];
}

/** A single-node KRaft server.properties: the shipped file's settings, its listeners and log folder the run's. */
export function serverProperties(host: string, port: number, controllerPort: number, logDir: string, tunings: readonly string[] = []): string {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@${host}:${controllerPort}`,
    `listeners=PLAINTEXT://${host}:${port},CONTROLLER://${host}:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://${host}:${port}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    `log.dirs=${logDir}`,
    'num.partitions=1',
    // One broker: the internal topics cannot have three replicas.
    'offsets.topic.replication.factor=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    ...tunedMessageProperties(tunings),
    '',
  ].join('\n');
}

/** log4j2 for the broker and the tools: warnings and errors to the instance's folder. */
export function log4jProperties(file: string): string {
  return ['rootLogger.level = warn', 'rootLogger.appenderRef.file.ref = file', 'appender.file.type = File', 'appender.file.name = file', `appender.file.fileName = ${file}`, 'appender.file.layout.type = PatternLayout', 'appender.file.layout.pattern = %d %p %c: %m%n', ''].join('\n');
}

const METRICS = {
  messagesIn: 'kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec',
  bytesIn: 'kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec',
  bytesOut: 'kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec',
} as const;

/** JmxTool's one-time CSV: a header line of `"<object name>:<attribute>"` columns and a line of values. */
export function parseJmx(text: string): Map<string, string> {
  const lines = text.split('\n').filter((line) => line.trim() && !line.startsWith('Trying to connect'));
  const split = (line: string) => [...line.matchAll(/"([^"]*)"|([^,]+)/g)].map((m) => m[1] ?? m[2]);
  const header = split(lines[0] ?? '');
  const values = split(lines[1] ?? '');
  return new Map(header.map((name, i) => [name, values[i]]));
}

export const kafkaBroker: BrokerDefinition = {
  record: KAFKA,
  installation: () => {
    const jars = cachedJars(KAFKA.version);
    return jars && javaMissing() === null ? { where: jars } : null;
  },
  async launch(context: LaunchContext): Promise<Launch> {
    const jars = cachedJars(KAFKA.version);
    if (!jars) throw new Error(`Kafka ${KAFKA.version}'s jars are not in the bench's cache`);
    const tuned = context.tunings.includes('kafka-max-message');
    const [port, controllerPort, jmxPort] = [await context.port(), await context.port(), await context.port()];
    const at = (name: string) => path.join(context.dir, name);
    fs.writeFileSync(at('server.properties'), serverProperties(context.host, port, controllerPort, at('data'), context.tunings));
    fs.writeFileSync(at('log4j2.properties'), log4jProperties(at('kafka.log')));
    const java = (main: string, ...args: string[]) => ['java', `-Dlog4j2.configurationFile=${at('log4j2.properties')}`, '-cp', classpathOf(jars), main, ...args];
    const clusterId = (await context.run(java('kafka.tools.StorageTool', 'random-uuid'), 60_000)).trim();
    await context.run(java('kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', at('server.properties')), 60_000);
    const jmx = [
      `-Dcom.sun.management.jmxremote.port=${jmxPort}`,
      `-Dcom.sun.management.jmxremote.rmi.port=${jmxPort}`,
      `-Dcom.sun.management.jmxremote.host=${context.host}`,
      `-Djava.rmi.server.hostname=${context.host}`,
      // Unauthenticated, as Kafka's JMX_PORT gives it: bound to the run's address only.
      '-Dcom.sun.management.jmxremote.authenticate=false',
      '-Dcom.sun.management.jmxremote.ssl=false',
    ];
    const read = async (names: readonly string[]) => {
      const argv = java('org.apache.kafka.tools.JmxTool', '--jmx-url', `service:jmx:rmi:///jndi/rmi://${context.host}:${jmxPort}/jmxrmi`, '--one-time', 'true', ...names.flatMap((n) => ['--object-name', n]));
      return parseJmx(await context.run(argv, 60_000));
    };
    return {
      argv: ['java', ...(tuned ? KAFKA_TUNED_JVM : KAFKA_JVM), ...jmx, `-Dlog4j2.configurationFile=${at('log4j2.properties')}`, '-cp', classpathOf(jars), 'kafka.Kafka', at('server.properties')],
      port,
      url: `${context.host}:${port}`, // kafkajs's broker list, as KAFKA_BROKERS takes it
      // ApiVersions v0 (api key 18), correlation id 7, null client id; answered with id 7 and error 0.
      probe: { send: Buffer.from('0000000a0012000000000007ffff', 'hex'), reply: /^[\s\S]{4}\x00\x00\x00\x07\x00\x00/ },
      readyWithinMs: 60_000,
      config: { mode: 'KRaft, broker and controller in one process', heap: tuned ? '2 GB (kafka-max-message)' : '1 GB (kafka-server-start.sh\'s)', messageMaxBytes: tuned ? `${BROKER_MESSAGE_LIMIT_BYTES} (kafka-max-message; replica.fetch.max.bytes, socket.request.max.bytes too)` : '1048588 (default)', numPartitions: 1, replicationFactor: 1, jmxPort },
      version: async () => {
        const values = await read(['kafka.server:type=app-info']);
        return [...values.entries()].find(([name]) => /:version$/i.test(name))?.[1] ?? 'unknown';
      },
      counters: async (): Promise<BrokerCounters> => {
        const values = await read(Object.values(METRICS));
        const count = (name: string) => {
          const value = values.get(`${name}:Count`);
          return value === undefined ? null : Number(value);
        };
        return {
          messagesIn: count(METRICS.messagesIn),
          messagesOut: null,
          bytesIn: count(METRICS.bytesIn),
          bytesOut: count(METRICS.bytesOut),
          source: 'Kafka JMX (JmxTool): BrokerTopicMetrics MessagesInPerSec, BytesInPerSec, BytesOutPerSec Count (every topic: records produced, their bytes in, fetched bytes out); Kafka counts no messages out',
        };
      },
    };
  },
};
