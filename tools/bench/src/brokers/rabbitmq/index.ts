// RabbitMQ: its own epmd on a port of its own (never the host's 4369), its node's folders in the
// instance's folder, AMQP's Connection.Start as readiness, and its counters from its Prometheus
// endpoint (rabbitmq_prometheus): messages received and delivered (real time), bytes on its live connections.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BROKER_MESSAGE_LIMIT_BYTES } from '@bench/config';
import { countersOf, type BrokerCounters, type BrokerDefinition, type Launch, type LaunchContext } from '../contract';
import { debianInstallation } from '../debian';
import { RABBITMQ } from './record';

const SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';
/** How often connections publish their byte counts (the default is 5000 ms): the bytes lag by at most this. */
export const STATISTICS_INTERVAL_MS = 1000;

export function rabbitmqConfig(host: string, port: number, managementPort: number, prometheusPort: number, tunings: readonly string[] = []): string {
  return [
    // rmq-max-message-size: 512 MiB, the most RabbitMQ accepts (default 128 MiB).
    ...(tunings.includes('rmq-max-message-size') ? [`max_message_size = ${BROKER_MESSAGE_LIMIT_BYTES}`] : []),
    `listeners.tcp.1 = ${host}:${port}`,
    // The default guest user may then connect from the client's and servers' namespaces, not only loopback.
    'loopback_users = none',
    `management.tcp.ip = ${host}`,
    `management.tcp.port = ${managementPort}`,
    `prometheus.tcp.ip = ${host}`,
    `prometheus.tcp.port = ${prometheusPort}`,
    `collect_statistics_interval = ${STATISTICS_INTERVAL_MS}`,
    '',
  ].join('\n');
}

/** Sums every series of a metric in Prometheus' text format. */
export function sumMetric(text: string, name: string): number | null {
  let sum: number | null = null;
  const series = new RegExp(`^${name}(?:\\{[^}]*\\})?\\s+(\\S+)$`);
  for (const line of text.split('\n')) {
    const value = series.exec(line.trim())?.[1];
    if (value !== undefined) sum = (sum ?? 0) + Number(value);
  }
  return sum;
}

export function parseMetrics(text: string): BrokerCounters & { version: string } {
  return {
    version: /rabbitmq_version="([^"]+)"/.exec(text)?.[1] ?? 'unknown',
    messagesIn: sumMetric(text, 'rabbitmq_global_messages_received_total'),
    messagesOut: sumMetric(text, 'rabbitmq_global_messages_delivered_total'),
    bytesIn: sumMetric(text, 'rabbitmq_connection_incoming_bytes_total'),
    bytesOut: sumMetric(text, 'rabbitmq_connection_outgoing_bytes_total'),
    source: `rabbitmq_prometheus /metrics: rabbitmq_global_messages_received_total and _delivered_total (every protocol, real time); rabbitmq_connection_incoming/outgoing_bytes_total (live connections only, published every ${STATISTICS_INTERVAL_MS} ms: a closed connection's bytes leave the sum)`,
  };
}

export const rabbitmqBroker: BrokerDefinition = {
  record: RABBITMQ,
  installation: () => debianInstallation(RABBITMQ.source, SERVER),
  async launch(context: LaunchContext): Promise<Launch> {
    const [port, managementPort, prometheusPort, epmdPort, distPort] = [await context.port(), await context.port(), await context.port(), await context.port(), await context.port()];
    const at = (name: string) => path.join(context.dir, name);
    fs.writeFileSync(at('rabbitmq.conf'), rabbitmqConfig(context.host, port, managementPort, prometheusPort, context.tunings));
    fs.writeFileSync(at('enabled_plugins'), '[rabbitmq_management,rabbitmq_prometheus].\n');
    const env: NodeJS.ProcessEnv = {
      // The Erlang cookie is made in $HOME: the instance's folder, removed at stop.
      HOME: context.dir,
      ERL_EPMD_PORT: String(epmdPort),
      RABBITMQ_NODENAME: `bench-${path.basename(context.dir).replace(/[^A-Za-z0-9]/g, '')}@localhost`,
      RABBITMQ_DIST_PORT: String(distPort),
      RABBITMQ_CONFIG_FILE: at('rabbitmq.conf'),
      RABBITMQ_ENABLED_PLUGINS_FILE: at('enabled_plugins'),
      RABBITMQ_MNESIA_BASE: at('mnesia'),
      RABBITMQ_LOG_BASE: at('log'),
      RABBITMQ_PLUGINS_EXPAND_DIR: at('plugins-expand'),
      // Not /etc/rabbitmq/rabbitmq-env.conf: the packaged service's settings are not the bench's.
      RABBITMQ_CONF_ENV_FILE: at('rabbitmq-env.conf'),
      RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
    };
    const metrics = async () => parseMetrics(await context.run(['curl', '-sf', '--max-time', '5', `http://${context.host}:${prometheusPort}/metrics`]));
    return {
      companions: [{ argv: ['epmd', '-address', '127.0.0.1', '-port', String(epmdPort)], env }],
      argv: [SERVER],
      env,
      sampled: { descendant: 'beam.smp' },
      port,
      url: `amqp://${context.host}:${port}`,
      // AMQP 0-9-1's protocol header, answered by a Connection.Start method frame (type 1, channel 0, class 10, method 10).
      probe: { send: Buffer.from('AMQP\x00\x00\x09\x01', 'latin1'), reply: /^\x01\x00\x00[\s\S]{4}\x00\x0a\x00\x0a/ },
      readyWithinMs: 60_000,
      config: { plugins: 'rabbitmq_management, rabbitmq_prometheus', managementPort, prometheusPort, loopbackUsers: 'none (guest may connect from the namespaces)', collectStatisticsIntervalMs: STATISTICS_INTERVAL_MS, frameMax: '131072 (default)', maxMessageSize: context.tunings.includes('rmq-max-message-size') ? `${BROKER_MESSAGE_LIMIT_BYTES} (rmq-max-message-size)` : '128 MB (default)' },
      version: async () => (await metrics()).version,
      counters: async () => countersOf(await metrics()),
    };
  },
};
