import { describePath, pathChanges, pathFigures } from '../../src/model/path-record';

const report = (rttA: number, mbit: number, rttB: number, ping: number) => ({
  measuredAt: '2026-11-24T00:00:00.000Z',
  serverA: { address: '198.18.2.2:3001', tcpConnectMs: { n: 10, medianMs: rttA, minMs: rttA, maxMs: rttA }, bulk: { bytes: 8388608, n: 3, medianMbit: mbit, minMbit: mbit * 0.95, maxMbit: mbit * 1.05 } },
  serverB: { address: '198.18.2.2:3002', tcpConnectMs: { n: 10, medianMs: rttB, minMs: rttB, maxMs: rttB }, http2PingMs: { n: 10, medianMs: ping, minMs: ping, maxMs: ping }, bulk: { bytes: 8388608, n: 3, medianMbit: mbit, minMbit: mbit, maxMbit: mbit, http2WindowBytes: 16777216 } },
});

describe('the path section', () => {
  it('reads the figures a client reports and prints them in one line', () => {
    expect(pathFigures(report(21.3, 940, 21.28, 21.1))).toEqual({
      'server-a RTT (TCP connect) ms': { median: 21.3, min: 21.3, max: 21.3 },
      'server-a Mbit/s': { median: 940, min: 893, max: 987 },
      'server-b RTT (TCP connect) ms': { median: 21.28, min: 21.28, max: 21.28 },
      'server-b RTT (HTTP/2 PING) ms': { median: 21.1, min: 21.1, max: 21.1 },
      'server-b Mbit/s': { median: 940, min: 940, max: 940 },
    });
    expect(describePath(report(21.3, 940, 21.28, 21.1))).toBe('client → server-a: RTT 21.3 ms, 940 Mbit/s; client → server-b: RTT 21.3 ms (HTTP/2 PING 21.1 ms), 940 Mbit/s');
  });

  it('says what could not be measured', () => {
    expect(describePath({ error: 'HTTP 404: no route /bench/path' })).toBe('not measured (HTTP 404: no route /bench/path)');
    const partial = { serverA: { tcpConnectMs: { medianMs: 0.2 }, bulk: { error: 'GET /path/bulk: HTTP 404' } }, serverB: { tcpConnectMs: { medianMs: 0.2 }, http2PingMs: { error: 'ECONNRESET' } } };
    expect(describePath(partial)).toBe('client → server-a: RTT 0.20 ms; client → server-b: RTT 0.20 ms (not measured: serverA bulk: GET /path/bulk: HTTP 404; serverB http2PingMs: ECONNRESET)');
  });

  it('flags figures whose median after lies more than 10 % outside the range before, ignoring sub-0.3 ms RTT noise', () => {
    expect(pathChanges(report(20, 940, 20, 20), report(21, 900, 20.5, 19.5))).toEqual([]);
    const base = report(0.1, 3000, 0.1, 0.05);
    const wide = { n: 3, medianMbit: 3000, minMbit: 2900, maxMbit: 4500 };
    const noisy = { ...base, serverA: { ...base.serverA, bulk: wide }, serverB: { ...base.serverB, bulk: wide } };
    expect(pathChanges(noisy, report(0.1, 4700, 0.1, 0.05))).toEqual([]);
    expect(pathChanges(report(20, 940, 20, 20), report(25, 500, 20, 20))).toEqual(['server-a RTT (TCP connect) ms 20.0 → 25.0', 'server-a Mbit/s 940 → 500', 'server-b Mbit/s 940 → 500']);
    expect(pathChanges(report(0.1, 5000, 0.1, 0.05), report(0.2, 5000, 0.3, 0.1))).toEqual([]);
    expect(pathChanges({ error: 'x' }, report(1, 1, 1, 1))).toEqual([]);
  });
});
