import { needVerdict } from './needs';

describe('needVerdict: a test whose tool is missing', () => {
  it('runs when nothing is missing', () => {
    expect(needVerdict([null, null], { CI: 'true' })).toEqual({ run: true });
  });

  it('fails under CI=true, naming what to install', () => {
    expect(needVerdict(['iptables (apt-get install -y iptables)', null, 'docker-compose (apt-get install -y docker-compose)'], { CI: 'true' })).toEqual({
      run: false,
      fail: true,
      message: 'not here: iptables (apt-get install -y iptables); docker-compose (apt-get install -y docker-compose); CI must install it (.ci/run)',
    });
  });

  it("is skipped, with the same message, on a developer's machine", () => {
    expect(needVerdict(['chromium (apt-get install -y chromium)'], {})).toEqual({ run: false, fail: false, message: 'not here: chromium (apt-get install -y chromium)' });
    expect(needVerdict(['chromium (apt-get install -y chromium)'], { CI: 'false' })).toMatchObject({ fail: false });
  });
});
