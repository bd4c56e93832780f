import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { delayerCpuBetween } from '../../src/network';
import { faultCommand, findFault, WIRE_FAULTS } from '../../src/network/faults';
import { napiThreads, ReceiveThreads, receiveThreadCommands, threadsCpuMs } from '../../src/network/receive-thread';
import { topologyFor } from '../../src/network/topology';
import { addPathCost, pathCostBetween } from '../../src/measure/visits';

// The servers' receive thread (found by name in /proc, measured by schedstat, carried per cell) and the wire faults.
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

  it('adds up and differences per cell like the delayer, and stays absent when either reading lacks it', () => {
    expect(addPathCost({ cpuMs: 1, packets: 10, receiveCpuMs: 2 }, { cpuMs: 3, packets: 5, receiveCpuMs: 4 })).toEqual({ cpuMs: 4, packets: 15, receiveCpuMs: 6 });
    expect(addPathCost({ cpuMs: 1, packets: 10, receiveCpuMs: 2 }, { cpuMs: 3, packets: 5 })).toEqual({ cpuMs: 4, packets: 15 });
    expect(pathCostBetween({ cpuMs: 1, packets: 10, receiveCpuMs: 2 }, { cpuMs: 3.5, packets: 50, receiveCpuMs: 7 })).toEqual({ cpuMs: 2.5, packets: 40, receiveCpuMs: 5 });
    expect(pathCostBetween({ cpuMs: 1, packets: 10 }, { cpuMs: 3, packets: 50, receiveCpuMs: 7 })).toEqual({ cpuMs: 2, packets: 40 });
  });
});

describe('wire faults', () => {
  it('are records: one rule put first in the router namespace FORWARD chain, taken out by the same rule', () => {
    const reset = findFault('reset');
    expect(faultCommand(t.namespaces.router, reset, 'inject').argv.join(' ')).toBe(`ip netns exec ${t.namespaces.router} iptables -w -I FORWARD 1 -p tcp -j REJECT --reject-with tcp-reset`);
    expect(faultCommand(t.namespaces.router, findFault('blackhole'), 'clear').argv.join(' ')).toBe(`ip netns exec ${t.namespaces.router} iptables -w -D FORWARD -j DROP`);
    expect(WIRE_FAULTS.map((f) => f.id)).toEqual(['reset', 'blackhole']);
    expect(() => findFault('flood')).toThrow('unknown fault "flood" (known: reset, blackhole)');
  });
});

describe("the stage's CPU between two readings", () => {
  const reading = (cpuMs: number, packets: number, receiveCpuMs?: number) => ({ pid: 1, cpuMs, packets, cpuPerPacketUs: null, lateMeanUs: 0, lateMaxUs: 0, overruns: 0, ...(receiveCpuMs === undefined ? {} : { receiveCpuMs }) });
  it("differences the receive thread with the delayer; a thread not started at the first reading had run nothing", () => {
    expect(delayerCpuBetween(reading(10, 100, 4), reading(30, 1100, 9))).toMatchObject({ cpuMs: 20, packets: 1000, cpuPerPacketUs: 20, receiveCpuMs: 5 });
    expect(delayerCpuBetween(reading(10, 100), reading(30, 1100, 9))).toMatchObject({ receiveCpuMs: 9 });
    expect('receiveCpuMs' in delayerCpuBetween(reading(10, 100), reading(30, 1100))).toBe(false);
  });
});
