import { planPinning } from '../../src/run/pinning';

describe('planPinning', () => {
  it('pins client and servers to separate cores with ≥ 4 cores and taskset', () => {
    expect(planPinning(true, 8, true)).toEqual({
      requested: true,
      pinned: true,
      cpuCount: 8,
      cores: { client: '0', 'server-a': '1', 'server-b': '2' },
      reason: null,
    });
  });

  it.each([
    [false, 8, true, 'not requested (--pin)'],
    [true, 2, true, '2 cores; pinning needs at least 4'],
    [true, 4, false, 'taskset not found (util-linux)'],
  ])('does not pin (requested %p, %p cores, taskset %p) and says why', (requested, cores, taskset, reason) => {
    expect(planPinning(requested, cores, taskset)).toMatchObject({ pinned: false, cores: null, reason });
  });
});
