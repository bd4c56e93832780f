// redis-server: no persistence (the bench's data is throwaway), its +PONG, and its counters from INFO:
// PUBLISH calls (messages in), the network bytes in and out; Redis counts no deliveries.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrokerCounters, BrokerDefinition, Launch, LaunchContext } from '../contract';
import { debianInstallation } from '../debian';
import { REDIS } from './record';

const BINARY = '/usr/bin/redis-server';

export function redisConfig(host: string, port: number, dir: string, tunings: readonly string[] = []): string {
  // redis-pubsub-buffer: no output buffer limit for Pub/Sub subscribers (the default, 32mb 8mb 60, cuts a large reply's subscriber off).
  const pubsub = tunings.includes('redis-pubsub-buffer') ? ['client-output-buffer-limit pubsub 0 0 0'] : [];
  return [`bind ${host}`, `port ${port}`, `dir ${dir}`, 'save ""', 'appendonly no', 'daemonize no', 'protected-mode no', 'logfile ""', ...pubsub, ''].join('\n');
}

/** `INFO server` `stats` `commandstats`' figures, less what the bench's own earlier readings added. */
export function parseInfo(text: string): { version: string; publishes: number; bytesIn: number; bytesOut: number } {
  const field = (name: string) => new RegExp(`^${name}:([^\\r\\n]*)`, 'm').exec(text)?.[1] ?? null;
  const publishes = ['cmdstat_publish', 'cmdstat_spublish'].reduce((sum, name) => sum + Number(/calls=(\d+)/.exec(field(name) ?? '')?.[1] ?? 0), 0);
  return { version: field('redis_version') ?? 'unknown', publishes, bytesIn: Number(field('total_net_input_bytes') ?? NaN), bytesOut: Number(field('total_net_output_bytes') ?? NaN) };
}

/** A reading's own traffic: redis-cli's RESP command, and its reply as a bulk string. */
export function readingBytes(args: readonly string[], replyBytes: number): { in: number; out: number } {
  const command = `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
  return { in: Buffer.byteLength(command), out: `$${replyBytes}\r\n`.length + replyBytes + 2 };
}

export const redisBroker: BrokerDefinition = {
  record: REDIS,
  installation: () => debianInstallation(REDIS.source, BINARY),
  async launch(context: LaunchContext): Promise<Launch> {
    const port = await context.port();
    const file = path.join(context.dir, 'redis.conf');
    fs.writeFileSync(file, redisConfig(context.host, port, context.dir, context.tunings));
    const args = ['INFO', 'server', 'stats', 'commandstats'];
    // A reading's command is in its own totals, its reply in the next reading's: both subtracted, so a cell's figures are its traffic's.
    const own = { in: 0, out: 0 };
    const info = async () => {
      const text = await context.run(['redis-cli', '-h', context.host, '-p', String(port), ...args]);
      const parsed = parseInfo(text);
      const bytes = readingBytes(args, Buffer.byteLength(text));
      own.in += bytes.in;
      const reading = { ...parsed, bytesIn: parsed.bytesIn - own.in, bytesOut: parsed.bytesOut - own.out };
      own.out += bytes.out;
      return reading;
    };
    return {
      argv: [BINARY, file],
      port,
      url: `redis://${context.host}:${port}`,
      probe: { send: Buffer.from('PING\r\n'), reply: /^\+PONG\r\n/ },
      readyWithinMs: 10_000,
      config: { persistence: 'none (save "", appendonly no)', protectedMode: false, maxmemory: 'unlimited (default)', proto_max_bulk_len: '512 MB (default)', clientOutputBufferLimitPubsub: context.tunings.includes('redis-pubsub-buffer') ? '0 0 0 (redis-pubsub-buffer)' : '32mb 8mb 60 (default)' },
      version: async () => (await info()).version,
      counters: async (): Promise<BrokerCounters> => {
        const reading = await info();
        return { messagesIn: reading.publishes, messagesOut: null, bytesIn: reading.bytesIn, bytesOut: reading.bytesOut, source: 'redis INFO: commandstats cmdstat_publish calls (messages in; Redis counts no deliveries), total_net_input_bytes / total_net_output_bytes (every byte on its sockets, the readings\' own subtracted)' };
      },
    };
  },
};
