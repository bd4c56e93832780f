import { natsConfig } from '../../src/brokers/nats';

describe("NATS's config", () => {
  it('keeps max_payload at its default (1 MB), and sets 64 MB, the most nats-server takes, with nats-max-payload', () => {
    expect(natsConfig('127.0.0.1', 4222, 8222)).not.toContain('max_payload');
    expect(natsConfig('127.0.0.1', 4222, 8222, ['nats-max-payload'])).toContain(`max_payload: ${64 * 1024 * 1024}\n`);
  });
});
