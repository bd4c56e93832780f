// The headless name's DNS without a stage: its records as dnsmasq's hosts file, and a real dnsmasq (on a
// loopback port, no namespace) that answers them, reads them again on SIGHUP while running and counts
// every query from its log. Skipped without dnsmasq, failed instead under CI=true.
import * as dns from 'node:dns';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { headlessHosts, SERVICE_NAME } from '../../../src/network/service/balancing';
import { itNeeding } from '../../needs';
import { dnsCountsBetween } from '../../../src/model';
import { DNS_ADDRESS, DnsServer, dnsmasqArgv, dnsmasqMissing, serviceFqdn } from '../../../src/network/path/cluster-dns';

const FQDN = serviceFqdn(SERVICE_NAME);

describe('the headless name', () => {
  it("is a Service in the servers' namespace, one A record per replica", () => {
    expect(FQDN).toBe('replicas.servers.svc.cluster.local');
    expect(headlessHosts(['198.18.4.11', '198.18.4.12'])).toBe('198.18.4.11 replicas.servers.svc.cluster.local\n198.18.4.12 replicas.servers.svc.cluster.local\n');
    expect(headlessHosts([])).toBe('');
  });

  it('makes dnsmasq read the records from a file, as root (the work folder is 0700)', () => {
    const argv = dnsmasqArgv({}, '/tmp/nbx-abc123/headless-service.hosts');
    expect(argv).toEqual(expect.arrayContaining(['--addn-hosts=/tmp/nbx-abc123/headless-service.hosts', '--user=root', '--log-queries', `--listen-address=${DNS_ADDRESS}`]));
    expect(dnsmasqArgv({}).some((a) => a.startsWith('--addn-hosts') || a.startsWith('--user'))).toBe(false);
  });

  const why = process.getuid?.() !== 0 ? 'root (dnsmasq reads the records as root)' : dnsmasqMissing();
  itNeeding('is answered by a real dnsmasq, read again on SIGHUP while it runs, every query counted', [why], async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbx-dns-test-'));
    const file = path.join(dir, 'headless-service.hosts');
    fs.writeFileSync(file, headlessHosts(['198.18.4.11', '198.18.4.12']));
    const port = 20_000 + (process.pid % 20_000);
    const argv = dnsmasqArgv({}, file).map((a) => (a.startsWith('--listen-address=') ? '--listen-address=127.0.0.1' : a));
    const resolver = new dns.promises.Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([`127.0.0.1:${port}`]);
    const answer = async () => (await resolver.resolve4(FQDN)).sort();
    let server: DnsServer | null = null;
    try {
      server = await DnsServer.start([...argv, `--port=${port}`], async () => void (await answer()));
      const before = await server.snapshot();
      expect(await answer()).toEqual(['198.18.4.11', '198.18.4.12']);
      fs.writeFileSync(file, headlessHosts(['198.18.4.12', '198.18.4.13', '198.18.4.14']));
      await server.reload(file);
      expect(await answer()).toEqual(['198.18.4.12', '198.18.4.13', '198.18.4.14']);
      await expect(resolver.resolve4('replicas.servers.client.svc.cluster.local')).rejects.toMatchObject({ code: 'ENOTFOUND' });
      const counted = dnsCountsBetween(before, await server.snapshot());
      expect(counted).toMatchObject({ queries: 3, nxdomain: 1, byType: { A: 3 } });
    } finally {
      server?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
