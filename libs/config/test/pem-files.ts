import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

/** A CA and a leaf it signed, as PEM files in `dir`, made with the openssl command (as the bench's security room does). */
export function writePemFiles(dir: string): { ca: string; cert: string; key: string; otherKey: string } {
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => {
    const result = spawnSync('openssl', args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr || result.error?.message}`);
  };
  for (const key of ['ca.key', 'key.pem', 'other.key']) openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file(key));
  openssl('req', '-x509', '-new', '-key', file('ca.key'), '-subj', '/CN=config spec CA', '-days', '1', '-out', file('ca.pem'));
  openssl('req', '-new', '-key', file('key.pem'), '-subj', '/CN=config spec leaf', '-out', file('leaf.csr'));
  openssl('x509', '-req', '-in', file('leaf.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-days', '1', '-out', file('cert.pem'));
  return { ca: file('ca.pem'), cert: file('cert.pem'), key: file('key.pem'), otherKey: file('other.key') };
}
