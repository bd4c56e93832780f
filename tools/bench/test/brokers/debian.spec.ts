import { parsePolicy, unavailableReason } from '../../src/brokers/debian';

const POLICY = `redis-server:
  Installed: (none)
  Candidate: 5:7.0.15-1~deb12u10
  Version table:
     5:7.0.15-1~deb12u10 500
        500 http://deb.example/debian-security bookworm-security/main amd64 Packages
 *** 5:7.0.15-1~deb12u7 500
        500 http://deb.example/debian bookworm/main amd64 Packages
`;

describe("Debian's pins", () => {
  it("reads apt-cache policy's candidate and every version it offers", () => {
    expect(parsePolicy(POLICY)).toEqual({ candidate: '5:7.0.15-1~deb12u10', versions: ['5:7.0.15-1~deb12u10', '5:7.0.15-1~deb12u7'] });
    expect(parsePolicy('nothing:\n  Installed: (none)\n  Candidate: (none)\n')).toEqual({ candidate: null, versions: [] });
  });

  it('installs a pinned version Debian offers, and names the offer and the pin file when it does not', () => {
    expect(unavailableReason({ name: 'redis-server', version: '5:7.0.15-1~deb12u7' }, parsePolicy(POLICY), 'pin.ts')).toBeNull();
    const why = unavailableReason({ name: 'redis-server', version: '5:7.0.14-1' }, parsePolicy(POLICY), 'tools/bench/src/brokers/redis/record.ts');
    expect(why).toContain('pins 5:7.0.14-1');
    expect(why).toContain('candidate 5:7.0.15-1~deb12u10');
    expect(why).toContain('tools/bench/src/brokers/redis/record.ts');
  });
});
