/** One network profile: a record below (profile.ts validates them). Adding a profile is adding a record. */
export interface NetworkProfile {
  name: string;
  description: string;
  /**
   * `loopback`: no stage (apps on 127.0.0.1); `namespaces`: client — router — server namespaces;
   * `deployment`: no stage, the apps where a deployment put them (--client-url; never a record below).
   */
  topology: 'loopback' | 'namespaces' | 'deployment';
  /** Delay each packet gets in each direction; the RTT aimed at is twice this. */
  oneWayDelayMs: number;
  /** Rate of each direction of the router (htb), or null for no limit. */
  rateMbit: number | null;
  /** Fraction of packets dropped at random in each direction, 0 ≤ loss < 1. */
  loss: number;
  /** Uniform jitter ± this around the one-way delay (packet order is kept). */
  jitterMs?: number;
}

/**
 * The network profiles, as data: adding a profile is adding a record here (loadProfiles validates
 * every record, so a bad one fails with its name and field). One-way figures apply to each direction.
 */
export const PROFILE_RECORDS: readonly NetworkProfile[] = [
  {
    name: 'loopback',
    description: "No stage: every app on 127.0.0.1 in the host's namespace, as the bench has always run",
    topology: 'loopback',
    oneWayDelayMs: 0,
    rateMbit: null,
    loss: 0,
  },
  {
    name: 'veth',
    description: 'Client and servers in separate namespaces joined through a router namespace by veth pairs; no added delay, rate or loss',
    topology: 'namespaces',
    oneWayDelayMs: 0,
    rateMbit: null,
    loss: 0,
  },
  {
    name: 'zone',
    description: 'Two hosts in one availability zone: about 2 ms RTT at 1 Gbit/s',
    topology: 'namespaces',
    oneWayDelayMs: 1,
    rateMbit: 1000,
    loss: 0,
  },
  {
    name: 'region',
    description: 'Two zones of one region: about 20 ms RTT at 1 Gbit/s',
    topology: 'namespaces',
    oneWayDelayMs: 10,
    rateMbit: 1000,
    loss: 0,
  },
  {
    name: 'wan',
    description: 'Across a continent over the internet: about 80 ms RTT, 100 Mbit/s, 0.1 % of packets lost in each direction',
    topology: 'namespaces',
    oneWayDelayMs: 40,
    rateMbit: 100,
    loss: 0.001,
  },
];
