// The throwaway certificate authority of one run: a CA, the servers' certificate (their names and IPs
// in its SANs), the client's certificate for mTLS and, for the refusal tests, an expired and a
// wrong-name server certificate. Made with Debian's openssl CLI into a private temp folder (0700,
// files 0600) that the run removes at its end; a killed run's folder is swept by the next run.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A certificate and its private key, as file paths. */
export interface KeyPair {
  cert: string;
  key: string;
}

/** What the servers are reached by: every name and IP a client may dial goes into the SANs. */
export interface ServerIdentity {
  names: readonly string[];
  ips: readonly string[];
}

export interface CertificateSet {
  /** The run-private folder holding every file below. */
  dir: string;
  /** The CA certificate clients and servers trust (and the only one). */
  ca: string;
  server: KeyPair;
  client: KeyPair;
  identity: ServerIdentity;
}

/** A server certificate a client must refuse: past its validity, or for names the client does not dial. */
export type FaultyCertificate = 'expired' | 'wrong-name';

/**
 * A client certificate a server under mtls must refuse: past its validity, or without the client EKU
 * (a server certificate shown as a client's). One from another CA is any other set's client certificate.
 */
export type FaultyClientCertificate = 'expired' | 'no-client-eku';

/** The SAN a wrong-name certificate carries: a name no bench client dials. */
export const WRONG_NAME = 'not-this-server.invalid';

export const OPENSSL_INSTALL = 'apt-get install -y openssl';

const DIR_PREFIX = 'bench-tls-';
const DIR_NAME = /^bench-tls-[A-Za-z0-9]{6}$/;
const OWNER_FILE = 'owner.pid';
const HOUR_MS = 3_600_000;

/** Raised when openssl is missing or one of its steps fails; the message says which and what to install. */
export class CertificateError extends Error {
  override name = 'CertificateError';
}

