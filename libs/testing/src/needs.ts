/// <reference types="jest" />
// A test that needs something the machine may lack (Chromium, docker-compose, iptables, kubectl, Go,
// root, a built bench): where it is missing, a developer's run skips the test and says what to install;
// under CI=true the test FAILS with that message, so CI never passes by testing nothing.

/** What is missing and how to get it, e.g. `iptables (apt-get install -y iptables)`; null when it is here. */
export type Need = string | null;

export type NeedVerdict = { run: true } | { run: false; fail: boolean; message: string };

/** Whether a test with these needs runs, fails (CI) or is skipped (elsewhere), and the message saying why. */
export function needVerdict(needs: readonly Need[], env: NodeJS.ProcessEnv = process.env): NeedVerdict {
  const missing = needs.filter((n): n is string => n !== null);
  if (missing.length === 0) return { run: true };
  const ci = env.CI === 'true';
  return { run: false, fail: ci, message: `not here: ${missing.join('; ')}${ci ? '; CI must install it (.ci/run)' : ''}` };
}

/** `describe` when every need is met; otherwise one failing test under CI=true, or a skip with the message. */
export function describeNeeding(name: string, needs: readonly Need[], body: () => void): void {
  const verdict = needVerdict(needs);
  if (verdict.run) return describe(name, body);
  if (verdict.fail) {
    it(`${name}: ${verdict.message}`, () => {
      throw new Error(`${name}: ${verdict.message}`);
    });
  } else console.log(`${name}: skipped, ${verdict.message}`);
  describe.skip(name, body);
}

/** `it` when every need is met; otherwise failing under CI=true, or skipped with the message. */
export function itNeeding(name: string, needs: readonly Need[], test: () => unknown, timeoutMs?: number): void {
  const verdict = needVerdict(needs);
  if (verdict.run) return void it(name, test as jest.ProvidesCallback, timeoutMs);
  if (verdict.fail) {
    return void it(name, () => {
      throw new Error(`${name}: ${verdict.message}`);
    });
  }
  console.log(`${name}: skipped, ${verdict.message}`);
  it.skip(name, test as jest.ProvidesCallback, timeoutMs);
}

/**
 * For a need a test learns only while it runs: throws under CI=true; elsewhere says so and returns
 * true, and the test returns at once.
 */
export function missingHere(name: string, needs: readonly Need[]): boolean {
  const verdict = needVerdict(needs);
  if (verdict.run) return false;
  if (verdict.fail) throw new Error(`${name}: ${verdict.message}`);
  console.log(`${name}: skipped, ${verdict.message}`);
  return true;
}

/**
 * A test of something only a user gives (a broker of their own at its URL variable): not given, it is
 * skipped under CI too, because `coveredBy` (a spec that starts its own) runs the same thing; says which.
 */
export function describeWhenGiven(name: string, given: boolean, coveredBy: string, body: () => void): void {
  if (given) return describe(name, body);
  console.log(`${name}: skipped, not given here; ${coveredBy} runs it`);
  describe.skip(name, body);
}
