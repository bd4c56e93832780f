import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { waitFor } from '@bench/testing';
import { REFUSAL_LOG } from '@bench/config';
import { makeCertificates, makeFaultyClientCertificate, type CertificateSet, type KeyPair } from '../src/security';
import { appLog, BARE, GO, NEST, startApps, type Apps, type Mains } from './tls-app-set';

// Every server under mtls logs each handshake it refuses, one line with the reason and the peer's
// address (never a certificate's bytes), rate-limited; and what the refused client sees is recorded:
// the specific TLS alert where the server's TLS stack sends one.
let parent: string;
let certs: CertificateSet;
/** The refused identities, by what is wrong with them (null: no certificate at all). */
let refused: Record<string, KeyPair | null>;

beforeAll(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'tls-refusals-'));
  certs = makeCertificates({ names: ['localhost'], ips: ['127.0.0.1'] }, { parent });
  const other = makeCertificates({ names: ['localhost'], ips: ['127.0.0.1'] }, { parent });
  refused = {
    'unknown CA': other.client,
    'expired certificate': makeFaultyClientCertificate(certs, 'expired'),
    'no client EKU': makeFaultyClientCertificate(certs, 'no-client-eku'),
    'no certificate': null,
  };
});
afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

interface Attempt {
  /** The client's own port: the server's line names it. */
  port: number;
  /** What the client saw: the error code of the alert it got, or `closed` when the connection just ended. */
  saw: string;
}

/** One TLS 1.3 handshake to `port` as `identity`, to its end. */
function attempt(port: number, alpn: string, identity: KeyPair | null): Promise<Attempt> {
  return new Promise((resolve) => {
    const pair = identity ? { cert: fs.readFileSync(identity.cert), key: fs.readFileSync(identity.key) } : {};
    const socket = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', ca: fs.readFileSync(certs.ca), ALPNProtocols: [alpn], minVersion: 'TLSv1.3', ...pair });
    let localPort = 0;
    let saw = 'closed';
    socket.once('connect', () => (localPort = socket.localPort ?? 0));
    // TLS 1.3: the client's handshake ends before the server has read its certificate; a read shows what the server did then.
    socket.once('secureConnect', () => socket.write('x'));
    socket.on('error', (error: NodeJS.ErrnoException) => (saw = error.code ?? error.message));
    socket.on('data', () => undefined);
    socket.once('close', () => resolve({ port: localPort, saw }));
  });
}

/** The listeners of a set of apps under mtls, by name: their port and ALPN. */
function listeners(apps: Apps, kind: string): [string, string, number, string][] {
  return [
    ['server-a', 'HTTP/1.1', apps.ports.serverA, 'http/1.1'],
    ...(kind === 'Nest' ? [['server-a', 'HTTP/2', apps.ports.serverAH2, 'h2'] as [string, string, number, string]] : []),
    ['server-b', 'gRPC', apps.ports.serverB, 'h2'],
  ];
}

/** The alerts a Go server sends (crypto/tls); Node's servers verify after the handshake and can only close, except for a missing certificate (OpenSSL's own check). */
const GO_ALERTS: Record<string, string> = {
  'unknown CA': 'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'expired certificate': 'ERR_SSL_SSL/TLS_ALERT_CERTIFICATE_EXPIRED',
  'no client EKU': 'ERR_SSL_SSL/TLS_ALERT_BAD_CERTIFICATE',
  'no certificate': 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
};

describe.each([
  ['Nest', 'blog', NEST],
  ['Nest', 'tuned', NEST],
  ['bare', 'blog', BARE],
  ['Go', 'go', GO],
] as [string, string, Mains][])('%s servers (%s) under mtls', (kind, variant, mains) => {
  let apps: Apps;
  beforeAll(async () => (apps = await startApps(certs, parent, mains, 'mtls', { server: certs.server, client: certs.client }, variant)));
  afterAll(() => apps?.stop());

  it('log one line per refused handshake, naming the reason and the peer, and the client gets the alert the stack can send', async () => {
    const seen: Record<string, string> = {};
    for (const [app, listener, port, alpn] of listeners(apps, kind)) {
      for (const [reason, identity] of Object.entries(refused)) {
        const { port: peer, saw } = await attempt(port, alpn, identity);
        seen[`${app} ${listener} ${reason}`] = saw;
        const line = new RegExp(`^${app}: refused a TLS handshake from 127\\.0\\.0\\.1:${peer}: ${reason}`, 'm');
        await waitFor(`${app} (${listener}) logs the refusal of a client with ${reason}`, () => line.test(appLog(apps, app)), 10_000);
      }
    }
    for (const [key, saw] of Object.entries(seen)) {
      const reason = key.replace(/^\S+ \S+ /, '');
      if (kind === 'Go') expect([key, saw]).toEqual([key, GO_ALERTS[reason]]);
      else expect([key, saw]).toEqual([key, reason === 'no certificate' ? 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' : expect.stringMatching(/^(closed|ECONNRESET)$/)]);
    }
    for (const app of ['server-a', 'server-b']) expect(appLog(apps, app)).not.toContain('-----BEGIN');
  }, 120_000);
});

describe.each([
  ['Nest', 'blog', NEST, 'server-b'],
  ['Go', 'go', GO, 'server-a'],
] as [string, string, Mains, string][])('a flood of refused handshakes on %s %s', (kind, variant, mains, app) => {
  let apps: Apps;
  beforeAll(async () => (apps = await startApps(certs, parent, mains, 'mtls', { server: certs.server, client: certs.client }, variant)));
  afterAll(() => apps?.stop());

  it(`is logged ${REFUSAL_LOG.lines} lines per ${REFUSAL_LOG.windowMs / 1000} s, and a line counts the rest with their reasons`, async () => {
    const flood = 4 * REFUSAL_LOG.lines;
    const port = app === 'server-a' ? apps.ports.serverA : apps.ports.serverB;
    await Promise.all(Array.from({ length: flood }, () => attempt(port, app === 'server-a' ? 'http/1.1' : 'h2', refused['unknown CA'])));
    const counted = () => {
      const text = appLog(apps, app);
      const lines = text.match(new RegExp(`^${app}: refused a TLS handshake from .*: unknown CA`, 'gm'))?.length ?? 0;
      const more = [...text.matchAll(new RegExp(`^${app}: (\\d+) more refused TLS handshakes not logged in the last \\d+ s \\(at most ${REFUSAL_LOG.lines} lines per \\d+ s\\): unknown CA ×(\\d+)$`, 'gm'))];
      return { lines, more: more.reduce((sum, m) => sum + Number(m[1]), 0) };
    };
    await waitFor('the window closes and its count is logged', () => counted().lines + counted().more === flood, REFUSAL_LOG.windowMs * 4);
    expect(counted().lines).toBeLessThan(flood);
    expect(counted().more).toBeGreaterThan(0);
  }, 120_000);
});
