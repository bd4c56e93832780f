// Faults on the wire, as data: what a broken network does to the calls crossing a stage. Each is one
// iptables rule put first in the router namespace's FORWARD chain (only there: never the host's),
// and taken out again by the same rule.
import { inNs, type Command } from './commands';

export interface WireFault {
  id: string;
  /** What it models and what a call sees. */
  description: string;
  /** The rule's match and target after `iptables -I FORWARD 1`. */
  rule: readonly string[];
}

export const WIRE_FAULTS: readonly WireFault[] = Object.freeze([
  {
    id: 'reset',
    description: 'every TCP segment the router forwards is answered with a TCP reset (a crashed peer or a middlebox killing connections): calls fail at once',
    rule: ['-p', 'tcp', '-j', 'REJECT', '--reject-with', 'tcp-reset'],
  },
  {
    id: 'blackhole',
    description: 'every packet the router forwards is dropped without a word (a dead route): calls hang until their deadline',
    rule: ['-j', 'DROP'],
  },
]);

export function findFault(id: string): WireFault {
  const fault = WIRE_FAULTS.find((f) => f.id === id);
  if (!fault) throw new Error(`unknown fault "${id}" (known: ${WIRE_FAULTS.map((f) => f.id).join(', ')})`);
  return fault;
}

/** The command that puts `fault` in (first, ahead of the delayer's queue) or takes it out. */
export function faultCommand(routerNamespace: string, fault: WireFault, action: 'inject' | 'clear'): Command {
  const position = action === 'inject' ? ['-I', 'FORWARD', '1'] : ['-D', 'FORWARD'];
  return {
    argv: inNs(routerNamespace, ['iptables', '-w', ...position, ...fault.rule]),
    why: `${action} the wire fault "${fault.id}"`,
  };
}
