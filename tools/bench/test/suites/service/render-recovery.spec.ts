// The recovery tunings' factor table (pure): each recovery beside the same pair at its defaults, under
// each fault and in steady state, the factor (defaults ÷ with it), the tables and recovery.csv.
import { factor, recoveryCsv, recoveryFactors, recoveryFaultTable, recoverySteadyTable } from '../../../src/suites/service/render-recovery';
import type { FaultCell } from '../../../src/suites/service/fault-run';
import type { RecoverySteadyCell, ServiceResults } from '../../../src/suites/service/measure';

type Whole = FaultCell['recovery'];
const fault = (recoveryTuning: FaultCell['recoveryTuning'], failed: number, hung: number, slow: number, recoveredAfterMs: number | null, recovery: Whole): FaultCell =>
  ({ strategy: 'l4', transport: 'grpc', fault: 'replica-freeze', recoveryTuning, offeredPerS: 200, failed, hung, slow, recoveredAfterMs, recovery }) as unknown as FaultCell;
const steady = (recoveryTuning: RecoverySteadyCell['recoveryTuning'], p99Ms: number, cpu: number | null): RecoverySteadyCell =>
  ({ strategy: 'l4', transport: 'grpc', recoveryTuning, offeredPerS: 200, errors: 0, corrected: { p99Ms }, cpuPer1000CallsMs: cpu }) as unknown as RecoverySteadyCell;

describe('the recovery factor table', () => {
  it('divides the defaults by the recovery, saying nothing where a side is zero or missing', () => {
    expect(factor(100, 25)).toBe(4);
    expect(factor(0, 0)).toBe(1);
    expect(factor(10, 0)).toBeNull();
    expect(factor(null, 3)).toBeNull();
  });

  it('pairs each recovery with the same pair and fault (or rate) at its defaults, as tables and CSV', () => {
    // At the defaults 300 calls hang and the callers are whole only after the undo; with keep-alive 20 fail fast and they are whole after 2.1 s.
    const results = {
      faults: [fault('none', 0, 300, 700, 5000, 'after the undo'), fault('grpc-keepalive', 20, 0, 10, 2100, 'before the undo'), fault('grpc-retry', 0, 300, 700, null, 'not in the run')],
      recovery: [steady('none', 20, 300), steady('grpc-keepalive', 25, 330)],
    } as unknown as ServiceResults;
    const factors = recoveryFactors(results);
    expect(factors.map((f) => [f.recovery, f.under])).toEqual([
      ['grpc-keepalive', 'replica-freeze'],
      ['grpc-keepalive', 'steady'],
      ['grpc-retry', 'replica-freeze'],
    ]);
    expect(factors[0].none).toMatchObject({ lost: 300, hung: 300, slow: 700, wholeAgainMs: 5000 });
    expect(factors[0].with).toMatchObject({ lost: 20, hung: 0, slow: 10, wholeAgainMs: 2100 });
    expect(factors[2].with!.wholeAgainMs).toBeNull(); // not whole within the run
    const rows = recoveryFaultTable(results).rows;
    expect(rows[0]).toEqual(['grpc-keepalive', 'l4', 'grpc', 'replica-freeze', '300 → 20', '15×', '300 → 0', '700 → 10', '70×', '5,000 ms → 2,100 ms', '2.38×']);
    expect(rows[1].slice(9)).toEqual(['5,000 ms → not in the run', '—']);
    const steadyRows = recoverySteadyTable(results).rows;
    expect(steadyRows).toHaveLength(1);
    expect(steadyRows[0]).toEqual(['grpc-keepalive', 'l4', 'grpc', '200', expect.stringMatching(/^20.* → 25/), '0.80×', '300 → 330', '0.91×', '0 → 0']);
    const csv = recoveryCsv(results).trim().split('\n');
    expect(csv[0]).toBe('recovery,strategy,transport,under,rate_per_s,lost_none,lost_with,lost_factor,hung_none,hung_with,slow_none,slow_with,whole_again_ms_none,whole_again_ms_with,p99_ms_none,p99_ms_with,p99_factor,cpu_per_1000_calls_ms_none,cpu_per_1000_calls_ms_with,cpu_factor');
    expect(csv[1]).toBe('grpc-keepalive,l4,grpc,replica-freeze,200,300,20,15,300,0,700,10,5000,2100,,,,,,');
    expect(csv[2]).toBe('grpc-keepalive,l4,grpc,steady,200,0,0,1,,,,,,,20,25,0.8,300,330,0.909');
  });
});
