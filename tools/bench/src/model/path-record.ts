// The path section of a run (provenance.path): what the client measured of its way to each server,
// before the variant's first visit and after its last, per network and variant. The network stage's
// calibration says what the stage built; this says what the apps themselves see, wherever they run.

/** A figure of a path report: its median and the spread of its samples. */
interface Figure {
  median: number;
  min: number;
  max: number;
}

/** The figures compared between before and after, by name, from a client's GET /bench/path report. */
export function pathFigures(report: unknown): Record<string, Figure> {
  type Bulk = { medianMbit?: number; minMbit?: number; maxMbit?: number };
  type Times = { medianMs?: number; minMs?: number; maxMs?: number };
  const r = report as {
    serverA?: { tcpConnectMs?: Times; bulk?: Bulk };
    serverB?: { tcpConnectMs?: Times; http2PingMs?: Times; bulk?: Bulk };
  };
  const ms = (s?: Times) => (typeof s?.medianMs === 'number' ? { median: s.medianMs, min: s.minMs ?? s.medianMs, max: s.maxMs ?? s.medianMs } : undefined);
  const mbit = (b?: Bulk) => (typeof b?.medianMbit === 'number' ? { median: b.medianMbit, min: b.minMbit ?? b.medianMbit, max: b.maxMbit ?? b.medianMbit } : undefined);
  const figures: Record<string, Figure | undefined> = {
    'server-a RTT (TCP connect) ms': ms(r?.serverA?.tcpConnectMs),
    'server-a Mbit/s': mbit(r?.serverA?.bulk),
    'server-b RTT (TCP connect) ms': ms(r?.serverB?.tcpConnectMs),
    'server-b RTT (HTTP/2 PING) ms': ms(r?.serverB?.http2PingMs),
    'server-b Mbit/s': mbit(r?.serverB?.bulk),
  };
  return Object.fromEntries(Object.entries(figures).filter((e): e is [string, Figure] => e[1] !== undefined));
}

/** Below this an RTT is loopback's noise: only a change of more than 0.3 ms counts. */
const RTT_FLOOR_MS = 0.3;

/**
 * The figures whose median after the run lies more than 10 % outside the range measured before it
 * (an RTT also by more than 0.3 ms): the spread of the before samples is the noise, not a change.
 */
export function pathChanges(before: unknown, after: unknown): string[] {
  const a = pathFigures(before);
  const b = pathFigures(after);
  return Object.keys(a)
    .filter((name) => name in b)
    .filter((name) => {
      const [x, y] = [a[name], b[name].median];
      const outside = y > x.max * 1.1 ? y - x.max : y < x.min * 0.9 ? x.min - y : 0;
      return outside > 0 && (!name.endsWith(' ms') || outside > RTT_FLOOR_MS);
    })
    .map((name) => `${name} ${fmt(a[name].median)} → ${fmt(b[name].median)}`);
}

function fmt(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** "client → server-a: RTT 21.30 ms, 940 Mbit/s; client → server-b: RTT 21.28 ms (HTTP/2 PING 21.10 ms), 910 Mbit/s" */
export function describePath(report: unknown): string {
  const whole = (report as { error?: unknown } | null)?.error;
  if (typeof whole === 'string') return `not measured (${whole})`;
  const f = Object.fromEntries(Object.entries(pathFigures(report)).map(([k, v]) => [k, v.median])) as Record<string, number | undefined>;
  const part = (value: number | undefined, text: (v: string) => string) => (value === undefined ? '' : text(fmt(value)));
  const a = `client → server-a:${part(f['server-a RTT (TCP connect) ms'], (v) => ` RTT ${v} ms`)}${part(f['server-a Mbit/s'], (v) => `, ${v} Mbit/s`)}`;
  const b = `client → server-b:${part(f['server-b RTT (TCP connect) ms'], (v) => ` RTT ${v} ms`)}${part(f['server-b RTT (HTTP/2 PING) ms'], (v) => ` (HTTP/2 PING ${v} ms)`)}${part(f['server-b Mbit/s'], (v) => `, ${v} Mbit/s`)}`;
  const errors = ['serverA', 'serverB'].flatMap((side) =>
    Object.entries(((report as Record<string, Record<string, unknown>>)?.[side] ?? {}) as Record<string, { error?: string }>)
      .filter(([, v]) => typeof v === 'object' && v !== null && typeof v.error === 'string')
      .map(([k, v]) => `${side} ${k}: ${v.error}`),
  );
  return `${a}; ${b}${errors.length ? ` (not measured: ${errors.join('; ')})` : ''}`;
}

export interface PathRecord {
  before: unknown;
  after: unknown;
  /** Figures that moved by more than 10 % between before and after. */
  changed: string[];
}
