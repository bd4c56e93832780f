import { exitWithParent } from '../src/lifecycle';
import { ConfigError } from '../src/config-error';

// The pipe watch itself is exercised end to end by tools/bench/test/killed-run.spec.ts (SIGKILLed bench).
describe('exitWithParent', () => {
  it('watches nothing when the parent asked for nothing (apps started by hand, compose, Kubernetes)', () => {
    expect(exitWithParent('client', {})).toBe(false);
  });

  it.each(['abc', '1', '-3', '3.5'])('refuses BENCH_PARENT_FD=%s at start-up, naming the variable', (value) => {
    expect(() => exitWithParent('client', { BENCH_PARENT_FD: value })).toThrow(ConfigError);
    expect(() => exitWithParent('client', { BENCH_PARENT_FD: value })).toThrow(/BENCH_PARENT_FD must be a file descriptor number of 3 or more/);
  });
});
