/**
 * What the stage can emulate, as data the profile validator checks against. Each figure says why.
 */
export const STAGE_LIMITS = Object.freeze({
  /**
   * Highest rate of a profile with a delay, in Mbit/s. With offloads on, the delayer (user space)
   * carried one client → server TCP flow at about 2.2 Gbit/s on the 2-core VM it was built on (the
   * router's end facing the servers segments in software, so the servers' end can receive in its own
   * thread; 8 Gbit/s without that); 1 Gbit/s, the fastest link the profiles model, stays below it.
   */
  maxRateWithDelayMbit: 1000,
  /**
   * Highest rate of a profile with a delay and loss. Loss needs offloads off, so the delayer handles
   * every 1,500-byte packet: it carried one flow at about 780 Mbit/s, using 1.2 cores (18 µs per
   * packet). At 500 Mbit/s the profile's rate, not the delayer, is still what limits.
   */
  maxRateWithDelayAndLossMbit: 500,
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
