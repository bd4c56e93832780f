import { createPrivateKey } from 'node:crypto';
import * as fs from 'node:fs';
import type { TLSSocket } from 'node:tls';
import { describeCertificate, parseCertificate, type CertificateDescription } from './certificate-description';
import { ConfigError } from './config-error';
import { logTlsRefusals, type RefusingServer } from './tls-refusals';

/** What each app's connections between services are wrapped in: the axis `--security` of the bench. */
export type SecurityName = 'plain' | 'tls' | 'mtls';

export interface SecurityRecord {
  name: SecurityName;
  /** What a run of this mode measures, in words (reports and --help). */
  what: string;
  /** The servers listen with TLS 1.3 and the client verifies their certificate against the run's CA. */
  tls: boolean;
  /** The servers also require a client certificate from that CA, and refuse a client without one. */
  clientCertificates: boolean;
}

/** The security modes, as data: siblings of the transports, networks and runtimes. */
export const SECURITY_MODES: readonly SecurityRecord[] = Object.freeze([
  { name: 'plain', what: 'cleartext TCP, as the blog measured (HTTP/1.1, h2c, gRPC without TLS)', tls: false, clientCertificates: false },
  {
    name: 'tls',
    what: 'TLS 1.3 on every server-to-server connection, the protocol chosen by ALPN (h2 or http/1.1); the client verifies the servers against a CA made for the run',
    tls: true,
    clientCertificates: false,
  },
  {
    name: 'mtls',
    what: 'tls, and every server requires and verifies a client certificate from the same CA (what a service mesh does between sidecars)',
    tls: true,
    clientCertificates: true,
  },
]);

/** The environment every app reads its security from; the bench sets it per app (docs/security.md). */
export const SECURITY_ENV = Object.freeze({
  /** plain | tls | mtls (default plain). */
  mode: 'BENCH_SECURITY',
  /** PEM file of the CA certificate the app trusts: servers verify client certificates with it, the client servers' certificates. */
  ca: 'BENCH_TLS_CA',
  /** PEM file of this app's own certificate: a server's (with its names in the SANs), or the client's for mtls. */
  cert: 'BENCH_TLS_CERT',
  /** PEM file of that certificate's private key. */
  key: 'BENCH_TLS_KEY',
});

/**
 * The security an app runs with, as it may be shown: its mode and what its certificates are. The PEM
 * bytes and the private key are not in it, so no serialization of the settings (GET /bench/info,
 * results.json's provenance, a logged object) can carry them: they are held beside it (tlsMaterial),
 * reached only through serverTlsOptions and clientTlsOptions.
 */
export interface SecuritySettings {
  readonly mode: SecurityName;
  /** The trusted CA (null: plain). */
  readonly ca: CertificateDescription | null;
  /** This app's certificate (null: plain, or a client under tls, which needs none). */
  readonly cert: CertificateDescription | null;
}

/** The files' contents behind one SecuritySettings, read once at start-up. */
interface TlsMaterial {
  ca: Buffer;
  cert: Buffer | null;
  key: Buffer | null;
}

/** Keyed by the settings object itself: the material lives exactly as long as it, and is never one of its properties. */
const MATERIAL = new WeakMap<SecuritySettings, TlsMaterial>();

export const PLAIN: SecuritySettings = Object.freeze({ mode: 'plain', ca: null, cert: null });

/** Only TLS 1.3: what the axis measures, and what a client or server of another version is refused with. */
export const TLS_MIN_VERSION = 'TLSv1.3' as const;

export function securityRecord(name: SecurityName): SecurityRecord {
  return SECURITY_MODES.find((m) => m.name === name)!;
}

/**
 * Reads BENCH_SECURITY and the PEM files it names. BENCH_TLS_CERT is the app's own certificate: a server
 * cannot listen without one (serverTlsOptions says so at start-up); the client needs one only under
 * mtls, and starts without it so that a run can show what a server answers a client that has none.
 */
export function loadSecurity(env: NodeJS.ProcessEnv): SecuritySettings {
  const modeText = (env[SECURITY_ENV.mode] ?? '').trim() || 'plain';
  const record = SECURITY_MODES.find((m) => m.name === modeText);
  if (!record) throw new ConfigError(`${SECURITY_ENV.mode} must be one of ${SECURITY_MODES.map((m) => m.name).join(', ')}; got ${JSON.stringify(modeText)}`);
  if (!record.tls) return PLAIN;
  const file = (key: 'ca' | 'cert' | 'key', required: boolean): Buffer | null => {
    const variable = SECURITY_ENV[key];
    const value = (env[variable] ?? '').trim();
    if (value === '') {
      if (required) throw new ConfigError(`${SECURITY_ENV.mode}=${record.name} needs ${variable} (a PEM file)`);
      return null;
    }
    try {
      return fs.readFileSync(value);
    } catch (error) {
      throw new ConfigError(`${variable}: cannot read ${JSON.stringify(value)}: ${(error as Error).message}`);
    }
  };
  const material: TlsMaterial = { ca: file('ca', true)!, cert: file('cert', false), key: file('key', false) };
  if ((material.cert === null) !== (material.key === null)) throw new ConfigError(`${SECURITY_ENV.cert} and ${SECURITY_ENV.key} go together: set both or neither`);
  if (material.cert && material.key) checkKeyPair(material.cert, material.key);
  const settings: SecuritySettings = Object.freeze({
    mode: record.name,
    ca: describeCertificate(material.ca, SECURITY_ENV.ca),
    cert: material.cert ? describeCertificate(material.cert, SECURITY_ENV.cert) : null,
  });
  MATERIAL.set(settings, material);
  return settings;
}

