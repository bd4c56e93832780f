// Root-only (issue #45 item 3): the recovery tunings reach the processes bench:service starts and a
// faulted cell with a tuning is measured and written. Real stage, replicas, driver and Envoy on a tiny
// profile: a replica frozen (SIGSTOP) under l4 gRPC, at the defaults and with grpc-keepalive (the
// driver's channel pings, and drops the silent connection: its calls fail with UNAVAILABLE instead of
// all hanging), and under l7-proxy with envoy-retries (Envoy's per-try timeout sends the frozen
// replica's calls to the other one: fewer hang); each pair's steady run; the results as results.md and
// CSV. A missing prerequisite fails under CI=true and skips elsewhere (needs.ts).
import type { NetworkProfile } from '../src/network/stage';
import { validateProfile } from '../src/network/stage/profile';
import { findStrategy } from '../src/network/service/balancing';
import { parseRecoveries } from '../src/network/service/recovery';
import { parseFaults } from '../src/suites/service/faults';
import { faultsCsv } from '../src/suites/service/render-faults';
import { recoveryCsv } from '../src/suites/service/render-recovery';
import { renderServiceMarkdown } from '../src/suites/service/render';
import { describeNeeding } from './needs';
import { measureOnStage, serviceStageMissing } from './service-stage';

const tiny: NetworkProfile = validateProfile({ name: 'test-tiny', description: 'test only: 3 ms each way', topology: 'namespaces', oneWayDelayMs: 3, rateMbit: null, loss: 0 });

// The frozen phase (4 s) outlasts the deadline (3 s), which outlasts keep-alive's detection (≤ 2 s) and Envoy's per-try timeout (1 s).
const settings = { stepMs: 1000, warmupMs: 300, drainMs: 2000, deadlineMs: 3000, changeRate: 0, changePhaseMs: 2000, faultRate: 40, faultPhaseMs: 4000 };

describeNeeding('bench:service recovery tunings (root)', [serviceStageMissing(tiny)], () => {
  it('measures a frozen replica at the defaults and with grpc-keepalive (l4) and envoy-retries (l7-proxy), steady runs too, and writes them', async () => {
    const results = await measureOnStage(tiny, 'jest-rcv', { replicas: 2, millicores: null, strategies: [findStrategy('l4'), findStrategy('l7-proxy')], rates: [40], security: null, transports: ['grpc'], faults: parseFaults(['replica-freeze']), recoveries: parseRecoveries(['grpc-keepalive', 'envoy-retries']) }, settings);
    expect(results.failures).toEqual([]);
    const cell = (strategy: string, recovery: string) => results.faults!.find((f) => f.strategy === strategy && (f.recoveryTuning ?? 'none') === recovery)!;
    expect(results.faults!.map((f) => `${f.strategy} ${f.recoveryTuning}`)).toEqual(['l4 none', 'l4 grpc-keepalive', 'l7-proxy none', 'l7-proxy envoy-retries']);
    for (const f of results.faults!) expect(f.ok + f.failed + f.hung).toBe(f.due);
    // Defaults, pinned: every call on the frozen replica's connection hangs to its deadline.
    expect(cell('l4', 'none').hung).toBeGreaterThan(0);
    expect(Object.keys(cell('l4', 'none').byKind).some((k) => /UNAVAILABLE/.test(k))).toBe(false);
    // Keep-alive reached the driver's channel: the unanswered PING dropped the connection, and its calls failed fast.
    expect(Object.keys(cell('l4', 'grpc-keepalive').byKind).some((k) => /UNAVAILABLE/.test(k))).toBe(true);
    // The retry policy reached Envoy: the frozen replica's calls were tried again on the other after 1 s.
    expect(cell('l7-proxy', 'envoy-retries').hung).toBeLessThan(cell('l7-proxy', 'none').hung);
    // Steady runs: each recovery with nothing failing, a step at the fault rate.
    expect(results.recovery!.map((c) => `${c.strategy} ${c.recoveryTuning}`)).toEqual(['l4 none', 'l4 grpc-keepalive', 'l7-proxy none', 'l7-proxy envoy-retries']);
    for (const c of results.recovery!) {
      expect(c.offeredPerS).toBe(40);
      expect(c.ok).toBeGreaterThan(0);
      expect(c.cpuPer1000CallsMs).toBeGreaterThan(0);
    }
    // Written: the report's recovery section, the fault table's recovery column, recovery.csv.
    const md = renderServiceMarkdown({ schemaVersion: 2, suite: 'service', incomplete: false, provenance: {}, settings: { ...settings, startedAt: 'now', preset: 'quick', cpuCount: 2, cores: '2 CPUs' }, plan: {}, results });
    expect(md).toContain('## Recovery tunings');
    expect(md).toMatch(/\| grpc-keepalive \| l4 \| grpc \| replica-freeze \|/);
    expect(md).toMatch(/\| envoy-retries \| l7-proxy \| grpc \| 40 \|/);
    expect(faultsCsv(results)).toMatch(/^l4,grpc,replica-freeze,grpc-keepalive,/m);
    const csv = recoveryCsv(results).trim().split('\n');
    expect(csv.slice(1).map((line) => line.split(',').slice(0, 4).join(' '))).toEqual(['grpc-keepalive l4 grpc replica-freeze', 'grpc-keepalive l4 grpc steady', 'envoy-retries l7-proxy grpc replica-freeze', 'envoy-retries l7-proxy grpc steady']);
  }, 400_000);
});
