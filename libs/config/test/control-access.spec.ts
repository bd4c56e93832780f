import { carriesToken, isLoopbackHost, loadControlAccess, needsToken } from '../src/control-access';
import { ConfigError } from '../src/config-error';

describe('control access', () => {
  const token = 'f'.repeat(64);

  it.each(['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])('%s is loopback', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each(['0.0.0.0', '::', '10.1.2.3', 'client', '128.0.0.1'])('%s is not loopback', (host) => expect(isLoopbackHost(host)).toBe(false));

  it('leaves the API open on loopback without a token, and says so', () => {
    const access = loadControlAccess('127.0.0.1', {});
    expect(access.token).toBeNull();
    expect(access.describe).toContain('open to this machine only');
    expect(needsToken(access, '/bench/run')).toBe(false);
  });

  it('refuses to start bound elsewhere without a token, naming the variable and how to make one', () => {
    expect(() => loadControlAccess('0.0.0.0', {})).toThrow(ConfigError);
    expect(() => loadControlAccess('0.0.0.0', { BENCH_TOKEN: '  ' })).toThrow(/set BENCH_TOKEN .*openssl rand -hex 32.*or bind HOST=127\.0\.0\.1/);
  });

  it('refuses a short token', () => {
    expect(() => loadControlAccess('0.0.0.0', { BENCH_TOKEN: 'secret' })).toThrow(/BENCH_TOKEN is 6 characters; use at least 16/);
  });

  it('requires the token on every route but the health checks, wherever it is bound', () => {
    for (const host of ['0.0.0.0', '127.0.0.1']) {
      const access = loadControlAccess(host, { BENCH_TOKEN: token });
      expect(access.describe).toContain('requires Authorization: Bearer <BENCH_TOKEN>');
      expect(['/bench/run', '/bench/path', '/bench/info', '/client/call-a/1'].map((p) => needsToken(access, p))).toEqual([true, true, true, true]);
      expect(['/health', '/health/ready'].map((p) => needsToken(access, p))).toEqual([false, false]);
    }
  });

  it('accepts only "Bearer <the token>"', () => {
    const access = loadControlAccess('0.0.0.0', { BENCH_TOKEN: token });
    expect(carriesToken(access, `Bearer ${token}`)).toBe(true);
    expect(carriesToken(access, `bearer ${token}`)).toBe(true);
    expect(carriesToken(access, [`Bearer ${token}`])).toBe(true);
    expect(carriesToken(access, token)).toBe(false);
    expect(carriesToken(access, `Bearer ${token}x`)).toBe(false);
    expect(carriesToken(access, `Basic ${token}`)).toBe(false);
    expect(carriesToken(access, undefined)).toBe(false);
  });
});
