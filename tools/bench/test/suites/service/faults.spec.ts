// bench:service's faults without root (issue #45): the records, the option's checks, the commands
// replica-lost runs, the failure kinds, what the figures make of made-up calls and counters, and the
// renders (table, timeline chart, CSV).
import { BALANCING_STRATEGIES, findStrategy } from '../../../src/network/service/balancing';
import { FAULT_NAMES, FAULTS, faultOptionHelp, lostReplicaCommands, parseFaults } from '../../../src/suites/service/faults';
import { failureKind, isHung, CallRecorder, type CallLog } from '../../../src/suites/service/call-log';
import { faultFigures, type CounterPoll } from '../../../src/suites/service/fault-figures';
import { faultsCannotRun, SERVICE_SUITE } from '../../../src/suites/service/main';
import { faultCharts, faultsCsv, faultTable, faultTimelineCsv } from '../../../src/suites/service/render-faults';
import type { FaultCell } from '../../../src/suites/service/fault-run';
import type { ServiceResults } from '../../../src/suites/service/measure';
import { runOpenLoop } from '../../../src/suites/service/open-loop';

describe('faults as records', () => {
  it('are sibling records of one shape, each saying what it does, what it stands for and how it is undone', () => {
    expect(FAULT_NAMES).toEqual(['replica-kill', 'replica-freeze', 'replica-lost', 'sidecar-kill', 'dns-outage', 'broker-kill']);
    for (const f of FAULTS) {
      expect(Object.keys(f).sort()).toEqual(['does', 'models', 'name', 'notFor', 'target', 'undo']);
      for (const text of [f.does, f.models, f.undo]) expect(text.length).toBeGreaterThan(5);
      expect(faultOptionHelp()).toContain(`${f.name}: ${f.does}`); // the help is made from the records
    }
  });

  it('apply only where the strategy has the component, saying why elsewhere', () => {
    const applies = (fault: string, strategy: string, transport: 'grpc' | 'nest-nats' = 'grpc') => FAULTS.find((f) => f.name === fault)!.notFor(findStrategy(strategy), transport);
    for (const s of BALANCING_STRATEGIES) expect(applies('replica-kill', s.name)).toBeNull();
    expect(applies('sidecar-kill', 'l7-proxy')).toBeNull();
    expect(applies('sidecar-kill', 'l4')).toMatch(/no Envoy/);
    expect(applies('dns-outage', 'dns-round-robin')).toBeNull();
    expect(applies('dns-outage', 'l7-proxy')).toMatch(/resolves no name/);
    expect(applies('broker-kill', 'broker', 'nest-nats')).toBeNull();
    expect(applies('broker-kill', 'l4')).toMatch(/no broker/);
  });

  it('are read once each in the records\' order (broker-kill, not undone, last), and unknown names refused', () => {
    expect(parseFaults(['broker-kill', 'replica-lost', 'replica-kill', 'replica-lost']).map((f) => f.name)).toEqual(['replica-kill', 'replica-lost', 'broker-kill']);
    expect(parseFaults(undefined)).toEqual([]);
    expect(() => parseFaults(['replica-melt'])).toThrow(/unknown fault "replica-melt"/);
  });

  it('makes a fault that applies to none of the run\'s pairs a usage error, naming why', () => {
    expect(faultsCannotRun(parseFaults(['replica-kill']), ['grpc'], ['l4'])).toBeNull();
    expect(faultsCannotRun(parseFaults(['sidecar-kill', 'replica-kill']), ['grpc', 'http-json'], ['l4', 'dns-round-robin'])).toMatch(/--fault sidecar-kill: applies to none.*no Envoy/);
    expect(SERVICE_SUITE.spec.extraOptions!.fault).toMatchObject({ kind: 'list', choices: FAULT_NAMES });
  });

  it("drops a lost replica's traffic inside the stage's server namespace only, and takes the same rules out", () => {
    const inject = lostReplicaCommands('nbx-x-server', '198.18.4.12', 'inject');
    const clear = lostReplicaCommands('nbx-x-server', '198.18.4.12', 'clear');
    expect(inject).toHaveLength(4);
    for (const c of [...inject, ...clear]) expect(c.argv.slice(0, 5)).toEqual(['ip', 'netns', 'exec', 'nbx-x-server', 'iptables']);
    expect(inject.map((c) => c.argv.slice(6).join(' '))).toEqual(['-I FORWARD 1 -s 198.18.4.12 -j DROP', '-I FORWARD 1 -d 198.18.4.12 -j DROP', '-I INPUT 1 -s 198.18.4.12 -j DROP', '-I OUTPUT 1 -d 198.18.4.12 -j DROP']);
    expect(clear.map((c) => c.argv.slice(6).join(' '))).toEqual(['-D FORWARD -s 198.18.4.12 -j DROP', '-D FORWARD -d 198.18.4.12 -j DROP', '-D INPUT -s 198.18.4.12 -j DROP', '-D OUTPUT -d 198.18.4.12 -j DROP']);
  });
});

