// The server namespace's kernel TCP counters: parsed from real /proc/net/netstat and /proc/net/snmp text,
// and (root) read from a throwaway namespace whose listener's accept queue is made to overflow.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { parseTcpCounters, readHostTcpCounters, readTcpCounters, TCP_COUNTER_FILES } from '../../../src/network/stage/tcp-counters';
import { pathCountersBetween } from '../../../src/model/path-counters';
import { describeNeeding } from '../../needs';

/** The server namespace's two files, read at the end of run 2026-11-28T13-15-41Z (region, blog json ②-3 in plain and mtls; the mtls cell reset), as the kernel wrote them. */
const CAPTURED = fs.readFileSync(path.join(__dirname, 'fixtures', 'proc-net-netstat-snmp.txt'), 'utf8');

describe('parseTcpCounters', () => {
  it('reads the listen queue, SYN-cookie and reset counters from /proc/net/netstat and /proc/net/snmp as the kernel writes them', () => {
    expect(parseTcpCounters(CAPTURED)).toEqual({
      listenOverflows: 11616,
      listenDrops: 11616,
      syncookiesSent: 4097,
      syncookiesRecv: 11186,
      syncookiesFailed: 233,
      outRsts: 239,
      estabResets: 1684,
      abortOnData: 0,
      abortOnClose: 0,
      synRetrans: 37,
      timeouts: 37,
      retransSegs: 38,
      twRecycled: 0,
      pawsActive: 0,
      timeWaitOverflow: 0,
    });
  });

  it('reads this machine’s own files, in either order (every counter a whole number)', () => {
    const files = TCP_COUNTER_FILES.map((file) => fs.readFileSync(file, 'utf8'));
    const counters = parseTcpCounters(files.join(''));
    expect(parseTcpCounters([...files].reverse().join(''))).toEqual(counters);
    for (const value of Object.values(counters)) expect(Number.isInteger(value) && value >= 0).toBe(true);
  });

  it('names the counter it cannot find', () => {
    const snmpOnly = CAPTURED.split('\n').filter((line) => !line.startsWith('TcpExt:')).join('\n');
    expect(() => parseTcpCounters(snmpOnly)).toThrow('no TcpExt ListenOverflows counter in /proc/net/netstat + /proc/net/snmp');
    expect(() => parseTcpCounters('')).toThrow(/no TcpExt/);
  });

  it('are differences of running totals per cell', () => {
    const before = parseTcpCounters(CAPTURED);
    const after = { ...before, listenOverflows: before.listenOverflows + 10, syncookiesFailed: before.syncookiesFailed + 2 };
    expect(pathCountersBetween({ dns: null, envoy: null, tcp: before }, { dns: null, envoy: null, tcp: after }).tcp).toMatchObject({ listenOverflows: 10, syncookiesFailed: 2, outRsts: 0 });
  });
});

describe('readHostTcpCounters (loopback: the host’s counters)', () => {
  it('counts an accept queue overflowing on 127.0.0.1 and the SYNs sent again after the initial RTO', async () => {
    const before = await readHostTcpCounters();
    // A listener with a backlog of 1 that accepts nothing for 3 s; 20 connects, kept open past the first SYN retransmission (1 s).
    const listener = "const s = require('net').createServer(); s.listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => { process.stdout.write(s.address().port + '\\n'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000); process.exit(0); })";
    const server = spawn(process.execPath, ['-e', listener]);
    const exited = new Promise((resolve) => server.once('exit', resolve));
    const port = Number(await new Promise<string>((resolve) => readline.createInterface({ input: server.stdout }).once('line', resolve)));
    const connects = `const net = require('net'); for (let i = 0; i < 20; i++) net.connect(${port}, '127.0.0.1').on('error', () => {}); setTimeout(() => process.exit(0), 2000);`;
    spawnSync(process.execPath, ['-e', connects], { timeout: 15_000 });
    await exited;
    const counted = pathCountersBetween({ dns: null, envoy: null, tcp: before }, { dns: null, envoy: null, tcp: await readHostTcpCounters() }).tcp!;
    // Other connections on the host count too: these are at least ours.
    expect(counted.listenOverflows).toBeGreaterThan(0);
    expect(counted.synRetrans).toBeGreaterThan(0);
  }, 20_000);
});

const missingRoot = process.getuid?.() !== 0 ? 'root (the test makes a network namespace: run the tests as root)' : null;

describeNeeding('readTcpCounters in a real namespace (root)', [missingRoot], () => {
  const ns = `nbxtest-tcpc-${process.pid}`;
  const inNs = (argv: readonly string[]) => ['ip', 'netns', 'exec', ns, ...argv];
  beforeAll(() => {
    expect(spawnSync('ip', ['netns', 'add', ns]).status).toBe(0);
    expect(spawnSync('ip', ['-n', ns, 'link', 'set', 'lo', 'up']).status).toBe(0);
  });
  afterAll(() => {
    spawnSync('ip', ['netns', 'del', ns]);
    expect(spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout).not.toContain(ns);
  });

  it("counts a listener's accept queue overflowing: a backlog of 1, not accepting, 40 connects", async () => {
    const before = await readTcpCounters(inNs);
    // A listener whose process blocks (so nothing is accepted) for 3 s after saying its port.
    const listener = "const s = require('net').createServer(); s.listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => { process.stdout.write(s.address().port + '\\n'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000); process.exit(0); })";
    const [program, ...args] = inNs([process.execPath, '-e', listener]);
    const server = spawn(program, args);
    const exited = new Promise((resolve) => server.once('exit', resolve));
    const port = Number(await new Promise<string>((resolve) => readline.createInterface({ input: server.stdout }).once('line', resolve)));
    expect(Number.isInteger(port) && port > 0).toBe(true);
    const connects = `const net = require('net'); for (let i = 0; i < 40; i++) net.connect(${port}, '127.0.0.1').on('error', () => {}); setTimeout(() => process.exit(0), 1500);`;
    const [clientProgram, ...clientArgs] = inNs([process.execPath, '-e', connects]);
    const clients = spawnSync(clientProgram, clientArgs, { encoding: 'utf8', timeout: 15_000 });
    // What is asserted is the kernel's count below; how the connecting process ended is only its
    // evidence (under CI's load it exited 1 once, after its connects were made).
    const connecting = { status: clients.status, stderr: clients.stderr.slice(0, 500) };
    await exited;
    const counted = pathCountersBetween({ dns: null, envoy: null, tcp: before }, { dns: null, envoy: null, tcp: await readTcpCounters(inNs) }).tcp!;
    expect({ overflowed: counted.listenOverflows > 0, connecting }).toMatchObject({ overflowed: true });
    expect(counted.listenDrops).toBeGreaterThanOrEqual(counted.listenOverflows);
  }, 20_000);

  it('fails with the command and its message where the namespace is gone', async () => {
    await expect(readTcpCounters((argv) => ['ip', 'netns', 'exec', 'nbxtest-no-such-namespace', ...argv])).rejects.toThrow(/reading the TCP counters \(ip netns exec nbxtest-no-such-namespace cat \/proc\/net\/netstat \/proc\/net\/snmp\): .+/);
  });
});
