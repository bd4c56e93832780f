import { DEFAULT_SETTINGS } from '@bench/config';
import { nestMqttServer } from '../../src/nest-mqtt/server';

// Replicas behind one MQTT broker share its requests through a shared subscription (MICROSERVICE_GROUP): `$share/<group>/<topic>`; requests still arrive on the topic itself.
describe("nest-mqtt's server binding", () => {
  const withGroup = (group: string) => ({ ...DEFAULT_SETTINGS, microservices: { ...DEFAULT_SETTINGS.microservices, group, brokers: { ...DEFAULT_SETTINGS.microservices.brokers, mosquitto: 'mqtt://127.0.0.1:1883' } } });
  const serverOf = (group: string) => (nestMqttServer(withGroup(group)) as unknown as { strategy: { getRequestPattern(pattern: string): string; getHandlerByPattern(pattern: string): unknown; addHandler(pattern: string, handler: unknown): void } }).strategy;

  it('subscribes to a request pattern as a shared subscription of the group, and plainly without one', () => {
    expect(serverOf('replicas').getRequestPattern('ns.sample.GetSamples')).toBe('$share/replicas/ns.sample.GetSamples');
    expect(serverOf('').getRequestPattern('ns.sample.GetSamples')).toBe('ns.sample.GetSamples');
  });
});
