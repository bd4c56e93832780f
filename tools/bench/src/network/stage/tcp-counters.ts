// The server namespace's kernel TCP counters (issue #34's `read ECONNRESET`): /proc/net/netstat's TcpExt
// and /proc/net/snmp's Tcp lines as the namespace sees them, read through `ip netns exec` (on loopback,
// the host's, read in place). A run keeps
// their differences per cell (model/path-counters.ts), so a burst's overflowing listen queue, the SYN
// cookies it falls back to and the resets it sends are on the cell they happened to.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { TCP_COUNTER_NAMES, type TcpCounters } from '../../model';

/** The files the counters are read from, as the namespace sees them. */
export const TCP_COUNTER_FILES = Object.freeze(['/proc/net/netstat', '/proc/net/snmp']);

/** A reading takes a few ms; past this the namespace is taken to be gone. */
const READ_BOUND_MS = 5_000;

/**
 * TcpCounters from the text of /proc/net/netstat and /proc/net/snmp (one after the other, in either
 * order): each is pairs of lines, `Prefix: name name …` then `Prefix: value value …`. Throws, naming it,
 * when a counter is missing (a kernel without it, or not those files).
 */
export function parseTcpCounters(text: string): TcpCounters {
  const values = new Map<string, number>();
  const lines = text.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    const [prefix, ...names] = lines[i].trim().split(/\s+/);
    const [valuePrefix, ...numbers] = lines[i + 1].trim().split(/\s+/);
    if (!prefix.endsWith(':') || prefix !== valuePrefix || names.length !== numbers.length || !numbers.every((n) => /^-?\d+$/.test(n))) continue;
    names.forEach((name, k) => values.set(`${prefix.slice(0, -1)} ${name}`, Number(numbers[k])));
    i++;
  }
  const counters = Object.entries(TCP_COUNTER_NAMES).map(([field, [prefix, name]]) => {
    const value = values.get(`${prefix} ${name}`);
    if (value === undefined) throw new Error(`no ${prefix} ${name} counter in ${TCP_COUNTER_FILES.join(' + ')}`);
    return [field, value];
  });
  return Object.fromEntries(counters) as TcpCounters;
}

/** Reads the counters where `wrap` runs a command (a stage's `wrap('server', …)`: `ip netns exec <ns> …`). */
export function readTcpCounters(wrap: (argv: readonly string[]) => string[]): Promise<TcpCounters> {
  const [program, ...args] = wrap(['cat', ...TCP_COUNTER_FILES]);
  return new Promise((resolve, reject) => {
    execFile(program, args, { encoding: 'utf8', timeout: READ_BOUND_MS }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`reading the TCP counters (${[program, ...args].join(' ')}): ${stderr.trim() || error.message}`));
      try {
        resolve(parseTcpCounters(stdout));
      } catch (parseError) {
        reject(parseError instanceof Error ? parseError : new Error(String(parseError)));
      }
    });
  });
}

/**
 * Reads the counters of the namespace this process runs in: on loopback, where the apps listen beside the
 * bench, the host's (issue #43); every other connection on the host counts there too.
 */
export async function readHostTcpCounters(): Promise<TcpCounters> {
  const texts = await Promise.all(TCP_COUNTER_FILES.map((file) => readFile(file, 'utf8')));
  return parseTcpCounters(texts.join('\n'));
}
