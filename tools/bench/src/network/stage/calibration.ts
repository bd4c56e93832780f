import { CALIBRATION_TOLERANCE } from './limits';
import type { NetworkProfile } from './profile';
import { round, type Summary } from './figures';
import type { BulkResult } from './probes';

/** What calibration measured between the client and server namespaces. */
export interface Achieved {
  /** TCP connect time (SYN → SYN-ACK as the client sees it): the RTT the apps' connections get. */
  tcpConnectRttMs: Summary;
  /** ICMP echo RTT; null when ping is not installed. */
  pingRttMs: (Summary & { lost: number }) | null;
  /** One bulk transfer server → client; `steadyMbit` is over its second half (after slow start). */
  throughput: BulkResult;
  /** Packets the router forwarded and dropped during calibration; null when the profile has no loss. */
  loss: { forwarded: number; dropped: number; observed: number } | null;
  /** Packets the kernel dropped because the delayer could not keep up (queue full or socket overrun). */
  delayerDrops: number;
}

/** What the profile asks for, in the terms calibration measures. */
export interface Expected {
  rttMs: number;
  /** TCP payload rate the profile's link rate carries (null: no rate limit). */
  goodputMbit: number | null;
  loss: number;
}

export interface Verdict {
  verdict: 'ok' | 'refuse';
  reasons: string[];
}

/** Largest allowed difference from an expected figure: 10 % of it or 0.3 ms, whichever is larger. */
export function allowedRttErrorMs(expectedMs: number): number {
  return Math.max(CALIBRATION_TOLERANCE.relative * expectedMs, CALIBRATION_TOLERANCE.absoluteMs);
}

/**
 * Compares what was achieved with what the profile asks for. "refuse" means the stage is not the
 * network the profile describes, so measurements on it would be attributed to the wrong network.
 */
export function judge(profile: NetworkProfile, expected: Expected, achieved: Achieved): Verdict {
  const reasons: string[] = [];
  const rtt = (label: string, measured: number) => {
    const allowed = allowedRttErrorMs(expected.rttMs);
    if (Math.abs(measured - expected.rttMs) > allowed) {
      reasons.push(`${label} RTT ${measured} ms is ${round(measured - expected.rttMs)} ms off the profile's ${expected.rttMs} ms (allowed ±${round(allowed)} ms)`);
    }
  };
  rtt('TCP connect', achieved.tcpConnectRttMs.median);
  if (achieved.pingRttMs && achieved.pingRttMs.samples > 0) rtt('ping', achieved.pingRttMs.median);
  if (achieved.pingRttMs && achieved.pingRttMs.samples === 0) reasons.push('ping got no reply from the server namespace');
  if (expected.goodputMbit !== null) {
    const measured = achieved.throughput.steadyMbit;
    if (!(Math.abs(measured - expected.goodputMbit) <= CALIBRATION_TOLERANCE.relative * expected.goodputMbit)) {
      reasons.push(
        `steady throughput ${round(measured, 1)} Mbit/s is off the ${round(expected.goodputMbit, 1)} Mbit/s of TCP payload that ${profile.rateMbit} Mbit/s carries (allowed ±${CALIBRATION_TOLERANCE.relative * 100} %)`,
      );
    }
  }
  if (achieved.loss) {
    // The statistic match draws each packet independently: a binomial count. Beyond 4 standard
    // deviations the rule is not doing what the profile says (chance: about 1 in 16,000).
    const { forwarded, dropped } = achieved.loss;
    const mean = forwarded * expected.loss;
    const sd = Math.sqrt(forwarded * expected.loss * (1 - expected.loss));
    if (Math.abs(dropped - mean) > 4 * sd + 1) {
      reasons.push(`the router dropped ${dropped} of ${forwarded} packets (${round(achieved.loss.observed * 100, 3)} %), not ≈ ${round(expected.loss * 100, 3)} %`);
    }
  }
  if (achieved.delayerDrops > 0) reasons.push(`the kernel dropped ${achieved.delayerDrops} packets the delayer could not take in time (loss the profile does not have)`);
  return { verdict: reasons.length ? 'refuse' : 'ok', reasons };
}

/**
 * Bytes for the calibration's bulk transfer: long enough that slow start (≈ 10 RTTs to open the
 * window) is over well before the second half, which is what is timed; short enough to take a few
 * seconds at most. Without a rate limit, a fixed 64 MiB.
 */
export function bulkBytesFor(profile: NetworkProfile, rttMs: number): number {
  const MiB = 2 ** 20;
  if (profile.rateMbit === null) return 64 * MiB;
  const rtt = rttMs / 1000;
  const seconds = 10 * rtt + Math.max(0.5, 20 * rtt);
  const bytes = ((profile.rateMbit * 1e6) / 8) * seconds;
  return Math.round(Math.min(Math.max(bytes, 4 * MiB), 128 * MiB));
}
