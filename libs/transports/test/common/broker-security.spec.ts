import { DEFAULT_SETTINGS, type Settings } from '@bench/config';
import { Transport } from '@nestjs/microservices';
import { BROKER_TLS_MISSING, plaintextToBroker } from '../../src/common/broker-security';
import { MICROSERVICE_TRANSPORT_NAMES, brokersOf } from '../../src/registry';

const BROKERED = MICROSERVICE_TRANSPORT_NAMES.filter((name) => brokersOf([name]).length > 0);
const options = { ok: true as const, options: { transport: Transport.NATS } };
const under = (mode: 'plain' | 'tls' | 'mtls'): Settings => ({ ...DEFAULT_SETTINGS, security: { ...DEFAULT_SETTINGS.security, mode } });

describe('a broker transport under --security tls/mtls', () => {
  it('covers every transport through a broker', () => {
    expect(BROKERED.length).toBe(5);
    expect(Object.keys(BROKER_TLS_MISSING).sort()).toEqual([...BROKERED].sort());
  });

  it.each(BROKERED)('%s: dials its broker as asked under plain', (name) => {
    expect(plaintextToBroker(name, under('plain'), options)).toBe(options);
  });

  it.each(BROKERED.flatMap((name) => [[name, 'tls'], [name, 'mtls']] as const))('%s under %s: refuses with what TLS to its broker would take, never dialling it in the clear', (name, mode) => {
    const refused = plaintextToBroker(name, under(mode), options);
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining(`runs in plaintext only to its broker (security ${mode} asked): TLS to it needs ${BROKER_TLS_MISSING[name]}`) });
  });
});
