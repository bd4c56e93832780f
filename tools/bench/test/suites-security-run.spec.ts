import { spawn } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSecurity, SECURITY_ENV, type SecuritySettings } from '@bench/config';
import { makeCertificates, type CertificateSet } from '../src/security';
import { ECHO_CALLERS, type EchoTransport, type Servers } from '../src/suites/callers/echo-callers';
import { LOOKUP_CALLERS, type LookupTransport } from '../src/suites/callers/lookup-callers';
import { LoadTargets } from '../src/suites/common/load-targets';
import { findProfile } from '../src/network/stage';
import { makeCaller, ReplicaCounters } from '../src/suites/service/clients';
import { findStrategy, SERVICE_TRANSPORTS } from '../src/network/service';
import { itNeeding } from './needs';
import { ROOT } from './run-bench';
import { serviceStageMissing } from './service-stage';
import { filesUnder, NEST, readClientKey, startApps, type Apps } from './tls-app-set';

// The suites under --security: the built suites (tools/bench/dist/suites) on tiny schedules through the
// real servers they start, each security mode a folder of its own keyed by it, no key in any output and
// none left behind; and their callers refusing servers whose certificate is not from the CA they trust.

/** Runs a built suite's main.js with `args`, resolving with what it printed. */
function runSuite(suite: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'tools/bench/dist/suites', suite, 'main.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}



/** The run folders of `suite` under `out`, by their document's security mode. */
function foldersBySecurity(out: string, suite: string): Record<string, string> {
  const folders = fs.readdirSync(out).filter((name) => name.startsWith(`${suite}-`)).map((name) => path.join(out, name));
  return Object.fromEntries(folders.map((dir) => [JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8')).settings.security, dir]));
}

describe('the suites under --security tls and mtls (built suites and apps, tiny schedules)', () => {
  let out: string;
  let tmp: string;
  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'suites-security-'));
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'suites-security-tmp-'));
  });
  afterAll(() => {
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /**
   * Runs `suite` under tls and mtls, and checks what every run of it must show: its folders, their keys,
   * no key bytes anywhere, none left behind. `across`: the network and the log of a server-a and server-b
   * (bench:service's replicas log as r1-server-a.log).
   */
  async function runUnderTls(suite: string, args: string[], across = { network: 'loopback', logPrefix: '' }): Promise<Record<string, string>> {
    const keys: Buffer[] = [];
    const watch = setInterval(() => {
      const key = readClientKey(tmp);
      if (key && !keys.some((k) => k.equals(key))) keys.push(key);
    }, 20);
    const result = await runSuite(suite, ['--profile', 'quick', '--security', 'tls,mtls', '--out', out, ...args], { TMPDIR: tmp }).finally(() => clearInterval(watch));
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' });
    const folders = foldersBySecurity(out, suite);
    expect(Object.keys(folders).sort()).toEqual(['mtls', 'tls']);
    // No key is left behind, and no key's bytes are in what the suite printed or wrote.
    expect(fs.readdirSync(tmp).filter((name) => name.startsWith('bench-tls-'))).toEqual([]);
    expect(keys).toHaveLength(2);
    const ders = keys.map((key) => createPrivateKey(key).export({ type: 'pkcs8', format: 'der' }).toString('base64'));
    const holds = (text: string) => /-----BEGIN|"type":"Buffer"/.test(text) || ders.some((der) => text.includes(der));
    expect(holds(result.stdout + result.stderr)).toBe(false);
    const files = Object.values(folders).flatMap(filesUnder);
    expect(files.filter((file) => holds(fs.readFileSync(file, 'latin1')))).toEqual([]);
    for (const [mode, dir] of Object.entries(folders)) {
      const doc = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'));
      expect(doc).toMatchObject({ incomplete: false, settings: { security: mode, network: across.network } });
      expect(fs.readFileSync(path.join(dir, 'results.md'), 'utf8')).toContain(`Under ${mode}: every connection to the servers is TLS 1.3`);
      expect(fs.readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain(`security ${mode}`);
      // The servers logged what they negotiated, from their own sockets.
      const verified = mode === 'mtls' ? 'verified' : 'none';
      expect(fs.readFileSync(path.join(dir, 'logs', `${across.logPrefix}server-b.log`), 'utf8')).toContain(`server-b: TLS TLSv1.3 alpn=h2 client certificate ${verified}`);
      expect(fs.readFileSync(path.join(dir, 'logs', `${across.logPrefix}server-a.log`), 'utf8')).toContain(`server-a: TLS TLSv1.3 alpn=http/1.1 client certificate ${verified}`);
    }
    return folders;
  }

  it('echo: every transport over TLS, then mTLS, each its own folder keyed by the mode', async () => {
    const folders = await runUnderTls('echo', ['--calls', '20', '--warmup', '2', '--stream-opens', '1']);
    for (const dir of Object.values(folders)) {
      const doc = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'));
      expect(doc.results.failures).toEqual([]);
      expect(doc.results.cells.map((c: { transport: string; calls: number }) => [c.transport, c.calls])).toEqual(['grpc-unary', 'grpc-bidi', 'rest-protobuf', 'rest-json'].map((t) => [t, 20]));
    }
  }, 300_000);

  it('latency: a new connection per call pays a TLS handshake of its own each time', async () => {
    const folders = await runUnderTls('latency', ['--calls', '5', '--warmup', '1']);
    for (const dir of Object.values(folders)) {
      const doc = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'));
      expect(doc.results.failures).toEqual([]);
      for (const cell of doc.results.cells) expect([cell.transport, cell.latency.n, cell.connect?.calls ?? 0]).toEqual([cell.transport, 5, cell.transport.includes('new-connection') ? 5 : 0]);
    }
  }, 300_000);

  it('load: autocannon and the gRPC loop over TLS without errors', async () => {
    const folders = await runUnderTls('load', ['--duration-ms', '100']);
    for (const dir of Object.values(folders)) {
      const doc = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'));
      expect(doc.results.failures).toEqual([]);
      expect(doc.results.cells).toHaveLength(12);
      for (const cell of doc.results.cells) expect([cell.target, cell.errors, cell.timeouts, cell.calls > 0]).toEqual([cell.target, 0, 0, true]);
    }
  }, 300_000);

  const nbxNamespaces = () => fs.readdirSync('/run/netns', { withFileTypes: true }).filter((e) => e.name.startsWith('nbx-')).map((e) => e.name);
  itNeeding('service: every strategy behind the Service over TLS, then mTLS (Envoy both sides), through the real stage; nothing left', [serviceStageMissing(findProfile('veth'))], async () => {
    const before = fs.existsSync('/run/netns') ? nbxNamespaces() : [];
    const folders = await runUnderTls('service', ['--network', 'veth', '--replicas', '2', '--rates', '20', '--step-ms', '500', '--warmup-ms', '200', '--change-rate', '0'], { network: 'veth', logPrefix: 'r1-' });
    for (const [mode, dir] of Object.entries(folders)) {
      const doc = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'));
      expect(doc.results.failures).toEqual([]);
      expect(doc.results.skipped).toEqual([]);
      // Every strategy × transport answered every call, the l7-proxy's through Envoy's TLS on both sides.
      const cells = doc.results.cells.map((c: { strategy: string; transport: string; ok: number; errors: number }) => [c.strategy, c.transport, c.errors, c.ok > 0]);
      expect(cells.sort()).toEqual(['l4', 'dns-round-robin', 'max-connection-age', 'l7-proxy'].flatMap((strategy) => SERVICE_TRANSPORTS.map((t) => [strategy, t, 0, true])).sort());
      expect(doc.provenance.service.tls).toMatchObject({ mode, certificateNames: { names: expect.arrayContaining([expect.stringMatching(/^replicas\./)]), ips: expect.arrayContaining(['198.18.5.1']) } });
      expect(fs.readFileSync(path.join(dir, 'results.md'), 'utf8')).toContain(`security ${mode})`);
    }
    expect(nbxNamespaces().filter((n) => !before.includes(n))).toEqual([]);
  }, 600_000);
});

describe("the suites' callers under mtls refuse a server they cannot verify", () => {
  let parent: string;
  let ours: CertificateSet;
  let other: CertificateSet;
  let apps: Apps;
  beforeAll(async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'suites-wrong-ca-'));
    ours = makeCertificates({ names: ['localhost'], ips: ['127.0.0.1'] }, { parent });
    other = makeCertificates({ names: ['localhost'], ips: ['127.0.0.1'] }, { parent });
    apps = await startApps(ours, parent, NEST, 'mtls', { server: ours.server, client: ours.client });
  }, 60_000);
  afterAll(async () => {
    await apps?.stop();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  /** The servers as a suite's callers reach them, trusting `ca` and showing `client` (or no certificate). */
  const servers = (ca: CertificateSet, client: CertificateSet | null): Servers => {
    const security: SecuritySettings = loadSecurity({ [SECURITY_ENV.mode]: 'mtls', [SECURITY_ENV.ca]: ca.ca, [SECURITY_ENV.cert]: client?.client.cert ?? '', [SECURITY_ENV.key]: client?.client.key ?? '' });
    return { serverAUrl: `https://127.0.0.1:${apps.ports.serverA}`, serverBAddress: `127.0.0.1:${apps.ports.serverB}`, security };
  };
  /** One call of every echo and lookup caller: what each settled with. */
  const callEach = async (s: Servers): Promise<Record<string, string>> => {
    const outcomes: Record<string, string> = {};
    const attempt = async (name: string, make: () => Promise<{ call(): Promise<unknown>; close(): Promise<void> }>) => {
      try {
        const caller = await make();
        try {
          await caller.call();
          outcomes[name] = 'ok';
        } finally {
          await caller.close();
        }
      } catch (error) {
        outcomes[name] = `refused: ${(error as Error).message}`;
      }
    };
    for (const id of Object.keys(ECHO_CALLERS) as EchoTransport[]) await attempt(`echo ${id}`, () => ECHO_CALLERS[id](s, 'hello'));
    for (const id of Object.keys(LOOKUP_CALLERS) as LookupTransport[]) await attempt(`lookup ${id}`, () => LOOKUP_CALLERS[id](s, 42));
    const targets = new LoadTargets(s, 1);
    await attempt('load server-a', async () => ({ call: () => targets.serverAMetrics(), close: async () => undefined }));
    await attempt('load server-b', async () => ({ call: () => targets.serverBMetrics(), close: async () => undefined }));
    targets.close();
    // bench:service's callers (its driver's) and its counters' reader, dialling the servers by address.
    for (const transport of SERVICE_TRANSPORTS) {
      const port = transport === 'grpc' ? apps.ports.serverB : apps.ports.serverA;
      const options = { transport, strategy: findStrategy('l4'), host: '127.0.0.1', port, rows: 1, httpConnections: 1, deadlineMs: 10_000 };
      await attempt(`service ${transport}`, async () => {
        const caller = makeCaller(options, s.security);
        return { call: () => caller.call(), close: async () => caller.close() };
      });
      await attempt(`service ${transport} counters`, async () => {
        const counters = new ReplicaCounters(transport, s.security);
        return { call: () => counters.read('127.0.0.1', port), close: async () => counters.close() };
      });
    }
    return outcomes;
  };

  it('call every server with the run’s CA and the client certificate', async () => {
    const outcomes = await callEach(servers(ours, ours));
    expect(Object.entries(outcomes).filter(([, o]) => o !== 'ok')).toEqual([]);
    expect(Object.keys(outcomes)).toHaveLength(4 + 6 + 2 + 4);
  }, 60_000);

  it('refuse servers whose certificate is not from the CA they trust, on every transport', async () => {
    const outcomes = await callEach(servers(other, other));
    expect(Object.entries(outcomes).filter(([, o]) => o === 'ok')).toEqual([]);
    // node:https names the failed verification; grpc-js a channel that never became ready (its TLS failed).
    expect(outcomes['echo rest-json']).toMatch(/certificate/);
    expect(outcomes['lookup json-new-connection']).toMatch(/certificate/);
    expect(outcomes['load server-a']).toMatch(/certificate/);
    expect(outcomes['service http-json']).toMatch(/certificate/);
  }, 120_000);
});