/** A key that does not belong to its certificate fails every handshake: say so at start-up, naming both variables. */
function checkKeyPair(cert: Buffer, key: Buffer): void {
  let matches: boolean;
  try {
    matches = parseCertificate(cert, SECURITY_ENV.cert).checkPrivateKey(createPrivateKey(key));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${SECURITY_ENV.key} holds no PEM private key`);
  }
  if (!matches) throw new ConfigError(`${SECURITY_ENV.key} is not the private key of ${SECURITY_ENV.cert}`);
}

/** The files behind `security`; settings not made by loadSecurity (a copy, a literal) have none. */
function tlsMaterial(security: SecuritySettings): TlsMaterial | null {
  return MATERIAL.get(security) ?? null;
}

/**
 * Under mtls a client without its certificate is refused by every server, and some libraries see only a
 * closed socket (undici: "other side closed"): the client says why, on stderr at start and with every
 * failed call. Null when it has nothing to say.
 */
export function refusalHint(security: SecuritySettings, app: string): string | null {
  if (security.mode !== 'mtls' || security.cert) return null;
  const hint = `${SECURITY_ENV.mode}=mtls but this client has no certificate (${SECURITY_ENV.cert} unset): the servers refuse it`;
  console.warn(`${app}: ${hint}`);
  return hint;
}

/** Options for a node:tls / https / http2 secure server (and Fastify's `https`) under this security. */
export function serverTlsOptions(security: SecuritySettings, alpn: readonly string[]): { cert: Buffer; key: Buffer; ca: Buffer; minVersion: typeof TLS_MIN_VERSION; ALPNProtocols: string[]; requestCert: boolean; rejectUnauthorized: boolean } {
  const material = tlsMaterial(security);
  if (!material?.cert || !material.key) throw new ConfigError(`${SECURITY_ENV.mode}=${security.mode}: a server needs its certificate and key (${SECURITY_ENV.cert}, ${SECURITY_ENV.key})`);
  const mutual = securityRecord(security.mode).clientCertificates;
  return { cert: material.cert, key: material.key, ca: material.ca, minVersion: TLS_MIN_VERSION, ALPNProtocols: [...alpn], requestCert: mutual, rejectUnauthorized: mutual };
}

/** Options for a client's TLS connections (https.Agent, undici connect, http2.connect) under this security. */
export function clientTlsOptions(security: SecuritySettings): { ca: Buffer; cert?: Buffer; key?: Buffer; minVersion: typeof TLS_MIN_VERSION } {
  const material = tlsMaterial(security);
  if (!material) throw new ConfigError('a TLS client needs the CA');
  return { ca: material.ca, minVersion: TLS_MIN_VERSION, ...(material.cert && material.key ? { cert: material.cert, key: material.key } : {}) };
}

/** http:// or https:// for this security. */
export function httpScheme(security: SecuritySettings): 'http' | 'https' {
  return security.mode === 'plain' ? 'http' : 'https';
}

/** What a server saw of one TLS connection: its protocol version, the ALPN protocol, the client certificate. */
export interface TlsState {
  protocol: string | null;
  alpn: string | null;
  clientCertificate: 'verified' | 'none' | 'refused';
}

export function tlsStateOf(socket: TLSSocket): TlsState {
  const peer = socket.getPeerCertificate?.();
  const hasPeer = peer !== undefined && peer !== null && Object.keys(peer).length > 0;
  return { protocol: socket.getProtocol(), alpn: socket.alpnProtocol || null, clientCertificate: hasPeer ? (socket.authorized ? 'verified' : 'refused') : 'none' };
}

/**
 * Logs, once per distinct state, what a TLS listener negotiated (`<app>: TLS TLSv1.3 alpn=h2 client
 * certificate verified`): a run's log shows what the bytes on its wire were, not what was configured.
 * And each handshake it refused, with the reason (logTlsRefusals, rate-limited).
 */
export function logTlsStates(server: RefusingServer & { on(event: 'secureConnection', listener: (socket: TLSSocket) => void): unknown }, app: string): void {
  logTlsRefusals(server, app);
  const seen = new Set<string>();
  server.on('secureConnection', (socket) => {
    const state = tlsStateOf(socket);
    const line = `${app}: TLS ${state.protocol} alpn=${state.alpn ?? 'none'} client certificate ${state.clientCertificate}`;
    if (seen.has(line)) return;
    seen.add(line);
    console.log(line);
  });
}
