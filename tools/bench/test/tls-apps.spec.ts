import * as fs from 'node:fs';
import * as https from 'node:https';
import * as http2 from 'node:http2';
import * as os from 'node:os';
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { waitFor } from '@bench/testing';
import { makeCertificates, makeFaultyServerCertificate, removeCertificates, type CertificateSet, type KeyPair } from '../src/security';
import { appLog, BARE, GO, NEST, startApps as startAppSet, type Apps, type Identity, type Mains } from './tls-app-set';

// The built apps (Nest and bare) as processes under BENCH_SECURITY, with a CA made for the test: what the
// servers negotiate (from their own sockets), what the client measures, and what each refuses.
const NEST_TRANSPORTS = ['json', 'json-h2', 'proto-h1', 'grpc', 'connect-json', 'connect-proto', 'connect-grpc'];

let parent: string;
let certs: CertificateSet;

beforeAll(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'tls-apps-'));
  certs = makeCertificates({ names: ['localhost'], ips: ['127.0.0.1'] }, { parent });
});
afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

function startApps(mains: Mains, mode: 'tls' | 'mtls', identity: Identity, variant = 'blog', extra: Record<string, string> = {}): Promise<Apps> {
  return startAppSet(certs, parent, mains, mode, identity, variant, extra);
}

function benchRun(apps: Apps, transport: string, rows = 10, requests = 2): Promise<{ status: number; body: Record<string, unknown> }> {
  return fetch(`http://127.0.0.1:${apps.ports.client}/bench/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ transport, rows, requests, warmup: 1, runs: 2, cold: true, deadlineMs: 10_000 }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
}

/** GET over HTTPS (HTTP/1.1) straight to server-a, trusting the run's CA. */
function httpsGet(port: number, urlPath: string, client: KeyPair | null): Promise<{ status: number; body: string }> {
  const tls = { ca: fs.readFileSync(certs.ca), ALPNProtocols: ['http/1.1'], ...(client ? { cert: fs.readFileSync(client.cert), key: fs.readFileSync(client.key) } : {}) };
  return new Promise((resolve, reject) => {
    https.get({ host: '127.0.0.1', port, path: urlPath, agent: false, ...tls }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

/** GET over HTTP/2 with TLS (ALPN h2) to server-a's second listener. */
function h2Get(port: number, urlPath: string, client: KeyPair | null): Promise<{ status: number; body: string }> {
  const tls = { ca: fs.readFileSync(certs.ca), ...(client ? { cert: fs.readFileSync(client.cert), key: fs.readFileSync(client.key) } : {}) };
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${port}`, tls);
    session.on('error', reject);
    const stream = session.request({ ':path': urlPath });
    let status = 0;
    let body = '';
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    stream.on('data', (chunk: Buffer) => (body += chunk.toString()));
    stream.on('end', () => (session.close(), resolve({ status, body })));
    stream.on('error', reject);
  });
}

