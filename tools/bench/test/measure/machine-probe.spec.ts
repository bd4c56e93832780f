import { probeMachine } from '../../src/measure/machine-probe';

describe('probeMachine', () => {
  it('returns the time of its fastest round: a positive number of ms', () => {
    const reading = probeMachine();
    expect(Number.isFinite(reading)).toBe(true);
    expect(reading).toBeGreaterThan(0);
  });
});
