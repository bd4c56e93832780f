// The round trip a network profile asks for. Profiles give the delay of one direction (the way netem and
// the delayer hold packets); deadlines, calibration and reports speak of the RTT, which is both ways.

/** The RTT in ms that a profile's one-way delay makes. */
export function rttMs(profile: { oneWayDelayMs: number }): number {
  return 2 * profile.oneWayDelayMs;
}