describe.each([
  ['Nest', 'blog', NEST, NEST_TRANSPORTS],
  ['Nest', 'tuned', NEST, NEST_TRANSPORTS],
  ['bare', 'blog', BARE, ['json', 'grpc']],
  ['Go', 'go', GO, ['json', 'grpc']],
])('%s apps (%s) under BENCH_SECURITY', (kind, variant, mains, transports) => {
  describe('mtls, with the client certificate', () => {
    let apps: Apps;
    beforeAll(async () => (apps = await startApps(mains, 'mtls', { server: certs.server, client: certs.client }, variant)));
    afterAll(() => apps?.stop());

    it.each(transports)('%s: every call answered and checked, its cold handshake timed, TLS 1.3 on the wire', async (transport) => {
      const { status, body } = await benchRun(apps, transport);
      expect({ status, error: body.message }).toEqual({ status: 200, error: undefined });
      expect((body.samplesMs as number[]).length).toBe(2);
      const tls = body.tls as { cold: { count: number; protocol: string; alpn: string; meanMs: number } };
      expect(tls.cold).toMatchObject({ protocol: 'TLSv1.3', alpn: transport === 'json' || transport === 'proto-h1' ? 'http/1.1' : 'h2' });
      expect(tls.cold.count).toBeGreaterThan(0);
      expect(tls.cold.meanMs).toBeGreaterThan(0);
    });

    // Tuning tls-session-reuse: a new connection offers the session its server gave the client's earlier
    // ones. The first run's connections got tickets, so the second run's cold call (a fresh pool, agent or
    // HTTP/2 session) resumes when tuned; with each library's defaults a fresh one handshakes in full.
    it.each(transports)('%s: a later cold call resumes its TLS session only where the client keeps it (tls-session-reuse)', async (transport) => {
      expect((await benchRun(apps, transport)).status).toBe(200);
      const { status, body } = await benchRun(apps, transport);
      expect(status).toBe(200);
      const cold = (body.tls as { cold: { count: number; resumed: number } }).cold;
      expect(cold.count).toBeGreaterThan(0);
      expect(cold.resumed).toBe(variant === 'tuned' ? cold.count : 0);
    });

    it("server-a reports from its own socket: TLS 1.3, ALPN http/1.1 on the first listener and h2 on the second, the client's certificate verified", async () => {
      const h1 = await httpsGet(apps.ports.serverA, '/path/tls', certs.client);
      if (kind === 'Nest') {
        expect(JSON.parse(h1.body)).toEqual({ protocol: 'TLSv1.3', alpn: 'http/1.1', clientCertificate: 'verified' });
        const h2 = await h2Get(apps.ports.serverAH2, '/path/tls', certs.client);
        expect(JSON.parse(h2.body)).toEqual({ protocol: 'TLSv1.3', alpn: 'h2', clientCertificate: 'verified' });
      }
      await waitFor('server-b logs its TLS state', () => /server-b: TLS TLSv1\.3 alpn=h2 client certificate verified/.test(appLog(apps, 'server-b')), 5_000);
      expect(appLog(apps, 'server-a')).toMatch(/server-a: TLS TLSv1\.3 alpn=http\/1\.1 client certificate verified/);
    });

    it('bad input over TLS still gets 400 from server-a and INVALID_ARGUMENT from server-b', async () => {
      expect((await httpsGet(apps.ports.serverA, '/server-a/abc', certs.client)).status).toBe(400);
      const credentials = grpc.credentials.createSsl(fs.readFileSync(certs.ca), fs.readFileSync(certs.client.key), fs.readFileSync(certs.client.cert));
      const client = new grpc.Client(`127.0.0.1:${apps.ports.serverB}`, credentials);
      const code = await new Promise<number>((resolve) => {
        client.makeUnaryRequest('/sample.SampleService/GetSamples', () => Buffer.alloc(0), (b: Buffer) => b, {}, (error) => resolve(error?.code ?? 0));
      }).finally(() => client.close());
      // An empty GetSamplesParam is count 0, which no server builds.
      expect(code).toBe(grpc.status.INVALID_ARGUMENT);
    });

    it('a client without a certificate is refused in the handshake', async () => {
      await expect(httpsGet(apps.ports.serverA, '/health', null)).rejects.toThrow(/certificate required|alert|socket hang up|ECONNRESET/i);
    });
  });

  describe('mtls, the client without a certificate', () => {
    let apps: Apps;
    beforeAll(async () => (apps = await startApps(mains, 'mtls', { server: certs.server, client: null }, variant)));
    afterAll(() => apps?.stop());

    it.each(transports)('%s: the run fails at once with 502 naming the refused certificate, not a hang', async (transport) => {
      const { status, body } = await benchRun(apps, transport);
      expect(status).toBe(502);
      expect(String(body.message)).toMatch(/certificate required|handshake|alert|socket hang up|ECONNRESET|UNAVAILABLE/i);
    });
  });

  describe.each([
    ['expired', /certificate has expired|CERT_HAS_EXPIRED/i],
    ['wrong-name', /does not match|not in the cert's altnames|ERR_TLS_CERT_ALTNAME_INVALID|certificate is valid for|cannot validate certificate for/i],
  ] as const)('tls, the servers holding a %s certificate', (fault, reason) => {
    let apps: Apps;
    beforeAll(async () => (apps = await startApps(mains, 'tls', { server: makeFaultyServerCertificate(certs, fault), client: null }, variant)));
    afterAll(() => apps?.stop());

    it.each(transports)('%s: the client refuses it with 502 and the reason', async (transport) => {
      const { status, body } = await benchRun(apps, transport);
      expect(status).toBe(502);
      expect(String(body.message)).toMatch(reason);
    });
  });
});

// The Go client's tuned option (crypto/tls's ClientSessionCache): with it a new connection resumes, as
// the Node clients' tls-session-reuse; without it (above) none does.
describe('Go apps with TLS_SESSION_REUSE=on', () => {
  let apps: Apps;
  beforeAll(async () => (apps = await startApps(GO, 'mtls', { server: certs.server, client: certs.client }, 'go', { TLS_SESSION_REUSE: 'on' })));
  afterAll(() => apps?.stop());

  it.each(['json', 'grpc'])('%s: a later cold call resumes its TLS session, and the cell says so', async (transport) => {
    expect((await benchRun(apps, transport)).status).toBe(200);
    const { status, body } = await benchRun(apps, transport);
    expect(status).toBe(200);
    const cold = (body.tls as { cold: { count: number; resumed: number; protocol: string } }).cold;
    expect(cold).toMatchObject({ protocol: 'TLSv1.3', resumed: cold.count });
    expect(cold.count).toBeGreaterThan(0);
  });
});

describe('the certificate folder', () => {
  it('is gone once removed', () => {
    const other = makeCertificates({ names: ['localhost'], ips: [] }, { parent });
    removeCertificates(other);
    expect(fs.existsSync(other.dir)).toBe(false);
  });
});
