// Root-only: bench:service with Nest's transports on a real stage with its broker namespace. Three
// replicas of server-a/server-b subscribe to each real broker (started in that namespace as bench:all
// starts them); the open-loop driver calls from the client namespace through the broker. Asserts from the
// replicas' own counters: NATS (queue group), RabbitMQ (one queue), MQTT (shared subscription) and Kafka
// (consumer group, a partition per replica) each give every replica a share and every call to exactly
// one; Redis pub/sub gives every call to every replica; nest-tcp behind l4 is pinned to one replica like
// gRPC. Then: no broker process, no broker folder and no namespace left.
// A missing prerequisite fails under CI=true and skips elsewhere, saying why (needs.ts).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BROKER_KINDS } from '@bench/config';
import { brokerMissing } from '../src/brokers';
import { startStage, type NetworkProfile } from '../src/network/stage';
import { validateProfile } from '../src/network/stage/profile';
import { BROKERED_TRANSPORTS, findStrategy } from '../src/network/service/balancing';
import { measureService, type ServiceResults } from '../src/suites/service/measure';
import { describeNeeding } from './needs';
import { serviceStageMissing } from './service-stage';

const tiny: NetworkProfile = validateProfile({ name: 'test-tiny', description: 'test only: 3 ms each way', topology: 'namespaces', oneWayDelayMs: 3, rateMbit: null, loss: 0 });
const RUN_ID = 'jest-svcb';

/** What a run of the brokers leaves if it leaks: processes of its broker folders, the folders, their state files, the stage's namespaces. */
function leftovers(): string[] {
  const processes = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).stdout.split('\n').filter((line) => /nbx-run-brokers-/.test(line));
  const folders = fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('nbx-run-brokers-')).map((name) => path.join(os.tmpdir(), name));
  const namespaces = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout.split('\n').filter((n) => n.includes(`nbx-${RUN_ID}`));
  return [...processes, ...folders, ...namespaces];
}

describeNeeding('bench:service through the brokers (root)', [serviceStageMissing(tiny), ...BROKER_KINDS.map(brokerMissing)], () => {
  it('each spreading broker gives every replica a share and each call to one replica; Redis gives every call to every replica; nest-tcp behind l4 stays on one; nothing left', async () => {
    const before = leftovers();
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-service-brokers-'));
    const stage = await startStage(tiny, { runId: RUN_ID, broker: true });
    let results: ServiceResults;
    try {
      results = await measureService(
        stage,
        runDir,
        { replicas: 3, millicores: null, strategies: ['l4', 'broker'].map(findStrategy), rates: [30], security: null, transports: ['nest-tcp', ...BROKERED_TRANSPORTS] },
        { stepMs: 2000, warmupMs: 1500, drainMs: 3000, deadlineMs: 5000, changeRate: 0, changePhaseMs: 2000, faultRate: 40, faultPhaseMs: 2000 },
        () => undefined,
        () => undefined,
      );
    } finally {
      await stage.stop();
      fs.rmSync(runDir, { recursive: true, force: true });
    }
    expect(results.failures).toEqual([]);
    // Each brokered transport behind the broker, nest-tcp behind l4 only: the other pairs skipped with why.
    expect(results.cells.map((c) => `${c.strategy} ${c.transport}`).sort()).toEqual(['broker nest-kafka', 'broker nest-mqtt', 'broker nest-nats', 'broker nest-redis', 'broker nest-rmq', 'l4 nest-tcp']);
    expect(results.skipped.map((s) => `${s.strategy} ${s.transport}`).sort()).toEqual([...BROKERED_TRANSPORTS.map((t) => `l4 ${t}`), 'broker nest-tcp'].sort());
    expect(results.sharing?.find((s) => s.transport === 'nest-kafka')?.partitions).toBe(3);
    for (const c of results.cells) {
      const requests = c.replicas.map((r) => r.requests);
      const sum = requests.reduce((a, b) => a + b, 0);
      expect(c.errors).toBe(0);
      expect(c.ok).toBeGreaterThan(0);
      expect(c.replicas).toHaveLength(3);
      if (c.transport === 'nest-redis') {
        // Pub/sub: every replica received and answered every call (the caller kept the first reply).
        expect(sum).toBe(3 * c.ok);
        expect(requests.every((n) => n === c.ok)).toBe(true);
      } else {
        // Every answer counted by exactly one replica: none lost, none invented.
        expect(sum).toBe(c.ok);
      }
      if (c.strategy === 'broker') {
        expect(requests.every((n) => n > 0)).toBe(true);
        expect(c.cpuMs.broker).toBeGreaterThan(0);
      }
      expect(c.cpuPer1000CallsMs).toBeGreaterThan(0);
    }
    const tcp = results.cells.find((c) => c.transport === 'nest-tcp')!;
    expect(tcp.replicas.filter((r) => r.requests > 0)).toHaveLength(1); // one ClientProxy = one connection = one DNAT choice
    expect(tcp.cpuMs.broker).toBeNull();
    expect(leftovers().filter((l) => !before.includes(l))).toEqual([]);
  }, 300_000);
});