describe("what the callers saw", () => {
  it('names a failure by its status or socket error, and tells a hung call from a fast failure', () => {
    expect(failureKind('gRPC UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 198.18.4.11:9090')).toBe('gRPC UNAVAILABLE (ECONNREFUSED)');
    expect(failureKind('gRPC DEADLINE_EXCEEDED: Deadline exceeded after 1.001s')).toBe('gRPC DEADLINE_EXCEEDED');
    expect(failureKind('HTTP 503')).toBe('HTTP 503');
    expect(failureKind('read ECONNRESET')).toBe('ECONNRESET');
    expect(failureKind('timeout after 1000 ms')).toBe('timeout (deadline)');
    expect(failureKind('DEADLINE_EXCEEDED: no reply within the call\'s deadline of 1000 ms')).toBe('DEADLINE_EXCEEDED');
    expect(['gRPC DEADLINE_EXCEEDED', 'timeout (deadline)', 'DEADLINE_EXCEEDED', 'no reply (abandoned after the drain)'].every(isHung)).toBe(true);
    expect(['gRPC UNAVAILABLE (ECONNREFUSED)', 'HTTP 503', 'ECONNRESET'].some(isHung)).toBe(false);
  });

  it('tells the observer of calls abandoned after the drain too', async () => {
    const recorder = new CallRecorder();
    await runOpenLoop({ rate: 100, durationMs: 50, maxInFlight: 10, drainMs: 50, observe: (...a) => recorder.observe(...a) }, () => new Promise<void>(() => undefined));
    const log = recorder.close();
    expect(log.calls.length / 3).toBe(5);
    expect(log.kinds).toEqual(['ok', 'no reply (abandoned after the drain)']);
  });

  /** Calls at `rate` for `ms`, each ok unless `outcome` says otherwise (a kind and a latency). */
  function calls(rate: number, ms: number, outcome: (dueMs: number) => { kind: string; latencyMs: number } | null): CallLog {
    const kinds = ['ok'];
    const out: number[] = [];
    for (let due = 0; due < ms; due += 1000 / rate) {
      const o = outcome(due) ?? { kind: 'ok', latencyMs: 5 };
      if (!kinds.includes(o.kind)) kinds.push(o.kind);
      out.push(due, due + o.latencyMs, kinds.indexOf(o.kind));
    }
    return { kinds, calls: out };
  }
  /** Counter polls every 100 ms: r1 served everything until `faultMs`, then nothing (silent), r2 the rest from `carryMs`. */
  function polls(rate: number, ms: number, faultMs: number, carryMs: number, backMs: number): CounterPoll[] {
    const out: CounterPoll[] = [];
    for (let at = 0; at <= ms; at += 100) {
      const r1 = at <= faultMs ? (rate * at) / 1000 : at >= backMs ? (rate * faultMs) / 1000 : null;
      const r2 = at < carryMs ? 0 : (rate * (at - carryMs)) / 1000;
      out.push({ atMs: at, requests: { r1, r2 }, cpuMs: { r1: r1 === null ? null : at / 10, r2: at / 10 }, driverCpuMs: at / 5, proxyCpuMs: null });
    }
    return out;
  }
  const times = { injectedAtMs: 2000, undoneAtMs: 4000, endMs: 6000, rate: 100, faulted: 'r1' };

  it('counts failed, hung and slow calls by kind, the first failure, when the callers were whole again and when the others carried every call', () => {
    // Calls due in the first 500 ms of the fault fail fast, the next 200 ms hang to a 1 s deadline, then all succeed.
    const log = calls(100, 6000, (due) => (due >= 2000 && due < 2500 ? { kind: 'gRPC UNAVAILABLE (ECONNREFUSED)', latencyMs: 2 } : due >= 2500 && due < 2700 ? { kind: 'gRPC DEADLINE_EXCEEDED', latencyMs: 1000 } : null));
    const f = faultFigures(log, polls(100, 6000, 2000, 2700, 4100), times);
    expect(f).toMatchObject({ due: 600, failed: 50, hung: 20, slow: 0, ok: 530, byKind: { 'gRPC UNAVAILABLE (ECONNREFUSED)': 50, 'gRPC DEADLINE_EXCEEDED': 20 } });
    expect(f.firstFailureAfterMs).toBe(2);
    expect(f.recovery).toBe('before the undo');
    expect(f.recoveredAfterMs).toBe(690); // the due time of the last call that hung
    expect(f.survivorsCarryAfterMs).toBe(700); // r2's own counter from 2,700 ms
    expect(f.faulted).toEqual({ steadyShare: 1, silentFromMs: 100, answeredAgainAtMs: 2100, requestsAcross: 0 });
    expect(f.bins).toHaveLength(60);
    expect(f.bins[20]).toEqual({ atMs: 2000, ok: 0, failed: 10, hung: 0, p99Ms: 2 });
    expect(f.bins[25]).toMatchObject({ atMs: 2500, ok: 0, failed: 0, hung: 10, p99Ms: 1000 });
    expect(f.cpuMsPerS.steady).toBeCloseTo(200 + 100 + 100);
  });

  it('says when the callers were whole only after the undo, or not in the run, and counts calls held by a frozen replica as slow', () => {
    // A frozen replica: every call due in the fault phase answered once it is let go (SIGCONT at 4 s).
    const held = calls(100, 6000, (due) => (due >= 2000 && due < 4000 ? { kind: 'ok', latencyMs: 4000 - due + 3 } : null));
    const f = faultFigures(held, polls(100, 6000, 2000, 99_999, 4000), times);
    // Slow: over 200 ms (5 × the steady p99 of 5 ms is less): those due from 2,000 to 3,800 ms.
    expect(f).toMatchObject({ failed: 0, hung: 0, slow: 181, slowMs: 200, recovery: 'after the undo', survivorsCarryAfterMs: null });
    expect(f.recoveredAfterMs).toBeCloseTo(1800, 0);
    // Calls in flight at the injection (due in its last 100 ms, held until the undo) are not the steady p99: it stays 5 ms, the threshold 200 ms.
    const inFlight = calls(100, 6000, (due) => (due >= 1900 && due < 4000 ? { kind: 'ok', latencyMs: 4000 - due + 3 } : null));
    expect(faultFigures(inFlight, [], times)).toMatchObject({ slowMs: 200, slow: 191 });
    const never = faultFigures(calls(100, 6000, (due) => (due >= 2000 ? { kind: 'HTTP 503', latencyMs: 1 } : null)), [], times);
    expect(never.recovery).toBe('not in the run');
    expect(never.recoveredAfterMs).toBeNull();
    const fine = faultFigures(calls(100, 6000, () => null), [], { ...times, faulted: null });
    expect(fine).toMatchObject({ recovery: 'nothing failed', recoveredAfterMs: 0, firstFailureAfterMs: null, faulted: null });
  });

  it('renders a table row, a recovery timeline per strategy and both CSV files', () => {
    const log = calls(100, 6000, (due) => (due >= 2000 && due < 2300 ? { kind: 'gRPC UNAVAILABLE', latencyMs: 2 } : null));
    const cell: FaultCell = {
      ...faultFigures(log, polls(100, 6000, 2000, 2300, 4100), times),
      strategy: 'l4', transport: 'grpc', fault: 'replica-kill', target: { what: 'r1 server-b', replica: 'r1', pid: 4242, why: 'busiest' },
      offeredPerS: 100, phaseMs: 2000, injectedAtMs: 2000, undoneAtMs: 4000, endMs: 6000, undo: 'its apps started again and listening', exits: [],
    };
    const results = { faults: [cell] } as unknown as ServiceResults;
    const row = faultTable(results).rows[0];
    expect(row.slice(0, 10)).toEqual(['l4', 'grpc', 'replica-kill', 'none', 'r1 server-b (pid 4242)', '100', '600', '30', '0', '0']);
    expect(row).toContain('gRPC UNAVAILABLE 30');
    const charts = faultCharts(results);
    expect(charts).toHaveLength(1);
    expect(charts[0].charts[0]).toContain('data-chart="fault-timeline"');
    expect(charts[0].charts[0].match(/data-outcome="failed"/g)).toHaveLength(3);
    expect(charts[0].charts[0]).toContain('data-mark="undone"');
    expect(charts[0].charts[0]).not.toMatch(/<script/);
    const summary = faultsCsv(results).trim().split('\n');
    expect(summary).toHaveLength(2);
    expect(summary[0]).toMatch(/^strategy,transport,fault,recovery,target,pid,/);
    expect(summary[1]).toMatch(/^l4,grpc,replica-kill,none,r1 server-b,4242,100,2000,/);
    const bins = faultTimelineCsv(results).trim().split('\n');
    expect(bins).toHaveLength(61);
    expect(bins[21]).toBe('l4,grpc,replica-kill,none,2000,0,10,0,2');
  });
});
