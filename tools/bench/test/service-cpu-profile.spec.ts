// Root-only: bench:service under --cpu-profile on a real stage: every replica's server-a and server-b
// start with the agent and are profiled over each sweep step alone (a unit per strategy, rate and
// transport), as many calls as the step completed. A missing prerequisite fails under CI=true and
// skips elsewhere, saying why (needs.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startStage, type NetworkProfile } from '../src/network/stage';
import { validateProfile } from '../src/network/stage/profile';
import { findStrategy } from '../src/network/service/balancing';
import { measureService } from '../src/suites/service/measure';
import { SuiteProfiling } from '../src/suites/common/profiling';
import type { ProfiledRecord } from '../src/model';
import { describeNeeding } from './needs';
import { serviceStageMissing } from './service-stage';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '../../..');
const tiny: NetworkProfile = validateProfile({ name: 'test-tiny', description: 'test only: 3 ms each way', topology: 'namespaces', oneWayDelayMs: 3, rateMbit: null, loss: 0 });

describeNeeding('bench:service --cpu-profile (root)', [serviceStageMissing(tiny)], () => {
  it("profiles every replica's apps over each sweep step, a unit per strategy, rate and transport", async () => {
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-service-profile-'));
    const stage = await startStage(tiny, { runId: 'jest-svp' });
    let records: ProfiledRecord[] = [];
    const profiling = new SuiteProfiling(runDir, ROOT, { network: tiny.name, runtime: '24', security: 'plain', variant: 'blog' }, (r) => (records = r));
    try {
      const results = await measureService(
        stage,
        runDir,
        { replicas: 2, millicores: null, strategies: [findStrategy('dns-round-robin')], rates: [40, 80], security: null, transports: ['grpc'], profiling },
        { stepMs: 1000, warmupMs: 300, drainMs: 2000, deadlineMs: 5000, changeRate: 0, changePhaseMs: 0 },
        () => undefined,
        () => undefined,
      );
      expect(results.failures).toEqual([]);
      expect(records.map((r) => `${r.case}|${r.transport}`)).toEqual(results.cells.map((c) => `${c.strategy} ${c.offeredPerS}/s|${c.transport}`));
      for (const record of records) {
        const cell = results.cells.find((c) => record.case === `${c.strategy} ${c.offeredPerS}/s`)!;
        const processes = record.cpuProfile!.processes;
        expect(processes.map((p) => p.process).sort()).toEqual(['r1-server-a', 'r1-server-b', 'r2-server-a', 'r2-server-b']);
        for (const p of processes) {
          expect(p).toMatchObject({ format: 'cpuprofile', calls: cell.ok + cell.errors });
          expect(p.error).toBeUndefined();
          expect(fs.existsSync(path.join(runDir, p.file!))).toBe(true);
        }
        // gRPC round-robin over both replicas: each one's server-b served calls, so it was busy.
        for (const name of ['r1-server-b', 'r2-server-b']) expect(processes.find((p) => p.process === name)!.busyMs).toBeGreaterThan(0);
      }
    } finally {
      profiling.close();
      await stage.stop();
      fs.rmSync(runDir, { recursive: true, force: true });
    }
  });
});