/** Why certificates cannot be made here (a message saying what to install), or null. */
export function opensslMissing(openssl = 'openssl'): string | null {
  const result = spawnSync(openssl, ['version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    return `--security tls / mtls makes a throwaway CA with the openssl command, which is not installed: install it with \`${OPENSSL_INSTALL}\``;
  }
  return null;
}

/**
 * A new CA with the servers' and the client's certificates, in a new private folder under `parent`.
 * The caller removes it with removeCertificates (the bench does at its end, on signals too).
 */
export function makeCertificates(identity: ServerIdentity, options: { parent?: string; openssl?: string } = {}): CertificateSet {
  const openssl = options.openssl ?? 'openssl';
  const missing = opensslMissing(openssl);
  if (missing) throw new CertificateError(missing);
  if (identity.names.length + identity.ips.length === 0) throw new CertificateError('a server certificate needs at least one name or IP for its SANs');
  const dir = fs.mkdtempSync(path.join(options.parent ?? os.tmpdir(), DIR_PREFIX));
  fs.chmodSync(dir, 0o700);
  fs.writeFileSync(path.join(dir, OWNER_FILE), `${process.pid}\n`, { mode: 0o600 });
  try {
    const ca = { cert: path.join(dir, 'ca.pem'), key: path.join(dir, 'ca.key') };
    newKey(openssl, ca.key);
    sh(openssl, ['req', '-x509', '-new', '-key', ca.key, '-subj', `/CN=bench throwaway CA ${process.pid}`, '-days', '2', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-out', ca.cert]);
    const set: CertificateSet = { dir, ca: ca.cert, server: pairIn(dir, 'server'), client: pairIn(dir, 'client'), identity: { names: [...identity.names], ips: [...identity.ips] } };
    sign(openssl, dir, ca, set.server, { cn: identity.names[0] ?? identity.ips[0], san: sanOf(identity), usage: 'serverAuth', validity: 'valid' });
    sign(openssl, dir, ca, set.client, { cn: 'bench client', san: 'DNS:bench-client', usage: 'clientAuth', validity: 'valid' });
    restrict(dir);
    return set;
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A server certificate from the set's CA that a client must refuse (tests of the refusal paths). */
export function makeFaultyServerCertificate(set: CertificateSet, fault: FaultyCertificate, options: { openssl?: string } = {}): KeyPair {
  const openssl = options.openssl ?? 'openssl';
  const pair = pairIn(set.dir, `server-${fault}`);
  const ca = { cert: set.ca, key: path.join(set.dir, 'ca.key') };
  const san = fault === 'wrong-name' ? `DNS:${WRONG_NAME}` : sanOf(set.identity);
  sign(openssl, set.dir, ca, pair, { cn: fault === 'wrong-name' ? WRONG_NAME : set.identity.names[0] ?? set.identity.ips[0], san, usage: 'serverAuth', validity: fault === 'expired' ? 'expired' : 'valid' });
  restrict(set.dir);
  return pair;
}

/** A client certificate from the set's CA that a server under mtls must refuse (tests of the refusal logs). */
export function makeFaultyClientCertificate(set: CertificateSet, fault: FaultyClientCertificate, options: { openssl?: string } = {}): KeyPair {
  const pair = pairIn(set.dir, `client-${fault}`);
  const ca = { cert: set.ca, key: path.join(set.dir, 'ca.key') };
  sign(options.openssl ?? 'openssl', set.dir, ca, pair, { cn: 'bench client', san: 'DNS:bench-client', usage: fault === 'no-client-eku' ? 'serverAuth' : 'clientAuth', validity: fault === 'expired' ? 'expired' : 'valid' });
  restrict(set.dir);
  return pair;
}

/** Removes the set's folder and every key in it. */
export function removeCertificates(set: Pick<CertificateSet, 'dir'>): void {
  fs.rmSync(set.dir, { recursive: true, force: true });
}

/** Removes certificate folders under `parent` left by runs that died before removing theirs; returns them. */
export function sweepCertificates(parent: string = os.tmpdir()): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(parent, { withFileTypes: true });
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory() && DIR_NAME.test(e.name))) {
    const dir = path.join(parent, entry.name);
    const owner = Number(readOr(path.join(dir, OWNER_FILE), '').trim());
    if (Number.isInteger(owner) && owner > 0 && alive(owner)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

/** The SAN list of the servers' certificate: `DNS:a, DNS:b, IP:127.0.0.1`. */
export function sanOf(identity: ServerIdentity): string {
  return [...identity.names.map((n) => `DNS:${n}`), ...identity.ips.map((ip) => `IP:${ip}`)].join(',');
}

function pairIn(dir: string, name: string): KeyPair {
  return { cert: path.join(dir, `${name}.pem`), key: path.join(dir, `${name}.key`) };
}

/** P-256: the key type a service mesh issues by default, and fast to make and to handshake with. */
function newKey(openssl: string, file: string): void {
  sh(openssl, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file]);
}

interface LeafRequest {
  cn: string;
  san: string;
  usage: 'serverAuth' | 'clientAuth';
  validity: 'valid' | 'expired';
}

/**
 * Signs a new leaf with `openssl ca`, the one openssl 3.0 command that takes explicit start and end
 * dates (an expired certificate needs both in the past); its database files live in a scratch folder.
 */
function sign(openssl: string, dir: string, ca: KeyPair, leaf: KeyPair, request: LeafRequest): void {
  const scratch = fs.mkdtempSync(path.join(dir, 'ca-'));
  try {
    const csr = path.join(scratch, 'leaf.csr');
    newKey(openssl, leaf.key);
    sh(openssl, ['req', '-new', '-key', leaf.key, '-subj', `/CN=${request.cn}`, '-out', csr]);
    fs.writeFileSync(path.join(scratch, 'index.txt'), '');
    fs.writeFileSync(path.join(scratch, 'serial'), `${randomSerial()}\n`);
    const config = path.join(scratch, 'ca.cnf');
    fs.writeFileSync(config, caConfig(scratch, request));
    const now = Date.now();
    const [start, end] = request.validity === 'expired' ? [now - 48 * HOUR_MS, now - 24 * HOUR_MS] : [now - HOUR_MS, now + 48 * HOUR_MS];
    sh(openssl, ['ca', '-batch', '-config', config, '-cert', ca.cert, '-keyfile', ca.key, '-in', csr, '-out', leaf.cert, '-notext', '-extensions', 'leaf', '-startdate', asn1Time(start), '-enddate', asn1Time(end)]);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function caConfig(scratch: string, request: LeafRequest): string {
  return [
    '[ca]',
    'default_ca = bench',
    '[bench]',
    `database = ${path.join(scratch, 'index.txt')}`,
    `new_certs_dir = ${scratch}`,
    `serial = ${path.join(scratch, 'serial')}`,
    'default_md = sha256',
    'policy = any',
    'unique_subject = no',
    'copy_extensions = none',
    '[any]',
    'commonName = supplied',
    '[leaf]',
    'basicConstraints = critical,CA:FALSE',
    'keyUsage = critical,digitalSignature',
    `extendedKeyUsage = ${request.usage}`,
    `subjectAltName = ${request.san}`,
    '',
  ].join('\n');
}

/** openssl ca's date format: YYYYMMDDHHMMSSZ (UTC). */
function asn1Time(ms: number): string {
  return `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

function randomSerial(): string {
  return Array.from({ length: 16 }, () => Math.floor(Math.random() * 256).toString(16).padStart(2, '0')).join('').replace(/^[89a-f]/, '1');
}

/** Every file 0600: the keys are the run's only secret and no other user needs them. */
function restrict(dir: string): void {
  for (const name of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, name), 0o600);
}

function sh(openssl: string, args: string[]): void {
  const result = spawnSync(openssl, args, { encoding: 'utf8', timeout: 30_000 });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new CertificateError(missing ? (opensslMissing(openssl) ?? `${openssl} is not installed`) : `openssl ${args[0]}: ${result.error.message}`);
  }
  if (result.status !== 0) {
    const said = (result.stderr || result.stdout || '').trim().split('\n').slice(-3).join(' | ');
    throw new CertificateError(`\`openssl ${args[0]}\` failed (exit ${result.status}): ${said}`);
  }
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The certificates of one run: one set per server identity it starts apps for (loopback, or a network
 * stage's server address), made on first use, all removed at the run's end, or at its exit when it ends
 * otherwise (a SIGKILLed run's are swept by the next: sweepCertificates).
 */
export class RunCertificates {
  private readonly sets = new Map<string, CertificateSet>();
  private readonly removeOnExit = () => this.remove();

  constructor(private readonly options: { parent?: string; openssl?: string } = {}) {
    sweepCertificates(options.parent);
    process.once('exit', this.removeOnExit);
  }

  /** The set whose server certificate names `identity` (made now if this run has none yet). */
  for(identity: ServerIdentity): CertificateSet {
    const key = sanOf(identity);
    let set = this.sets.get(key);
    if (!set) {
      set = makeCertificates(identity, this.options);
      this.sets.set(key, set);
    }
    return set;
  }

  /** Every folder this run made, removed (keys included). */
  remove(): void {
    for (const set of this.sets.values()) removeCertificates(set);
    this.sets.clear();
    process.off('exit', this.removeOnExit);
  }
}
