import { MQTT_MAX_REMAINING_LENGTH, publishRemainingLength, refusingOversized } from '../../src/nest-mqtt/packet-limit';

describe('nest-mqtt: a publish no MQTT packet can carry', () => {
  it('counts a PUBLISH packet’s remaining length as MQTT 3.1.1 does: topic with its length, packet id at QoS > 0, payload', () => {
    expect(publishRemainingLength('a/b', 'héllo')).toBe(2 + 3 + 6);
    expect(publishRemainingLength('a/b', Buffer.alloc(10), 1)).toBe(2 + 3 + 2 + 10);
  });

  it('refuses at once, with mqtt-packet’s reason, a payload over the largest remaining length, and passes the others on', () => {
    const published: unknown[][] = [];
    const client = refusingOversized({ publish: (...args: unknown[]) => published.push(args) });
    client.publish('t', 'small', { qos: 0 });
    expect(published).toEqual([['t', 'small', { qos: 0 }]]);
    const oversized = Buffer.alloc(MQTT_MAX_REMAINING_LENGTH - 2);
    expect(() => client.publish('t', oversized)).toThrow(/^Invalid variable byte integer: 268435456 /);
    expect(published).toHaveLength(1);
  });
});
