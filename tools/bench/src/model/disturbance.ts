// What else the machine did during a visit (issue #43): the CPU that processes outside the run used, and
// the time the hypervisor took (steal), each as a share of the machine's CPU over the visit. measure/
// reads them from /proc around each visit; a visit above DISTURBED_SHARE is flagged in every export.

/**
 * A visit is disturbed when processes outside the run and steal took more than this share of the
 * machine's CPU time over it (all cores). docs/method.md#disturbance justifies it.
 */
export const DISTURBED_SHARE = 0.1;

/** One visit's disturbance, as each of its cells keeps it. */
export interface VisitDisturbance {
  /** Which visit of its case (1-based) and on which fork (0: no forks). */
  visit: number;
  fork: number;
  /** When it started (the same on every transport's cell of the visit) and how long it ran. */
  startedAt: string;
  wallMs: number;
  /** CPU of processes outside the run (user + nice + system, less the run's own), ÷ the machine's CPU time over the visit. */
  outsideShare: number;
  /** Steal time ÷ the machine's CPU time over the visit. */
  stealShare: number;
}

/** Whether a visit counts as disturbed: other processes and steal together above DISTURBED_SHARE. */
export function isDisturbed(d: Pick<VisitDisturbance, 'outsideShare' | 'stealShare'>): boolean {
  return d.outsideShare + d.stealShare > DISTURBED_SHARE;
}

const percent = (share: number) => `${(share * 100).toFixed(0)} %`;

/** "other processes 48 %, steal 0 % of the machine's CPU": one visit's disturbance in words. */
export function describeDisturbance(d: Pick<VisitDisturbance, 'outsideShare' | 'stealShare'>): string {
  return `other processes ${percent(d.outsideShare)}, steal ${percent(d.stealShare)} of the machine's CPU`;
}
