import * as net from 'node:net';
import { choosePorts } from '../../src/run/apps';

describe('choosePorts', () => {
  it('picks distinct ports below the ephemeral range (32768–60999), none held by an outgoing connection', async () => {
    const { ports, fromOs } = await choosePorts({}, 0);
    const picked = Object.values(ports);
    expect(fromOs).toEqual(['client', 'serverA', 'serverB', 'serverAH2', 'serverBTcp']);
    expect(new Set(picked).size).toBe(picked.length);
    for (const port of picked) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
    }
  });

  it('keeps a port the environment gives, offset by the slot', async () => {
    const { ports, fromOs } = await choosePorts({ SERVER_A_PORT: '4100' }, 2);
    expect(ports.serverA).toBe(4120);
    expect(fromOs).not.toContain('serverA');
  });

  it('never hands out a port something listens on', async () => {
    const blockers: net.Server[] = [];
    try {
      const { ports } = await choosePorts({}, 0);
      for (const port of Object.values(ports)) {
        const server = net.createServer();
        await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
        blockers.push(server);
      }
      const again = await choosePorts({}, 0);
      for (const port of Object.values(again.ports)) expect(Object.values(ports)).not.toContain(port);
    } finally {
      for (const blocker of blockers) blocker.close();
    }
  });
});
