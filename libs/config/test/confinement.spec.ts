import * as os from 'node:os';
import * as v8 from 'node:v8';
import { allowedCpus, confinement, countCpus } from '../src/confinement';

describe('confinement', () => {
  it('reads the CPU list the kernel allows from /proc/self/status and counts it', () => {
    expect(allowedCpus('Name:\tnode\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\nMems_allowed_list:\t0\n')).toBe('0-1');
    expect(allowedCpus('Name:\tnode\n')).toBeNull();
    expect(countCpus('0-1')).toBe(2);
    expect(countCpus('0-3,8,10-11')).toBe(7);
    expect(countCpus('2')).toBe(1);
  });

  it('describes this process: its CPUs, heap and addresses, and what deployed it', () => {
    const here = confinement({});
    expect(here.cpuCount).toBeGreaterThan(0);
    expect(here.cpuCount).toBeLessThanOrEqual(os.cpus().length);
    expect(here.heapLimitBytes).toBe(v8.getHeapStatistics().heap_size_limit);
    for (const address of here.addresses) expect(address).toMatch(/^\S+ \d+\.\d+\.\d+\.\d+$/);
    expect(here.addresses.some((a) => a.endsWith(' 127.0.0.1'))).toBe(false);
    expect(here.deployment).toBeNull();
    expect(confinement({ KUBERNETES_SERVICE_HOST: '198.18.128.1' }).deployment).toBe('kubernetes');
    expect(confinement({ BENCH_DEPLOYMENT: 'docker-compose' }).deployment).toBe('docker-compose');
  });
});
