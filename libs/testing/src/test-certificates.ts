import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSecurity, SECURITY_ENV, type SecuritySettings } from '@bench/config';

/**
 * A throw-away CA and a server certificate for 127.0.0.1 and localhost (P-256, one day), made with
 * openssl in a temporary folder that `remove` deletes: what a server needs to listen under `tls`.
 */
export function testServerSecurity(): { security: SecuritySettings; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-tls-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '1', '-subj', '/CN=test CA');
  openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=localhost');
  fs.writeFileSync(file('ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('server.pem'), '-days', '1', '-extfile', file('ext'));
  // Read as an app reads its files (the key stays out of the settings' serialization).
  const security = loadSecurity({ [SECURITY_ENV.mode]: 'tls', [SECURITY_ENV.ca]: file('ca.pem'), [SECURITY_ENV.cert]: file('server.pem'), [SECURITY_ENV.key]: file('server.key') });
  return { security, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
