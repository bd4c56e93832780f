import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError } from '../src/config-error';
import { clientTlsOptions, loadSecurity, PLAIN, SECURITY_MODES, serverTlsOptions } from '../src/security';
import { loadSettings } from '../src/settings';

describe('security settings (BENCH_SECURITY and the BENCH_TLS_* files)', () => {
  let dir: string;
  let pem: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'security-spec-'));
    pem = path.join(dir, 'x.pem');
    fs.writeFileSync(pem, '-----BEGIN CERTIFICATE-----\n');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('are records of one shape, plain first', () => {
    expect(SECURITY_MODES.map((m) => m.name)).toEqual(['plain', 'tls', 'mtls']);
    expect(SECURITY_MODES.map((m) => [m.tls, m.clientCertificates])).toEqual([[false, false], [true, false], [true, true]]);
  });

  it('default to plain, and read the files tls needs', () => {
    expect(loadSecurity({})).toBe(PLAIN);
    const tls = loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem });
    expect(tls).toMatchObject({ mode: 'tls', cert: null, key: null });
    expect(clientTlsOptions(tls)).toEqual({ ca: expect.any(Buffer), minVersion: 'TLSv1.3' });
  });

  it('refuse what cannot work, naming the variable', () => {
    expect(() => loadSecurity({ BENCH_SECURITY: 'ssl' })).toThrow(/BENCH_SECURITY must be one of plain, tls, mtls/);
    expect(() => loadSecurity({ BENCH_SECURITY: 'mtls' })).toThrow(/needs BENCH_TLS_CA/);
    expect(() => loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: path.join(dir, 'missing.pem') })).toThrow(/BENCH_TLS_CA: cannot read/);
    expect(() => loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem, BENCH_TLS_CERT: pem })).toThrow(/go together/);
    expect(() => serverTlsOptions(loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem }), ['h2'])).toThrow(ConfigError);
  });

  it('ask a server under mtls for a verified client certificate, TLS 1.3 only', () => {
    const mtls = loadSecurity({ BENCH_SECURITY: 'mtls', BENCH_TLS_CA: pem, BENCH_TLS_CERT: pem, BENCH_TLS_KEY: pem });
    expect(serverTlsOptions(mtls, ['h2'])).toMatchObject({ minVersion: 'TLSv1.3', ALPNProtocols: ['h2'], requestCert: true, rejectUnauthorized: true });
    const tls = loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem, BENCH_TLS_CERT: pem, BENCH_TLS_KEY: pem });
    expect(serverTlsOptions(tls, ['http/1.1'])).toMatchObject({ requestCert: false, rejectUnauthorized: false });
  });

  it('turn the default URLs to https, and refuse a URL whose scheme says otherwise', () => {
    const env = { BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem };
    expect(loadSettings(env)).toMatchObject({ serverAUrl: 'https://127.0.0.1:3001', serverAH2Url: 'https://127.0.0.1:3003' });
    expect(() => loadSettings({ ...env, SERVER_A_URL: 'http://127.0.0.1:3001' })).toThrow(/SERVER_A_URL is "http:\/\/127.0.0.1:3001" but BENCH_SECURITY=tls needs https:\/\//);
    expect(() => loadSettings({ SERVER_A_URL: 'https://127.0.0.1:3001' })).toThrow(/needs http:\/\//);
  });
});
