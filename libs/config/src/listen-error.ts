/**
 * Turns a failed listen into a sentence that names the port and the variable that sets it, so a
 * busy port reads as "SERVER_A_PORT=3001 is already in use" rather than a stack trace.
 */
export function explainListenError(error: unknown, where: { variable: string; port: number; host: string }): string {
  const code = (error as { code?: string } | null)?.code;
  const text = error instanceof Error ? error.message : String(error);
  const busy = code === 'EADDRINUSE' || /address already in use|EADDRINUSE|No address added/i.test(text);
  if (busy) {
    return `port ${where.port} on ${where.host} is already in use: stop what holds it or set ${where.variable} to a free port`;
  }
  if (code === 'EADDRNOTAVAIL' || /EADDRNOTAVAIL/.test(text)) {
    return `cannot bind ${where.host}:${where.port}: the address is not on this machine (check HOST)`;
  }
  return `cannot listen on ${where.host}:${where.port} (${where.variable}): ${text}`;
}
