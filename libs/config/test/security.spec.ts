import { createPrivateKey, X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as util from 'node:util';
import { ConfigError } from '../src/config-error';
import { clientTlsOptions, loadSecurity, PLAIN, SECURITY_MODES, serverTlsOptions } from '../src/security';
import { loadSettings } from '../src/settings';
import { writePemFiles } from './pem-files';

describe('security settings (BENCH_SECURITY and the BENCH_TLS_* files)', () => {
  let dir: string;
  let pem: string;
  let files: ReturnType<typeof writePemFiles>;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'security-spec-'));
    files = writePemFiles(dir);
    pem = files.ca;
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('are records of one shape, plain first', () => {
    expect(SECURITY_MODES.map((m) => m.name)).toEqual(['plain', 'tls', 'mtls']);
    expect(SECURITY_MODES.map((m) => [m.tls, m.clientCertificates])).toEqual([[false, false], [true, false], [true, true]]);
  });

  it('default to plain, and read the files tls needs', () => {
    expect(loadSecurity({})).toBe(PLAIN);
    const tls = loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem });
    expect(tls).toMatchObject({ mode: 'tls', cert: null, ca: { subject: 'CN=config spec CA' } });
    expect(clientTlsOptions(tls)).toEqual({ ca: expect.any(Buffer), minVersion: 'TLSv1.3' });
  });

  it('refuse what cannot work, naming the variable', () => {
    expect(() => loadSecurity({ BENCH_SECURITY: 'ssl' })).toThrow(/BENCH_SECURITY must be one of plain, tls, mtls/);
    expect(() => loadSecurity({ BENCH_SECURITY: 'mtls' })).toThrow(/needs BENCH_TLS_CA/);
    expect(() => loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: path.join(dir, 'missing.pem') })).toThrow(/BENCH_TLS_CA: cannot read/);
    expect(() => loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem, BENCH_TLS_CERT: pem })).toThrow(/go together/);
    expect(() => loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: files.key })).toThrow(/BENCH_TLS_CA holds no PEM certificate/);
    expect(() => loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem, BENCH_TLS_CERT: files.cert, BENCH_TLS_KEY: files.otherKey })).toThrow(/BENCH_TLS_KEY is not the private key of BENCH_TLS_CERT/);
    expect(() => loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem, BENCH_TLS_CERT: files.cert, BENCH_TLS_KEY: files.cert })).toThrow(/BENCH_TLS_KEY holds no PEM private key/);
    expect(() => serverTlsOptions(loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem }), ['h2'])).toThrow(ConfigError);
  });

  it('ask a server under mtls for a verified client certificate, TLS 1.3 only', () => {
    const mtls = loadSecurity({ BENCH_SECURITY: 'mtls', BENCH_TLS_CA: pem, BENCH_TLS_CERT: files.cert, BENCH_TLS_KEY: files.key });
    expect(serverTlsOptions(mtls, ['h2'])).toMatchObject({ minVersion: 'TLSv1.3', ALPNProtocols: ['h2'], requestCert: true, rejectUnauthorized: true });
    const tls = loadSecurity({ BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem, BENCH_TLS_CERT: files.cert, BENCH_TLS_KEY: files.key });
    expect(serverTlsOptions(tls, ['http/1.1'])).toMatchObject({ requestCert: false, rejectUnauthorized: false });
  });

  it('turn the default URLs to https, and refuse a URL whose scheme says otherwise', () => {
    const env = { BENCH_SECURITY: 'tls', BENCH_TLS_CA: pem };
    expect(loadSettings(env)).toMatchObject({ serverAUrl: 'https://127.0.0.1:3001', serverAH2Url: 'https://127.0.0.1:3003' });
    expect(() => loadSettings({ ...env, SERVER_A_URL: 'http://127.0.0.1:3001' })).toThrow(/SERVER_A_URL is "http:\/\/127.0.0.1:3001" but BENCH_SECURITY=tls needs https:\/\//);
    expect(() => loadSettings({ SERVER_A_URL: 'https://127.0.0.1:3001' })).toThrow(/needs http:\/\//);
  });

  it('describe what the certificates are and never carry their bytes or the key, however they are shown', () => {
    const mtls = loadSecurity({ BENCH_SECURITY: 'mtls', BENCH_TLS_CA: pem, BENCH_TLS_CERT: files.cert, BENCH_TLS_KEY: files.key });
    expect(mtls.cert).toEqual({
      subject: 'CN=config spec leaf',
      issuer: 'CN=config spec CA',
      validFrom: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      validTo: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      keyType: 'ec P-256',
      fingerprint256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
    });
    const key = fs.readFileSync(files.key);
    const der = createPrivateKey(key).export({ type: 'pkcs8', format: 'der' });
    const certDer = new X509Certificate(fs.readFileSync(files.cert)).raw;
    const shown = [JSON.stringify(mtls), JSON.stringify({ ...mtls }), util.inspect(mtls, { showHidden: true, depth: null }), JSON.stringify(loadSettings({ BENCH_SECURITY: 'mtls', BENCH_TLS_CA: pem, BENCH_TLS_CERT: files.cert, BENCH_TLS_KEY: files.key }))];
    for (const text of shown) {
      expect(text).not.toContain('-----BEGIN');
      expect(text).not.toContain(der.toString('base64').slice(0, 40));
      expect(text).not.toContain(certDer.toString('base64').slice(0, 40));
      expect(text).not.toContain('"type":"Buffer"');
    }
    // The material is still there for the TLS options.
    expect(serverTlsOptions(mtls, ['h2']).key.equals(key)).toBe(true);
    expect(clientTlsOptions(mtls).key?.equals(key)).toBe(true);
  });

  it('hold no material in a copy: a copied settings object cannot open a TLS listener', () => {
    const mtls = loadSecurity({ BENCH_SECURITY: 'mtls', BENCH_TLS_CA: pem, BENCH_TLS_CERT: files.cert, BENCH_TLS_KEY: files.key });
    expect(() => serverTlsOptions({ ...mtls }, ['h2'])).toThrow(/a server needs its certificate and key/);
  });
});
