/**
 * Polls `check` every 20 ms until it is true, or fails after `timeoutMs` naming `what`: for behaviour
 * that happens soon after an event (a reply abandoned, a runner freed), with a bound a defect would blow past.
 */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
