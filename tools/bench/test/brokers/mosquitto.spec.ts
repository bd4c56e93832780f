import { mosquittoConfig } from '../../src/brokers/mosquitto';

describe("Mosquitto's config", () => {
  it('leaves Nagle on at its default, and turns it off on its side with mqtt-no-delay', () => {
    expect(mosquittoConfig('127.0.0.1', 1883)).not.toContain('set_tcp_nodelay');
    expect(mosquittoConfig('127.0.0.1', 1883, ['mqtt-no-delay'])).toContain('set_tcp_nodelay true\n');
  });
});
