/** The most an MQTT packet's remaining length can say (MQTT 3.1.1, 2.2.3; mqtt-packet's VARBYTEINT_MAX): 268,435,455 bytes. */
export const MQTT_MAX_REMAINING_LENGTH = 268_435_455;

/** What MQTT.js's client is to this file: its publish, topic and payload first. */
interface Publisher {
  publish(topic: string, message: string | Buffer, ...rest: unknown[]): unknown;
}

/** A PUBLISH packet's remaining length: the topic (with its 2-byte length), the packet id at QoS > 0, and the payload (MQTT 3.1.1, 3.3). */
export function publishRemainingLength(topic: string, message: string | Buffer, qos = 0): number {
  const payload = typeof message === 'string' ? Buffer.byteLength(message) : message.length;
  return 2 + Buffer.byteLength(topic) + (qos > 0 ? 2 : 0) + payload;
}

/**
 * Refuses at once a publish no MQTT packet can carry, with mqtt-packet's own reason. Unguarded, MQTT.js's
 * writer destroys the connection midway (`Invalid variable byte integer`), Mosquitto sees a reset, the reply
 * is lost and its caller waits out its deadline (①-3's 276.8 MB reply: 60 s). Thrown from publish, the
 * refusal reaches server-b's refusal replies (common/broker-refusals.ts), so the caller gets RESOURCE_EXHAUSTED
 * with the reason, and the connection serves on.
 */
export function refusingOversized<C>(client: C): C {
  const publisher = client as unknown as Publisher;
  const publish = publisher.publish.bind(publisher);
  publisher.publish = (topic, message, ...rest) => {
    const options = rest[0] as { qos?: number } | undefined;
    const length = publishRemainingLength(topic, message, typeof options === 'object' ? options?.qos : 0);
    if (length > MQTT_MAX_REMAINING_LENGTH) {
      throw new Error(`Invalid variable byte integer: ${length} (a PUBLISH of ${length} bytes; an MQTT packet's remaining length is at most ${MQTT_MAX_REMAINING_LENGTH}, MQTT 3.1.1 2.2.3)`);
    }
    return publish(topic, message, ...rest);
  };
  return client;
}
