import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import {
  makeCertificates,
  makeFaultyServerCertificate,
  opensslMissing,
  removeCertificates,
  sweepCertificates,
  WRONG_NAME,
  type CertificateSet,
  type KeyPair,
} from '../../src/security';

// Real openssl, real TLS handshakes on loopback: what a client of these certificates accepts and refuses.
describe('the throwaway certificate authority', () => {
  let parent: string;
  let set: CertificateSet;

  beforeAll(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'certs-spec-'));
    set = makeCertificates({ names: ['localhost', 'server-a.bench'], ips: ['127.0.0.1'] }, { parent });
  });
  afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

  it('writes the keys into a private folder, every file 0600', () => {
    expect(fs.statSync(set.dir).mode & 0o777).toBe(0o700);
    for (const name of fs.readdirSync(set.dir)) expect(fs.statSync(path.join(set.dir, name)).mode & 0o777).toBe(0o600);
  });

  it('serves TLS 1.3 with the negotiated ALPN to a client that trusts the CA and dials a name in the SANs', async () => {
    const state = await handshake(set.server, { ca: set.ca, servername: 'server-a.bench', ALPNProtocols: ['h2', 'http/1.1'] });
    expect(state).toEqual({ protocol: 'TLSv1.3', alpn: 'h2', authorized: true });
    const byIp = await handshake(set.server, { ca: set.ca, ALPNProtocols: ['http/1.1'] });
    expect(byIp).toEqual({ protocol: 'TLSv1.3', alpn: 'http/1.1', authorized: true });
  });

  it('under mTLS accepts the client certificate and refuses a client without one', async () => {
    const withCert = await handshake(set.server, { ca: set.ca, cert: fs.readFileSync(set.client.cert), key: fs.readFileSync(set.client.key) }, { requestCert: true });
    expect(withCert.authorized).toBe(true);
    await expect(handshake(set.server, { ca: set.ca }, { requestCert: true })).rejects.toThrow(/certificate required|alert|ECONNRESET|socket hang up/i);
  });

  it('makes an expired and a wrong-name certificate that a verifying client refuses with a clear code', async () => {
    const expired = makeFaultyServerCertificate(set, 'expired');
    await expect(handshake(expired, { ca: set.ca })).rejects.toMatchObject({ code: 'CERT_HAS_EXPIRED' });
    const wrong = makeFaultyServerCertificate(set, 'wrong-name');
    await expect(handshake(wrong, { ca: set.ca })).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    expect(fs.readFileSync(wrong.cert, 'utf8')).toContain('BEGIN CERTIFICATE');
    expect(WRONG_NAME).toMatch(/\.invalid$/);
  });

  it('removes every key, and sweeps the folder of a run that died', () => {
    const other = makeCertificates({ names: [], ips: ['127.0.0.1'] }, { parent });
    removeCertificates(other);
    expect(fs.existsSync(other.dir)).toBe(false);
    const orphan = makeCertificates({ names: ['localhost'], ips: [] }, { parent });
    fs.writeFileSync(path.join(orphan.dir, 'owner.pid'), '2147483646\n');
    expect(sweepCertificates(parent)).toEqual([orphan.dir]);
    expect(fs.existsSync(set.dir)).toBe(true);
  });

  it('says what to install when openssl is missing', () => {
    expect(opensslMissing('/nonexistent/openssl')).toMatch(/apt-get install -y openssl/);
    expect(() => makeCertificates({ names: ['x'], ips: [] }, { parent, openssl: '/nonexistent/openssl' })).toThrow(/install it with `apt-get install -y openssl`/);
  });
});

interface Negotiated {
  protocol: string | null;
  alpn: string | false | null;
  authorized: boolean;
}

/** One handshake against a TLS server holding `pair`; resolves what the server saw, rejects with the client's error. */
async function handshake(pair: KeyPair, client: tls.ConnectionOptions, server: Partial<tls.TlsOptions> = {}): Promise<Negotiated> {
  const seen: Negotiated[] = [];
  const srv = tls.createServer({ cert: fs.readFileSync(pair.cert), key: fs.readFileSync(pair.key), ca: client.ca ? fs.readFileSync(client.ca as string) : undefined, ALPNProtocols: ['h2', 'http/1.1'], ...server }, (socket) => {
    seen.push({ protocol: socket.getProtocol(), alpn: socket.alpnProtocol, authorized: server.requestCert ? socket.authorized : true });
    socket.end('ok');
  });
  srv.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  try {
    await new Promise<void>((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port, ...client, ca: client.ca ? fs.readFileSync(client.ca as string) : undefined }, () => undefined);
      socket.on('data', () => undefined);
      socket.on('end', () => resolve());
      socket.on('error', reject);
    });
    return seen[0];
  } finally {
    srv.close();
  }
}
