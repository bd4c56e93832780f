/**
 * What the stage can emulate, as data the profile validator checks against. Each figure says why.
 */
export const STAGE_LIMITS = Object.freeze({
  /**
   * Highest rate of a profile with a delay, in Mbit/s. The delayer (user space, one CPU) caps one
   * TCP flow at about 1.3–1.5 Gbit/s on the 2-core VMs this was built on: above 1 Gbit/s the profile's
   * rate would no longer be what limits, the delayer would.
   */
  maxRateWithDelayMbit: 1000,
  /** Highest rate without a delay (no delayer in the path: htb on veth alone). */
  maxRateMbit: 10_000,
  /** htb cannot shape meaningfully below a few kbit/s; 0.1 Mbit/s is far below any profile we want. */
  minRateMbit: 0.1,
  /** One-way delays above a second are outside what the bench measures (and TCP's initial RTO). */
  maxOneWayDelayMs: 1000,
  /**
   * tcp_rmem/tcp_wmem maximum pinned in every namespace of the stage. A profile whose bandwidth-delay
   * product (rate × RTT) exceeds a quarter of it could not be filled by one flow (the receive window
   * is about half the buffer, and the sender needs headroom for retransmissions).
   */
  tcpBufferMaxBytes: 32 * 1024 * 1024,
});

/** When calibration refuses: achieved off the profile by more than 10 % or 0.3 ms, whichever is larger. */
export const CALIBRATION_TOLERANCE = Object.freeze({ relative: 0.1, absoluteMs: 0.3 });
