import { allowedRttErrorMs, bulkBytesFor, judge, type Achieved } from '../../../src/network/stage/calibration';
import { expectedGoodputMbit } from '../../../src/network/stage/figures';
import { profileRecord as profile } from './profile-record';

describe('calibration verdict', () => {
  const achieved = (over: Partial<Achieved> = {}): Achieved => ({
    tcpConnectRttMs: { median: 20.5, min: 20, max: 22, samples: 21 },
    pingRttMs: { median: 20.4, min: 20, max: 21, samples: 20, lost: 0 },
    throughput: { bytes: 1, seconds: 1, firstByteSeconds: 0.02, averageMbit: 90, steadyMbit: 95 },
    loss: { forwarded: 100_000, dropped: 100, observed: 0.001 },
    delayerDrops: 0,
    ...over,
  });
  const expected = { rttMs: 20, goodputMbit: expectedGoodputMbit(100, 1500), loss: 0.001 };

  it('allows 10 % or 0.3 ms, whichever is larger', () => {
    expect(allowedRttErrorMs(20)).toBe(2);
    expect(allowedRttErrorMs(2)).toBe(0.3);
    expect(allowedRttErrorMs(0)).toBe(0.3);
  });

  it('is ok when RTT, throughput and loss are what the profile says', () => {
    expect(judge(profile(), expected, achieved())).toEqual({ verdict: 'ok', reasons: [] });
  });

  it('refuses with the reason when the RTT, rate or loss is off, or the delayer dropped packets', () => {
    const verdict = judge(
      profile(),
      expected,
      achieved({
        tcpConnectRttMs: { median: 23, min: 22, max: 25, samples: 21 },
        throughput: { bytes: 1, seconds: 1, firstByteSeconds: 0, averageMbit: 50, steadyMbit: 60 },
        loss: { forwarded: 100_000, dropped: 0, observed: 0 },
        delayerDrops: 7,
      }),
    );
    expect(verdict.verdict).toBe('refuse');
    expect(verdict.reasons).toEqual([
      "TCP connect RTT 23 ms is 3 ms off the profile's 20 ms (allowed ±2 ms)",
      'steady throughput 60 Mbit/s is off the 95.6 Mbit/s of TCP payload that 100 Mbit/s carries (allowed ±10 %)',
      'the router dropped 0 of 100000 packets (0 %), not ≈ 0.1 %',
      'the kernel dropped 7 packets the delayer could not take in time (loss the profile does not have)',
    ]);
  });

  it('sizes the bulk transfer to the rate and RTT: slow start over before the timed half, seconds at most', () => {
    const MiB = 2 ** 20;
    expect(bulkBytesFor(profile({ rateMbit: null }), 0.1)).toBe(64 * MiB);
    expect(bulkBytesFor(profile({ rateMbit: 100 }), 80) / MiB).toBeCloseTo(28.6, 1); // 0.8 s + 1.6 s at 100 Mbit/s
    expect(bulkBytesFor(profile({ rateMbit: 1000 }), 20) / MiB).toBeCloseTo(83.4, 1); // 0.2 s + 0.5 s at 1 Gbit/s
    expect(bulkBytesFor(profile({ rateMbit: 1 }), 2)).toBe(4 * MiB);
  });
});
