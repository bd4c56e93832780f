import { parseInfo, readingBytes, redisConfig } from '../../src/brokers/redis';

describe("Redis's counters", () => {
  it("counts a reading's own bytes as Redis does (measured: 56 in, 1,902 out for a 1,893-byte reply)", () => {
    expect(readingBytes(['INFO', 'server', 'stats', 'commandstats'], 1893)).toEqual({ in: 56, out: 1902 });
  });

  it('reads PUBLISH calls and the network totals from INFO', () => {
    const info = '# Server\r\nredis_version:7.0.15\r\n# Stats\r\ntotal_net_input_bytes:120\r\ntotal_net_output_bytes:300\r\n# Commandstats\r\ncmdstat_publish:calls=3,usec=10\r\ncmdstat_info:calls=2\r\n';
    expect(parseInfo(info)).toEqual({ version: '7.0.15', publishes: 3, bytesIn: 120, bytesOut: 300 });
  });
});

describe("Redis's config", () => {
  it('keeps the Pub/Sub output buffer limit at its default, and lifts it with redis-pubsub-buffer', () => {
    expect(redisConfig('127.0.0.1', 6379, '/d')).not.toContain('client-output-buffer-limit');
    expect(redisConfig('127.0.0.1', 6379, '/d', ['redis-pubsub-buffer'])).toContain('client-output-buffer-limit pubsub 0 0 0\n');
  });
});
