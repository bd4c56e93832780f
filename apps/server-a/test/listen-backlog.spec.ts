import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { DEFAULT_SETTINGS, LISTEN_BACKLOG, type NestVariant } from '@bench/config';
import { createServerA, listenServerA } from '../src/http-platform';

/** The accept queue the kernel gave a listening TCP port: `ss` shows a listener's backlog as its Send-Q. */
function kernelBacklog(port: number): number {
  const line = execFileSync('ss', ['-Hltn', `sport = :${port}`], { encoding: 'utf8' }).trim();
  return Number(line.split(/\s+/)[2]);
}

describe('server-a listen backlog (tuning listen-backlog)', () => {
  const started: INestApplication[] = [];
  afterAll(() => Promise.all(started.map((app) => app.close())));

  async function listeningAs(variant: NestVariant): Promise<number> {
    const settings = { ...DEFAULT_SETTINGS, variant, host: '127.0.0.1' };
    const app = await createServerA(settings);
    started.push(app);
    await listenServerA(app, 0, settings);
    return kernelBacklog((app.getHttpServer().address() as AddressInfo).port);
  }

  it.each([
    ['blog', 'Express', 511],
    ['blog-with-listen-backlog', 'Express', LISTEN_BACKLOG],
    ['tuned', 'Fastify', LISTEN_BACKLOG],
    ['tuned-without-listen-backlog', 'Fastify', 511],
  ] as const)('%s (%s) listens with an accept queue of %i', async (variant, _platform, backlog) => {
    // The kernel caps a backlog at net.core.somaxconn (4,096 by default since Linux 5.4).
    const cap = Number(execFileSync('sysctl', ['-n', 'net.core.somaxconn'], { encoding: 'utf8' }));
    expect(await listeningAs(variant)).toBe(Math.min(backlog, cap));
  });
});
