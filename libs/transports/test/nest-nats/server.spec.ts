import { DEFAULT_SETTINGS } from '@bench/config';
import { nestNatsServer } from '../../src/nest-nats/server';

// Replicas behind one NATS server share its requests through a queue group (MICROSERVICE_GROUP); without one, Nest's default, every replica receives every request.
describe("nest-nats's server binding", () => {
  const withGroup = (group: string) => ({ ...DEFAULT_SETTINGS, microservices: { ...DEFAULT_SETTINGS.microservices, group, brokers: { ...DEFAULT_SETTINGS.microservices.brokers, nats: 'nats://127.0.0.1:4222' } } });
  const optionsOf = (group: string) => (nestNatsServer(withGroup(group)) as unknown as { strategy: { options: Record<string, unknown> } }).strategy.options;

  it('joins the queue group the settings name, and none without one', () => {
    expect(optionsOf('replicas')).toMatchObject({ servers: ['nats://127.0.0.1:4222'], queue: 'replicas' });
    expect(optionsOf('')).not.toHaveProperty('queue');
  });
});
