import { createPrivateKey } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listRuns } from '../src/model/runs';
import { runBench } from './run-bench';
import { filesUnder, readClientKey } from './tls-app-set';

// The built bench (tools/bench/dist) with --security on the tiny schedule CI affords: one case, every
// mode, the built apps it starts itself, a throwaway CA in a temp folder of the test's that must be empty after.
describe('bench:all --security plain,tls,mtls (built apps, one case)', () => {
  let out: string;
  let tmp: string;
  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-security-'));
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-security-tmp-'));
  });
  afterAll(() => {
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('measures every cell on each mode, labels it, records the TLS handshakes, and removes the keys', async () => {
    const args = ['--security', 'plain,tls,mtls', '--variants', 'blog,tuned', '--transports', 'json,grpc,json-h2', '--cases', '1-1', '--runs', '2', '--forks', '0', '--visits', '1', '--warmup-ms', '0', '--out', out];
    // The run's client key, read from its certificate folder while it exists, to look for its bytes afterwards.
    let clientKey: Buffer | null = null;
    const watch = setInterval(() => (clientKey ??= readClientKey(tmp)), 20);
    const result = await runBench(args, { TMPDIR: tmp }).finally(() => clearInterval(watch));
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' });
    const runs = listRuns(out);
    expect(runs).toHaveLength(1);
    const doc = JSON.parse(fs.readFileSync(path.join(runs[0], 'results.json'), 'utf8'));
    expect(doc.results).toHaveLength(3 * 2 * 3);
    for (const r of doc.results) {
      expect(r).toMatchObject({ ok: true, error: null });
      if (r.security === 'plain') expect(r.tls).toBeUndefined();
      else expect(r.tls.cold).toMatchObject({ protocol: 'TLSv1.3', alpn: r.transport === 'json' ? 'http/1.1' : 'h2', count: expect.any(Number) });
    }
    expect([...new Set(doc.results.map((r: { security: string }) => r.security))]).toEqual(['plain', 'tls', 'mtls']);
    expect(doc.settings.security.map((s: { name: string }) => s.name)).toEqual(['plain', 'tls', 'mtls']);
    const csv = fs.readFileSync(path.join(runs[0], 'results.csv'), 'utf8');
    expect(csv.split('\n')[0]).toMatch(/^row_type,network,node,security,/);
    expect(fs.readFileSync(path.join(runs[0], 'results.md'), 'utf8')).toContain('## TLS: the handshakes behind each cell');
    // The servers logged what they negotiated, from their own sockets.
    const serverB = fs.readFileSync(path.join(runs[0], 'logs', 'mtls', 'blog', 'server-b.log'), 'utf8');
    expect(serverB).toMatch(/server-b: TLS TLSv1\.3 alpn=h2 client certificate verified/);
    // No key is left behind, and none is in the run folder: no PEM block, no serialized Buffer (secrets-run.spec scans for the key's own bytes).
    expect(fs.readdirSync(tmp).filter((name) => name.startsWith('bench-tls-'))).toEqual([]);
    const files = filesUnder(runs[0]);
    expect(clientKey).not.toBeNull();
    const der = createPrivateKey(clientKey!).export({ type: 'pkcs8', format: 'der' }).toString('base64');
    const holding = files.filter((file) => /-----BEGIN|"type":"Buffer"/.test(fs.readFileSync(file, 'latin1')) || fs.readFileSync(file, 'latin1').includes(der));
    expect(holding).toEqual([]);
    for (const client of Object.values(doc.provenance.clients) as { settings: { security: Record<string, unknown> } }[]) expect(client.settings.security.key).toBeUndefined();
  }, 600_000);
});
