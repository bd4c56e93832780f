import { parseJmx, serverProperties } from '../../src/brokers/kafka';

describe("Kafka's broker", () => {
  it("reads JmxTool's one-time CSV", () => {
    const out = 'Trying to connect to JMX url: service:jmx:rmi:///jndi/rmi://127.0.0.1:1/jmxrmi.\n"time","kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec:Count"\n1764360000000,42\n';
    expect(parseJmx(out).get('kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec:Count')).toBe('42');
  });

  it('is one KRaft node on the run address, its log in the run folder', () => {
    const properties = serverProperties('198.18.3.2', 9092, 9093, '/tmp/run/data');
    expect(properties).toContain('controller.quorum.voters=1@198.18.3.2:9093');
    expect(properties).toContain('advertised.listeners=PLAINTEXT://198.18.3.2:9092');
    expect(properties).toContain('log.dirs=/tmp/run/data');
    expect(properties).toContain('offsets.topic.replication.factor=1');
  });

  it("keeps the defaults untouched, and with kafka-max-message raises the record, replica fetch and request limits together", () => {
    expect(serverProperties('127.0.0.1', 9092, 9093, '/d')).not.toMatch(/message\.max\.bytes|socket\.request\.max\.bytes/);
    const tuned = serverProperties('127.0.0.1', 9092, 9093, '/d', ['kafka-max-message']);
    for (const key of ['message.max.bytes', 'replica.fetch.max.bytes', 'socket.request.max.bytes']) expect(tuned).toContain(`${key}=${512 * 1024 * 1024}`);
  });
});
