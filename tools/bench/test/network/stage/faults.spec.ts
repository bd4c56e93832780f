import { faultCommand, findFault, WIRE_FAULTS } from '../../../src/network/stage/faults';
import { topologyFor } from '../../../src/network/stage/topology';

const t = topologyFor('faults-test');

describe('wire faults', () => {
  it('are records: one rule put first in the router namespace FORWARD chain, taken out by the same rule', () => {
    const reset = findFault('reset');
    expect(faultCommand(t.namespaces.router, reset, 'inject').argv.join(' ')).toBe(`ip netns exec ${t.namespaces.router} iptables -w -I FORWARD 1 -p tcp -j REJECT --reject-with tcp-reset`);
    expect(faultCommand(t.namespaces.router, findFault('blackhole'), 'clear').argv.join(' ')).toBe(`ip netns exec ${t.namespaces.router} iptables -w -D FORWARD -j DROP`);
    expect(WIRE_FAULTS.map((f) => f.id)).toEqual(['reset', 'blackhole']);
    expect(() => findFault('flood')).toThrow('unknown fault "flood" (known: reset, blackhole)');
  });
});
