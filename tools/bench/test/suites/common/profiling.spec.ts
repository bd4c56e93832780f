// --cpu-profile's plumbing in a suite: the flag from the one declaration, the measured part between its
// profilers' start and stop with its calls counted, and this process profiled by the agent's own code.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseSuiteArgs, usage } from '../../../src/suites/common/args';
import { profiledBy, SuiteProfiling, unprofiled, type ProfiledUnit } from '../../../src/suites/common/profiling';
import { ECHO_SPEC } from '../../../src/suites/echo/main';
import type { ProfiledRecord } from '../../../src/model';

const ROOT = path.resolve(__dirname, '../../../../..');
const UNIT: ProfiledUnit = { case: 'echo 32 B', transport: 'grpc-unary' };

describe("a suite's --cpu-profile", () => {
  it('is the shared switch: off by default, on with the flag, in the help', () => {
    expect(parseSuiteArgs(ECHO_SPEC, []).cpuProfile).toBe(false);
    expect(parseSuiteArgs(ECHO_SPEC, ['--cpu-profile']).cpuProfile).toBe(true);
    expect(usage(ECHO_SPEC)).toContain('--cpu-profile');
  });

  it('runs the measured part between start and stop, with the calls it made (one when it fails)', async () => {
    const told: string[] = [];
    const profiled = profiledBy(
      async (unit) => void told.push(`start ${unit.transport}`),
      async (unit, calls) => void told.push(`stop ${unit.transport} ${calls}`),
    );
    const measure = async () => {
      told.push('measure');
      return [1, 2, 3];
    };
    await expect(profiled(UNIT, measure, (done) => done.length)).resolves.toEqual([1, 2, 3]);
    await expect(profiled(UNIT, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(told).toEqual(['start grpc-unary', 'measure', 'stop grpc-unary 3', 'start grpc-unary', 'stop grpc-unary 1']);
    await expect(unprofiled(UNIT, async () => 7)).resolves.toBe(7);
  });

  it("profiles this process over the measured part alone, written per unit and summarized in the records", async () => {
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-suite-profiling-'));
    let records: ProfiledRecord[] = [];
    const profiling = new SuiteProfiling(runDir, ROOT, { network: 'loopback', runtime: '24', security: 'plain', variant: 'in-process' }, (r) => (records = r));
    try {
      profiling.profileThisProcess();
      const busy = async () => {
        const until = performance.now() + 30;
        let sink = 0;
        while (performance.now() < until) sink += Math.sqrt(sink + 1);
        return sink;
      };
      await profiling.around(UNIT, busy, () => 4);
      await profiling.around(UNIT, busy, () => 4);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ network: 'loopback', variant: 'in-process', case: 'echo 32 B', transport: 'grpc-unary' });
      const [bench] = records[0].cpuProfile!.processes;
      expect(bench).toMatchObject({ process: 'bench', format: 'cpuprofile', calls: 8, file: 'profiles/loopback-in-process-echo_32_B-grpc-unary/bench.cpuprofile' });
      expect(bench.busyMs).toBeGreaterThan(0);
      const profile = JSON.parse(fs.readFileSync(path.join(runDir, bench.file!), 'utf8'));
      expect(profile.samples.length).toBeGreaterThan(0);
    } finally {
      profiling.close();
      fs.rmSync(runDir, { recursive: true, force: true });
    }
  });
});
