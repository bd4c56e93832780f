import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findPath } from '../src/network/path';
import { deployedNetwork } from '../src/run/deployed-network';

// deploy/compose/check-run.js, the check that bench:compose-check and bench:k8s-local make of the run
// folder a deployment hands back: what it accepts and what it refuses, naming why.
const ROOT = path.resolve(__dirname, '../../..');
const NODE_MAJOR = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node.split('.')[0];

const confined = (deployment: string, address: string) => ({ cpus: '0-1', cpuCount: 2, memoryLimitBytes: 6 * 2 ** 30, heapLimitBytes: 4.4 * 2 ** 30, deployment, addresses: [`eth0 ${address}`] });

function run(dir: string, doc: object, markdown: string, ...args: string[]) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(doc));
  fs.writeFileSync(path.join(dir, 'results.md'), markdown);
  return spawnSync(process.execPath, [path.join(ROOT, 'deploy/compose/check-run.js'), dir, ...args], { encoding: 'utf8' });
}

describe('deploy/compose/check-run.js', () => {
  let scratch: string;
  beforeAll(() => (scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-deploy-check-'))));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  // The network's name as the bench derives it in that deployment.
  const networkOf = (deployment: string) => deployedNetwork(findPath('loopback'), 'http://client:3000', { BENCH_DEPLOYMENT: deployment }).name;
  const cell = (transport: string, ok = true, network = 'docker-bridge') => ({ case: '①-1', transport, network, variant: 'blog', runtime: NODE_MAJOR, ok, failure: ok ? null : { message: 'JavaScript heap out of memory' } });
  const good = (deployment: string) => ({
    incomplete: false,
    results: [cell('json', true, networkOf(deployment)), cell('grpc', true, networkOf(deployment))],
    provenance: {
      clients: { blog: { node: `v${NODE_MAJOR}.1.0`, confinement: confined(deployment, '198.19.240.4') } },
      bench: { confinement: confined(deployment, '198.19.240.5') },
      path: { [`${networkOf(deployment)}/blog`]: { before: {}, after: {}, changed: [] } },
    },
  });
  const described = (deployment: string) => `- apps started by their deployment, not the bench (--client-url http://client:3000): …\n- network ${networkOf(deployment)}: …\n`;

  it('accepts a complete run whose client and bench ran confined under the deployment named, and says what ran', () => {
    const result = run(path.join(scratch, 'good'), good('docker-compose'), described('docker-compose'));
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(result.stdout).toContain(`2 cells ok, variant blog, Node v${NODE_MAJOR}.1.0, network docker-bridge`);
    expect(result.stdout).toContain('client under docker-compose, CPUs 0-1, memory limit 6.0 GiB');
    expect(run(path.join(scratch, 'k8s'), good('kubernetes'), described('kubernetes'), 'kubernetes').status).toBe(0);
  });

  it('refuses a failed cell, another Node, a plain process, a loopback label and a report of a loopback run, naming each', () => {
    const doc = good('docker-compose');
    doc.results[1] = cell('grpc', false, 'loopback');
    doc.provenance.path = { 'loopback/blog': doc.provenance.path['docker-bridge/blog'] };
    doc.provenance.clients.blog.node = 'v18.0.0';
    doc.provenance.bench.confinement = { ...confined('', ''), deployment: null as unknown as string, memoryLimitBytes: null as unknown as number, addresses: [] };
    const result = run(path.join(scratch, 'bad'), doc, "- client, server-a and server-b share this machine's cores (not pinned: …)\n");
    expect(result.status).toBe(1);
    for (const reason of [
      'failed: ①-1 grpc (JavaScript heap out of memory)',
      `the client ran Node v18.0.0, the project pins ${NODE_MAJOR}.`,
      'the bench says it ran as a plain process, not under docker-compose',
      'the bench has no memory limit of its own',
      'results.md describes a loopback run',
      '①-1 grpc is labelled network loopback, not docker-bridge',
      'no path measured as docker-bridge/blog (provenance.path has loopback/blog)',
      'results.md does not name the network docker-bridge',
    ]) {
      expect(result.stderr).toContain(reason);
    }
    expect(run(path.join(scratch, 'elsewhere'), good('docker-compose'), described('docker-compose'), 'kubernetes').stderr).toContain('the client says it ran under docker-compose, not under kubernetes');
  });
});

describe('the real engines keep to the benchmark range', () => {
  // Whatever address the private Docker engine and the local cluster give out stays in 198.18.0.0/15
  // (RFC 2544), as the network stage's do: never a range a real network on the machine may use.
  it.each(['deploy/compose/engine.sh', 'deploy/k8s/local-cluster.sh'])('%s names no address outside 198.18.0.0/15 but loopback and 0.0.0.0', (file) => {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const addresses = [...text.matchAll(/\b(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}\b/g)].map((m) => ({ text: m[0], a: Number(m[1]), b: Number(m[2]) }));
    expect(addresses.length).toBeGreaterThan(0);
    // 0.0.0.0/0 is the pods' default route (to their bridge's gateway, inside the namespace).
    const outside = addresses.filter(({ text, a, b }) => !(a === 127 || text === '0.0.0.0' || (a === 198 && (b === 18 || b === 19))));
    expect(outside.map((x) => x.text)).toEqual([]);
  });
});
