import { parseMetrics, rabbitmqConfig, sumMetric } from '../../src/brokers/rabbitmq';

const METRICS = `# TYPE rabbitmq_global_messages_received_total counter
rabbitmq_global_messages_received_total{protocol="amqp091"} 4
rabbitmq_global_messages_delivered_total{protocol="amqp091",queue_type="rabbit_classic_queue"} 3
rabbitmq_global_messages_delivered_total{protocol="amqp091",queue_type="rabbit_quorum_queue"} 1
rabbitmq_global_messages_delivered_total_extra 99
rabbitmq_connection_incoming_bytes_total 700
rabbitmq_connection_outgoing_bytes_total 900
rabbitmq_build_info{rabbitmq_version="3.10.8",erlang_version="25.2.3"} 1
`;

describe("RabbitMQ's counters", () => {
  it('sums every series of a metric, and only that metric', () => {
    expect(sumMetric(METRICS, 'rabbitmq_global_messages_delivered_total')).toBe(4);
    expect(sumMetric(METRICS, 'absent')).toBeNull();
  });

  it('reads messages in and out, bytes and the version from the Prometheus endpoint', () => {
    expect(parseMetrics(METRICS)).toMatchObject({ version: '3.10.8', messagesIn: 4, messagesOut: 4, bytesIn: 700, bytesOut: 900 });
  });
});

describe("RabbitMQ's config", () => {
  it('keeps max_message_size at its default, and raises it to 512 MiB with rmq-max-message-size', () => {
    expect(rabbitmqConfig('127.0.0.1', 5672, 15672, 15692)).not.toContain('max_message_size');
    expect(rabbitmqConfig('127.0.0.1', 5672, 15672, 15692, ['rmq-max-message-size'])).toContain(`max_message_size = ${512 * 1024 * 1024}\n`);
  });
});
