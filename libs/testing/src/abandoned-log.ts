/**
 * Keeps the apps' "… abandoned: …" warnings (libs/samples noteAbandoned) instead of printing them, so a
 * test can read why each reply stopped; every other warning still prints. Returns the kept lines, in order.
 */
export function keepAbandonedLog(): string[] {
  const kept: string[] = [];
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes(' abandoned: ')) kept.push(args[0]);
    else warn(...args);
  };
  return kept;
}
