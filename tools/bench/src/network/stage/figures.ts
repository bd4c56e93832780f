/** Small pure helpers to turn samples and tool output into figures. */

export interface Summary {
  median: number;
  min: number;
  max: number;
  samples: number;
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new Error('no samples to summarize');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median: round(median), min: round(sorted[0]), max: round(sorted[sorted.length - 1]), samples: sorted.length };
}

export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** The RTTs `ping` printed ("time=0.123 ms") and how many it sent. */
export function parsePing(output: string): { rttsMs: number[]; transmitted: number } {
  const rttsMs = [...output.matchAll(/time=([\d.]+) ms/g)].map((m) => Number(m[1]));
  const sent = /(\d+) packets transmitted/.exec(output);
  return { rttsMs, transmitted: sent ? Number(sent[1]) : rttsMs.length };
}

/** Packet counts of the FORWARD chain's rules, in order, from `iptables -L FORWARD -v -x -n --line-numbers`. */
export function parseRuleCounters(output: string): number[] {
  return output
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+\d+/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[2]));
}

/**
 * TCP payload rate a link of `rateMbit` carries when htb counts whole frames: per full segment,
 * mtu − 52 bytes of payload (IP 20, TCP 20, timestamps 12) for mtu + 14 bytes (Ethernet header) on the
 * wire.
 */
export function expectedGoodputMbit(rateMbit: number, mtu: number): number {
  return (rateMbit * (mtu - 52)) / (mtu + 14);
}

/** Kernel counters of the netfilter queue (/proc/net/netfilter/nfnetlink_queue, as seen from a namespace). */
export function parseQueueCounters(text: string, queue: number): { queueDropped: number; userDropped: number } | null {
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/).map(Number);
    if (f.length >= 7 && f[0] === queue) return { queueDropped: f[5], userDropped: f[6] };
  }
  return null;
}
