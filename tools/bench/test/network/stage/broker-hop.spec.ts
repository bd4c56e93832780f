// The brokers' namespace on a stage (issue #42 item 3): client → broker → server, each hop with the
// profile's delay, measured by the calibration; a real broker started in it carries a message from the
// client's namespace to the servers'. The root part needs what stage.spec.ts needs, and nats-server.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { brokerMissing, countersBetween, startBrokers } from '../../../src/brokers';
import { allowedRttErrorMs, checkPrerequisites, startStage, topologyFor, type NetworkProfile } from '../../../src/network/stage';
import { validateProfile } from '../../../src/network/stage/profile';
import { brokerPlaceFor, brokerQueueRuleCommand, brokerSetupCommands, judgeBrokerHops } from '../../../src/network/stage/broker-hop';
import { describeNeeding } from '../../needs';

const tiny: NetworkProfile = validateProfile({ name: 'test-tiny', description: 'test only: 3 ms each way', topology: 'namespaces', oneWayDelayMs: 3, rateMbit: 100, loss: 0 });
const tcp = { congestionControl: 'cubic', rmem: [4096, 131072, 6291456] as [number, number, number], wmem: [4096, 16384, 6291456] as [number, number, number] };

describe("the brokers' namespace, as commands", () => {
  const t = topologyFor('unit');
  it('is named after the run and touches only the stage: every command names one of its namespaces', () => {
    const place = brokerPlaceFor(t);
    expect(place.namespace).toBe('nbx-unit-broker');
    for (const { argv } of [...brokerSetupCommands(t, tiny, tcp), brokerQueueRuleCommand(t)]) {
      expect(argv.join(' ')).toMatch(/nbx-unit-(broker|router)/);
    }
  });

  it("holds what the servers send to the broker, and limits the broker link's rate like the others", () => {
    expect(brokerQueueRuleCommand(t).argv).toEqual(expect.arrayContaining(['-i', 'veth-rs', '-o', 'veth-rb', 'NFQUEUE']));
    expect(brokerSetupCommands(t, tiny, tcp).some(({ argv }) => argv.includes('htb') && argv.includes('veth-rb'))).toBe(true);
  });

  it("refuses a hop whose RTT is not the profile's", () => {
    expect(judgeBrokerHops(6, 0.6, { clientToBrokerMs: { median: 6.2 }, serverToBrokerMs: { median: 6.1 } })).toEqual([]);
    expect(judgeBrokerHops(6, 0.6, { clientToBrokerMs: { median: 6.2 }, serverToBrokerMs: { median: 0.1 } })).toEqual([expect.stringContaining('server → broker RTT 0.1 ms')]);
  });
});

function missingForStage(): string | null {
  if (process.getuid?.() !== 0) return 'root (the stage creates network namespaces and iptables rules: run the tests as root)';
  if (spawnSync('sh', ['-c', 'command -v iptables && command -v ping']).status !== 0) return 'iptables or ping (apt-get install -y iptables iputils-ping ethtool)';
  if (!fs.existsSync(path.resolve(__dirname, '../../../dist/network/stage/index.js'))) return 'the built bench (npx nx run bench:build)';
  return checkPrerequisites(tiny);
}

/** A NATS client by hand, run in a namespace: prints `ready` once its first commands are answered (PONG), exits once `until` is read. */
function natsClient(ns: string, host: string, port: number, commands: string, until: string): { ready: Promise<void>; done: Promise<string> } {
  const script = `const s = require('node:net').connect(${port}, '${host}'); let got = ''; let ready = false;
    s.on('connect', () => s.write(${JSON.stringify(commands)}));
    s.on('data', (d) => { got += d; if (!ready && got.includes('PONG')) { ready = true; console.log('ready'); }
      if (got.includes(${JSON.stringify(until)})) { process.stdout.write(String(got) + "\\n"); process.exit(0); } });
    setTimeout(() => process.exit(1), 20000);`;
  const child = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const ready = new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()).startsWith('ready') && resolve()));
  const done = new Promise<string>((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`a NATS client in ${ns} exited ${code}: ${out}`)))));
  return { ready, done };
}

describeNeeding('a stage with a broker namespace (root)', [missingForStage(), brokerMissing('nats')], () => {
  it('gives each hop the profile RTT and carries a message client → broker → server', async () => {
    const stage = await startStage(tiny, { runId: 'jest-broker', broker: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'broker-hop-'));
    try {
      expect(stage.broker?.namespace).toBe('nbx-jest-broker-broker');
      const calibration = await stage.calibrate({ rttSamples: 11, pingCount: 5, bulkBytes: 2 ** 20 });
      expect(calibration.stage.broker).toEqual({ placement: 'own-namespace', namespace: 'nbx-jest-broker-broker', address: '198.18.3.2' });
      for (const hop of [calibration.brokerHops!.clientToBrokerMs, calibration.brokerHops!.serverToBrokerMs]) {
        expect(hop.median).toBeGreaterThanOrEqual(6 - allowedRttErrorMs(6));
        expect(hop.median).toBeLessThan(12);
      }
      const [nats] = await startBrokers(['nats'], { dir, namespace: stage.broker!.namespace, host: stage.broker!.host });
      try {
        expect(nats.url).toBe(`nats://198.18.3.2:${nats.address.port}`);
        const before = await nats.counters();
        const subscriber = natsClient(stage.topology.namespaces.server, nats.address.host, nats.address.port, 'CONNECT {}\r\nSUB hop.x 1\r\nPING\r\n', 'MSG hop.x 1 5\r\nhello');
        await subscriber.ready;
        await natsClient(stage.topology.namespaces.client, nats.address.host, nats.address.port, 'CONNECT {}\r\nPUB hop.x 5\r\nhello\r\nPING\r\n', 'PONG').done;
        expect(await subscriber.done).toContain('hello');
        const delta = countersBetween(before, await nats.counters());
        expect(delta).toMatchObject({ messagesIn: 1, messagesOut: 1, bytesIn: 5, bytesOut: 5 });
      } finally {
        await nats.stop();
      }
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      await stage.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout).not.toContain('nbx-jest-broker-');
  }, 180_000);
});
