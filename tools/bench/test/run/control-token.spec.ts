import { describeGivenToken, givenToken, runToken } from '../../src/run/control-token';

describe('the bench and the control token', () => {
  it('makes one random token per run, long enough for the clients to accept', () => {
    expect(runToken()).toMatch(/^[0-9a-f]{64}$/);
    expect(runToken()).toBe(runToken());
  });

  it('takes a --client-url token from BENCH_TOKEN only, and says whether it sends one without printing it', () => {
    expect(givenToken({})).toBeNull();
    expect(givenToken({ BENCH_TOKEN: '  ' })).toBeNull();
    const token = 'd'.repeat(40);
    expect(givenToken({ BENCH_TOKEN: token })).toBe(token);
    expect(describeGivenToken('http://client:3000', token)).toBe('bench: sending BENCH_TOKEN from the environment to http://client:3000 as Authorization: Bearer');
    expect(describeGivenToken('http://client:3000', token)).not.toContain(token);
    expect(describeGivenToken('http://client:3000', null)).toContain('without a token (BENCH_TOKEN is not set)');
  });
});
