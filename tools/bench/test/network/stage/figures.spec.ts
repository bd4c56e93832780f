import { expectedGoodputMbit, parsePing, parseQueueCounters, parseRuleCounters, summarize } from '../../../src/network/stage/figures';

describe('figures', () => {
  it('summarize gives the median of odd and even counts', () => {
    expect(summarize([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, samples: 3 });
    expect(summarize([4, 1, 2, 3]).median).toBe(2.5);
  });

  it('parse ping, iptables counters and the queue counters', () => {
    const ping = '64 bytes from 198.18.2.2: icmp_seq=1 ttl=63 time=20.4 ms\n64 bytes from 198.18.2.2: icmp_seq=2 ttl=63 time=20.6 ms\n\n--- 198.18.2.2 ping statistics ---\n3 packets transmitted, 2 received, 33% packet loss';
    expect(parsePing(ping)).toEqual({ rttsMs: [20.4, 20.6], transmitted: 3 });
    const iptables = `Chain FORWARD (policy ACCEPT 0 packets, 0 bytes)
num      pkts      bytes target     prot opt in     out     source               destination
1       12345  9876543            all  --  *      *       0.0.0.0/0            0.0.0.0/0
2          12    18000 DROP       all  --  *      *       0.0.0.0/0            0.0.0.0/0            statistic mode random probability 0.00100000005
3       12333  9858543 NFQUEUE    all  --  *      *       0.0.0.0/0            0.0.0.0/0            NFQUEUE num 0`;
    expect(parseRuleCounters(iptables)).toEqual([12345, 12, 12333]);
    expect(parseQueueCounters('    0  12046     0 1     0     3     4       40  1\n', 0)).toEqual({ queueDropped: 3, userDropped: 4 });
    expect(parseQueueCounters('', 0)).toBeNull();
  });

  it('expected goodput is the payload share of full frames', () => {
    expect(expectedGoodputMbit(100, 1500)).toBeCloseTo(95.64, 2);
  });
});
