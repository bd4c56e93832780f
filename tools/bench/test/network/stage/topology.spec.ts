import { chooseCongestionControl, sanitizeRunId, topologyFor } from '../../../src/network/stage/topology';

const t = topologyFor('Run 2026-01-02T03:04:05Z');

describe('stage topology', () => {
  it('names namespaces with our prefix and a sanitized run id', () => {
    expect(t.namespaces).toEqual({ client: 'nbx-run-2026-01-02t03-04-05z-client', router: 'nbx-run-2026-01-02t03-04-05z-router', server: 'nbx-run-2026-01-02t03-04-05z-server' });
    expect(sanitizeRunId('--A/b--')).toBe('a-b');
    expect(() => sanitizeRunId('///')).toThrow(/no letter or digit/);
  });

  it('addresses every end from 198.18.0.0/15 (RFC 2544), never private or public ranges', () => {
    for (const address of Object.values(t.addresses)) {
      const [a, b] = address.split('.').map(Number);
      expect(a === 198 && (b === 18 || b === 19)).toBe(true);
    }
  });

  it('picks congestion control from what the host allows, never widening it', () => {
    expect(chooseCongestionControl(['reno', 'bbr'], 'bbr')).toBe('bbr');
    expect(chooseCongestionControl(['reno', 'bbr'], 'cubic')).toBe('bbr');
    expect(chooseCongestionControl(['reno'], null)).toBe('reno');
    expect(() => chooseCongestionControl([], null)).toThrow(/allows no TCP congestion control/);
  });
});
