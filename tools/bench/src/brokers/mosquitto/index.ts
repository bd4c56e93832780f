// Mosquitto: one anonymous listener, no persistence, $SYS published every second, CONNACK as
// readiness, and its counters from its $SYS topics (read with mosquitto_sub).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrokerCounters, BrokerDefinition, Launch, LaunchContext } from '../contract';
import { debianInstallation } from '../debian';
import { MOSQUITTO } from './record';

const BINARY = '/usr/sbin/mosquitto';
/** How often $SYS is published (default 10 s): a reading waits this long so it includes what came before it. */
export const SYS_INTERVAL_S = 1;

const TOPICS = {
  messagesIn: '$SYS/broker/publish/messages/received',
  messagesOut: '$SYS/broker/publish/messages/sent',
  bytesIn: '$SYS/broker/bytes/received',
  bytesOut: '$SYS/broker/bytes/sent',
  version: '$SYS/broker/version',
  uptime: '$SYS/broker/uptime',
} as const;

export function mosquittoConfig(host: string, port: number, tunings: readonly string[] = []): string {
  // mqtt-no-delay: Nagle off on the broker's side of every connection (set_tcp_nodelay, default false).
  const noDelay = tunings.includes('mqtt-no-delay') ? ['set_tcp_nodelay true'] : [];
  return [`listener ${port} ${host}`, 'allow_anonymous true', 'persistence false', `sys_interval ${SYS_INTERVAL_S}`, ...noDelay, 'log_dest stderr', 'log_type error', 'log_type warning', ''].join('\n');
}

/** mosquitto_sub -v lines (`topic value`) into the figures. */
export function parseSys(text: string): Record<keyof typeof TOPICS, string | null> {
  const values = new Map(text.split('\n').map((line) => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1).trim()]));
  return Object.fromEntries(Object.entries(TOPICS).map(([key, topic]) => [key, values.get(topic) ?? null])) as Record<keyof typeof TOPICS, string | null>;
}

export const mosquittoBroker: BrokerDefinition = {
  record: MOSQUITTO,
  installation: () => debianInstallation(MOSQUITTO.source, BINARY),
  async launch(context: LaunchContext): Promise<Launch> {
    const port = await context.port();
    const file = path.join(context.dir, 'mosquitto.conf');
    fs.writeFileSync(file, mosquittoConfig(context.host, port, context.tunings));
    // Each reading is delivered its topics' messages, which $SYS counts as sent: subtracted.
    let ownDeliveries = 0;
    const sys = async () => {
      const reading = await readSys(context.wrap(['mosquitto_sub', '-h', context.host, '-p', String(port), '-v', '-W', '10', ...Object.values(TOPICS).flatMap((topic) => ['-t', topic])]));
      const deliveredBefore = ownDeliveries + reading.deliveredBeforeTick;
      ownDeliveries += reading.delivered;
      return { values: reading.values, deliveredBefore };
    };
    const number = (value: string | null) => (value === null ? null : Number(value));
    return {
      argv: [BINARY, '-c', file],
      port,
      url: `mqtt://${context.host}:${port}`,
      // MQTT 3.1.1 CONNECT (clean session, empty client id, keepalive 60), answered by CONNACK accepted.
      probe: { send: Buffer.from('100c00044d5154540402003c0000', 'hex'), reply: /^\x20\x02\x00\x00/ },
      readyWithinMs: 10_000,
      config: { persistence: false, allowAnonymous: true, sysIntervalS: SYS_INTERVAL_S, messageSizeLimit: '0: the protocol\'s 256 MB (default)', maxInflightMessages: '20 (default)', setTcpNodelay: context.tunings.includes('mqtt-no-delay') ? 'true (mqtt-no-delay)' : 'false (default)' },
      version: async () => (await sys()).values.version?.replace(/^mosquitto version /, '') ?? 'unknown',
      counters: async (): Promise<BrokerCounters> => {
        const { values, deliveredBefore } = await sys();
        const messagesOut = number(values.messagesOut);
        return {
          messagesIn: number(values.messagesIn),
          messagesOut: messagesOut === null ? null : messagesOut - deliveredBefore,
          bytesIn: number(values.bytesIn),
          bytesOut: number(values.bytesOut),
          source: `mosquitto $SYS (published every ${SYS_INTERVAL_S} s; a reading waits for the next publication after it subscribed): publish/messages/received and /sent (the readings' own deliveries subtracted), bytes/received and /sent (every packet, the readings' own ~0.5 KB each included)`,
        };
      },
    };
  },
};

/**
 * Subscribes to the $SYS topics and reads until $SYS is published again after the retained values came
 * (the uptime topic a second time, then a moment for the rest of that publication): so the figures
 * include everything before the reading. Returns the last value of each topic and its deliveries.
 */
function readSys(argv: readonly string[], timeoutMs = 10_000): Promise<{ values: ReturnType<typeof parseSys>; delivered: number; deliveredBeforeTick: number }> {
  return new Promise((resolve, reject) => {
    const [program, ...args] = argv;
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    let uptimes = 0;
    let deliveredBeforeTick = 0;
    let settle: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      text += chunk;
      const lines = text.split('\n').filter(Boolean);
      const seen = lines.filter((line) => line.startsWith(`${TOPICS.uptime} `)).length;
      if (seen >= 2 && uptimes < 2) {
        deliveredBeforeTick = lines.findIndex((line, i) => line.startsWith(`${TOPICS.uptime} `) && lines.slice(0, i).some((l) => l.startsWith(`${TOPICS.uptime} `)));
        settle = setTimeout(() => child.kill('SIGTERM'), 200);
      }
      uptimes = seen;
    });
    child.once('error', (error) => reject(error));
    child.once('close', () => {
      clearTimeout(timer);
      clearTimeout(settle);
      if (uptimes < 2) return reject(new Error(`mosquitto_sub: $SYS was not published again within ${timeoutMs / 1000} s`));
      resolve({ values: parseSys(text), delivered: text.split('\n').filter(Boolean).length, deliveredBeforeTick });
    });
  });
}
