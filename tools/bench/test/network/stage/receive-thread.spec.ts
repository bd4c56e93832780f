import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { napiThreads, ReceiveThreads, receiveThreadCommands, threadsCpuMs } from '../../../src/network/stage/receive-thread';
import { topologyFor } from '../../../src/network/stage/topology';

// The servers' receive thread: found by name in /proc, measured by schedstat, carried per cell.
const t = topologyFor('receive-thread-test');

// Removed after the file's tests: a left folder under the stage's own prefix would read as a stage's leftover.
const fakeProcs: string[] = [];
afterAll(() => fakeProcs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A fake /proc with the given threads (pid → comm, schedstat's first field in ns). */
function fakeProc(threads: Record<number, { comm: string; ns: number }>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-proc-'));
  fakeProcs.push(dir);
  fs.mkdirSync(path.join(dir, 'self'));
  for (const [pid, { comm, ns }] of Object.entries(threads)) {
    fs.mkdirSync(path.join(dir, pid));
    fs.writeFileSync(path.join(dir, pid, 'comm'), `${comm}\n`);
    fs.writeFileSync(path.join(dir, pid, 'schedstat'), `${ns} 1234 56\n`);
  }
  return dir;
}

describe("the servers' receive thread", () => {
  it('is switched on inside the stage only: TSO off on the router end, GRO and threaded NAPI on the servers end', () => {
    const argvs = receiveThreadCommands(t).map((c) => c.argv.join(' '));
    expect(argvs).toEqual([
      `ip netns exec ${t.namespaces.router} ethtool -K ${t.interfaces.routerToServer} tso off`,
      `ip netns exec ${t.namespaces.server} ethtool -K ${t.interfaces.server} gro on`,
      `ip netns exec ${t.namespaces.server} sh -c echo 1 > /sys/class/net/${t.interfaces.server}/threaded`,
    ]);
  });

  it('is found by its kernel thread name and measured in ns (schedstat), a vanished thread counting 0', () => {
    const proc = fakeProc({ 12: { comm: 'napi/veth-s-261', ns: 2_500_000 }, 40: { comm: 'napi/veth-s-262', ns: 1_000_000 }, 7: { comm: 'napi/veth-c-263', ns: 9 }, 9: { comm: 'node', ns: 9 } });
    expect(napiThreads('veth-s', proc)).toEqual([12, 40]);
    expect(threadsCpuMs([12, 40, 999], proc)).toBe(3.5);
  });

  it('is looked up until the kernel starts it, never taking a thread of that name that was there before', () => {
    const proc = fakeProc({ 5: { comm: 'napi/veth-s-100', ns: 7_000_000 } });
    const threads = new ReceiveThreads('veth-s', new Set([5]), proc);
    expect(threads.cpuMs()).toBeUndefined();
    fs.mkdirSync(path.join(proc, '41'));
    fs.writeFileSync(path.join(proc, '41', 'comm'), 'napi/veth-s-300\n');
    fs.writeFileSync(path.join(proc, '41', 'schedstat'), '2000000 0 0\n');
    expect(threads.pids()).toEqual([41]);
    expect(threads.cpuMs()).toBe(2);
  });
});
