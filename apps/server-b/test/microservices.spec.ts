import * as net from 'node:net';
import { ClientProxyFactory, Transport, type ClientProxy } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { DEFAULT_SETTINGS, type Settings } from '@bench/config';
import { verifyReply } from '@bench/samples';
import { freePort, keepAbandonedLog } from '@bench/testing';
import { SAMPLES_PATTERN } from '@bench/transports';

const PATTERN = `set7.${SAMPLES_PATTERN}`;
import { createServerB, type ServerB } from '../src/server';

// server-b as a hybrid app with nest-tcp connected (SERVER_B_MICROSERVICES=nest-tcp): the blog's rows to
// ClientProxy.send(), and issue 31's rules for what a caller may get wrong: an error reply, never a crash or a hang.

const MAX_ROWS = 1_000_000;

async function answer(client: ClientProxy, pattern: string, data: unknown): Promise<{ reply?: unknown; error?: unknown }> {
  try {
    return { reply: await lastValueFrom(client.send(pattern, data)) };
  } catch (error) {
    return { error };
  }
}

describe('server-b serving nest-tcp beside gRPC', () => {
  let app: ServerB;
  let settings: Settings;
  let client: ClientProxy;
  keepAbandonedLog();

  beforeAll(async () => {
    const [grpcPort, tcpPort] = [await freePort(), await freePort()];
    settings = { ...DEFAULT_SETTINGS, maxRows: MAX_ROWS, microservices: { ...DEFAULT_SETTINGS.microservices, serve: ['nest-tcp'], tcpPort, tcpUrl: `127.0.0.1:${tcpPort}`, namespace: 'set7' } };
    app = await createServerB(settings, `127.0.0.1:${grpcPort}`, false);
    await app.listen();
    client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port: tcpPort } });
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  it.each([1, 10_000, 20_000])('answers %d rows as the other transports do', async (count) => {
    const { reply } = await answer(client, PATTERN, { count, deadlineMs: 10_000 });
    expect(verifyReply(reply, count)).toEqual({ ok: true });
  });

  it.each([
    ['a string', 'hello', 'message: type'],
    ['no count', { deadlineMs: 1_000 }, 'count: required'],
    ['a count as text with a sign', { count: '-1', deadlineMs: 1_000 }, 'count: integer'],
    ['a count over MAX_ROWS', { count: MAX_ROWS + 1, deadlineMs: 1_000 }, 'count: max'],
    ['no deadline', { count: 1 }, 'deadlineMs: required'],
  ])('answers a malformed message (%s) with INVALID_ARGUMENT naming the field', async (_what, data, rule) => {
    const { error } = await answer(client, PATTERN, data);
    expect(error).toMatchObject({ code: 3, message: expect.stringContaining(`[${rule}]`) });
  });

  it('answers an unknown pattern, or the pattern of another namespace, with an error reply, and keeps serving', async () => {
    for (const pattern of ['set7.sample.NoSuchMethod', SAMPLES_PATTERN, `set8.${SAMPLES_PATTERN}`]) {
      expect(String((await answer(client, pattern, { count: 1, deadlineMs: 1_000 })).error)).toMatch(/no matching message handler/);
    }
    expect(verifyReply((await answer(client, PATTERN, { count: 3, deadlineMs: 1_000 })).reply, 3)).toEqual({ ok: true });
  });

  it('gives up a large reply once its deadline has passed, answering DEADLINE_EXCEEDED', async () => {
    const { error } = await answer(client, PATTERN, { count: MAX_ROWS, deadlineMs: 1 });
    expect(error).toMatchObject({ code: 4, message: expect.stringContaining('DEADLINE_EXCEEDED') });
  });

  it('drops a connection that sends bytes that are not a frame, and keeps serving others', async () => {
    const socket = net.connect(settings.microservices.tcpPort, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write('not-a-length#{}');
    await closed;
    const garbled = net.connect(settings.microservices.tcpPort, '127.0.0.1');
    const garbledClosed = new Promise<void>((resolve) => garbled.on('close', () => resolve()));
    garbled.on('error', () => undefined);
    garbled.write('5#{oops');
    await garbledClosed;
    expect(verifyReply((await answer(client, PATTERN, { count: 2, deadlineMs: 1_000 })).reply, 2)).toEqual({ ok: true });
  });
});
