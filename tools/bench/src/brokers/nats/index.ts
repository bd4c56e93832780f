// nats-server: its config (client port and monitoring port on the run's address), its PONG, and its
// counters from the monitoring endpoint /varz (in_msgs, out_msgs, in_bytes, out_bytes: real time).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NATS_MAX_PAYLOAD_BYTES } from '@bench/config';
import { countersOf, type BrokerCounters, type BrokerDefinition, type Launch, type LaunchContext } from '../contract';
import { debianInstallation } from '../debian';
import { NATS } from './record';

const BINARY = '/usr/sbin/nats-server';

/**
 * The config file: the defaults (max_payload 1 MB, …) except where it listens and its monitoring port; with
 * the tuning nats-max-payload, max_payload 64 MB (the most nats-server takes; max_pending's default, 64 MB, holds it).
 */
export function natsConfig(host: string, port: number, monitorPort: number, tunings: readonly string[] = []): string {
  const payload = tunings.includes('nats-max-payload') ? [`max_payload: ${NATS_MAX_PAYLOAD_BYTES}`] : [];
  return [`listen: "${host}:${port}"`, `http: "${host}:${monitorPort}"`, 'server_name: bench', ...payload, ''].join('\n');
}

export function parseVarz(text: string): BrokerCounters & { version: string } {
  const varz = JSON.parse(text) as { in_msgs: number; out_msgs: number; in_bytes: number; out_bytes: number; version: string };
  return { messagesIn: varz.in_msgs, messagesOut: varz.out_msgs, bytesIn: varz.in_bytes, bytesOut: varz.out_bytes, version: varz.version, source: 'nats-server monitoring /varz: in_msgs, out_msgs, in_bytes, out_bytes (payload bytes of published and delivered messages; real time)' };
}

export const natsBroker: BrokerDefinition = {
  record: NATS,
  installation: () => debianInstallation(NATS.source, BINARY),
  async launch(context: LaunchContext): Promise<Launch> {
    const [port, monitorPort] = [await context.port(), await context.port()];
    const file = path.join(context.dir, 'nats.conf');
    fs.writeFileSync(file, natsConfig(context.host, port, monitorPort, context.tunings));
    const varz = async () => parseVarz(await context.run(['curl', '-sf', '--max-time', '5', `http://${context.host}:${monitorPort}/varz`]));
    return {
      argv: [BINARY, '-c', file],
      port,
      url: `nats://${context.host}:${port}`,
      probe: { send: Buffer.from('CONNECT {"verbose":false,"pedantic":false}\r\nPING\r\n'), reply: /PONG\r\n/ },
      readyWithinMs: 10_000,
      config: {
        maxPayloadBytes: context.tunings.includes('nats-max-payload') ? NATS_MAX_PAYLOAD_BYTES : 1024 * 1024,
        monitorPort,
        configFile: `nats.conf (listen, http${context.tunings.includes('nats-max-payload') ? ', max_payload (nats-max-payload)' : ''} only: every other setting the default)`,
      },
      version: async () => (await varz()).version,
      counters: async () => countersOf(await varz()),
    };
  },
};
