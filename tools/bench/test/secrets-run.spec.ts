import { createPrivateKey } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeCertificates, type CertificateSet } from '../src/security';
import { listRuns } from '../src/model/runs';
import { runBench } from './run-bench';
import { appLog, BARE, filesUnder, GO, NEST, startApps, type Apps, type Mains } from './tls-app-set';

// No secret leaves the process: the apps under mtls with a key and a control token the test knows, every
// control-API answer, the apps' logs and a whole run folder of the bench driving that client, scanned
// for a PEM block, the key's bytes (base64 of its DER, the PEM file as a serialized Buffer) and the token.
// The suites' own processes hold the client's key under mtls too: suites-security-run.spec scans their
// output, their run folders and their servers' logs the same way.
const TOKEN = 'secrets-spec-token-0123456789abcdef0123456789abcdef';

let parent: string;
let certs: CertificateSet;
/** What must never appear, by what it is. */
let secrets: Record<string, string>;

beforeAll(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-run-'));
  certs = makeCertificates({ names: ['localhost'], ips: ['127.0.0.1'] }, { parent });
  const pem = fs.readFileSync(certs.client.key);
  const der = createPrivateKey(pem).export({ type: 'pkcs8', format: 'der' });
  const serverPem = fs.readFileSync(certs.server.key);
  secrets = {
    'a PEM block': '-----BEGIN',
    "the client key's DER, base64": der.toString('base64'),
    "the client key's DER, base64 (a 32-byte slice)": der.subarray(der.length - 40, der.length - 8).toString('base64'),
    'the client key file as a serialized Buffer': JSON.stringify(pem).slice(0, 80),
    "the client key's DER as a serialized Buffer": JSON.stringify(der).slice(20, 100),
    "the server key's DER, base64": createPrivateKey(serverPem).export({ type: 'pkcs8', format: 'der' }).toString('base64'),
    'the control token': TOKEN,
  };
});
afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

/** Each secret found in `text`, by name (empty: none). */
function found(text: string): string[] {
  return Object.entries(secrets)
    .filter(([, secret]) => text.includes(secret))
    .map(([name]) => name);
}

/** Every control-API route the client serves, with and without the token, good and bad input: status and body. */
async function controlAnswers(apps: Apps): Promise<Record<string, string>> {
  const base = `http://127.0.0.1:${apps.ports.client}`;
  const auth = { authorization: `Bearer ${TOKEN}` };
  const json = { 'content-type': 'application/json' };
  const run = (body: unknown, headers: Record<string, string> = auth) => ({ method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });
  const asks: Record<string, [string, RequestInit?]> = {
    info: ['/bench/info', { headers: auth }],
    'info, no token': ['/bench/info'],
    'info, wrong token': ['/bench/info', { headers: { authorization: `Bearer ${TOKEN}x` } }],
    path: ['/bench/path?samples=2&bulkBytes=65536', { headers: auth }],
    'path, bad input': ['/bench/path?samples=-1', { headers: auth }],
    run: ['/bench/run', run({ transport: 'grpc', rows: 10, requests: 2, warmup: 1, runs: 2, cold: true, deadlineMs: 10_000 })],
    'run, bad input': ['/bench/run', run({ transport: 'grpc', rows: -1 })],
    'run, not JSON': ['/bench/run', { method: 'POST', headers: { ...json, ...auth }, body: '{' }],
    'run, no token': ['/bench/run', run({ transport: 'json', rows: 1 }, {})],
    health: ['/health'],
    ready: ['/health/ready', { headers: auth }],
    'unknown route': ['/bench/secrets', { headers: auth }],
  };
  const answers: Record<string, string> = {};
  for (const [name, [route, init]] of Object.entries(asks)) {
    const response = await fetch(`${base}${route}`, init);
    answers[name] = `${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`;
  }
  return answers;
}

describe.each([
  ['Nest', NEST],
  ['bare', BARE],
  ['Go', GO],
] as [string, Mains][])('%s apps under mtls', (kind, mains) => {
  let apps: Apps;
  beforeAll(async () => (apps = await startApps(certs, parent, mains, 'mtls', { server: certs.server, client: certs.client }, kind === 'Go' ? 'go' : 'blog', { BENCH_TOKEN: TOKEN })));
  afterAll(() => apps?.stop());

  it('answer every control-API call, good or bad, with no key, certificate bytes or token', async () => {
    const answers = await controlAnswers(apps);
    expect(answers.run).toMatch(/^200 /);
    expect(Object.entries(answers).map(([name, text]) => [name, found(text)])).toEqual(Object.keys(answers).map((name) => [name, []]));
  });

  it('describe their certificates in GET /bench/info: what they are, not their bytes', async () => {
    const info = (await (await fetch(`http://127.0.0.1:${apps.ports.client}/bench/info`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { settings: { security: Record<string, unknown> } };
    expect(info.settings.security).toMatchObject({
      mode: 'mtls',
      ca: { subject: expect.stringContaining('bench throwaway CA'), fingerprint256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/) },
      cert: { subject: 'CN=bench client', keyType: 'ec P-256', validTo: expect.any(String) },
    });
    expect(info.settings.security.key).toBeUndefined();
  });

  it('log no key, certificate bytes or token', () => {
    for (const name of ['client', 'server-a', 'server-b']) expect([name, found(appLog(apps, name))]).toEqual([name, []]);
  });
});

describe('a bench run driving a client under mtls (--client-url)', () => {
  let apps: Apps;
  let out: string;
  beforeAll(async () => {
    apps = await startApps(certs, parent, NEST, 'mtls', { server: certs.server, client: certs.client }, 'blog', { BENCH_TOKEN: TOKEN });
    out = fs.mkdtempSync(path.join(parent, 'out-'));
  });
  afterAll(() => apps?.stop());

  it('stores no key, certificate bytes or token anywhere in its run folder, and prints none', async () => {
    const args = ['--client-url', `http://127.0.0.1:${apps.ports.client}`, '--profile', 'quick', '--transports', 'json,grpc', '--cases', '1-1', '--runs', '2', '--visits', '1', '--warmup-ms', '0', '--out', out];
    const result = await runBench(args, { BENCH_TOKEN: TOKEN });
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(found(result.stdout + result.stderr)).toEqual([]);
    const [run] = listRuns(out);
    const files = filesUnder(run);
    expect(files.map((f) => path.basename(f))).toEqual(expect.arrayContaining(['results.json', 'results.csv', 'results.md', 'report.html']));
    expect(files.map((file) => [path.relative(run, file), found(fs.readFileSync(file, 'latin1'))])).toEqual(files.map((file) => [path.relative(run, file), []]));
    // What the run does record of the client's certificate.
    const doc = JSON.parse(fs.readFileSync(path.join(run, 'results.json'), 'utf8'));
    expect(doc.provenance.clients.blog.settings.security.cert).toMatchObject({ subject: 'CN=bench client', issuer: expect.stringContaining('bench throwaway CA') });
  }, 300_000);
});
