import * as grpc from '@grpc/grpc-js';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DEFAULT_SETTINGS } from '@bench/config';
import { samplePackageDefinition, sampleGrpcOptions } from '@bench/proto';
import { buildEchoContent, ECHO_MAX_CONTENT } from '@bench/samples';
import { freePort } from '@bench/testing';
import { AppModule } from '../src/app.module';

type Callback = (error: grpc.ServiceError | null, reply?: unknown) => void;
type Client = grpc.Client & Record<string, (request: unknown, callback: Callback) => void>;

describe('server-b echo and lookup (experiments §4 and §2)', () => {
  let app: INestMicroservice;
  let url: string;
  let echo: Client;
  let lookup: Client;

  const call = (client: Client, method: string, request: unknown) =>
    new Promise<{ error: grpc.ServiceError | null; reply?: unknown }>((resolve) => client[method](request, (error, reply) => resolve({ error, reply })));

  beforeAll(async () => {
    url = `127.0.0.1:${await freePort()}`;
    app = await NestFactory.createMicroservice(AppModule.register(DEFAULT_SETTINGS), { ...sampleGrpcOptions(url), logger: false });
    await app.listen();
    const loaded = grpc.loadPackageDefinition(samplePackageDefinition()) as unknown as {
      echo: { DataManager: typeof grpc.Client };
      lookup: { UserLookup: typeof grpc.Client };
    };
    echo = new loaded.echo.DataManager(url, grpc.credentials.createInsecure()) as Client;
    lookup = new loaded.lookup.UserLookup(url, grpc.credentials.createInsecure()) as Client;
  });
  afterAll(async () => {
    echo.close();
    lookup.close();
    await app.close();
  });

  it.each([0, 100, 100_000])('UnaryTest returns %d bytes of content unchanged', async (bytes) => {
    const content = buildEchoContent(bytes);
    expect(await call(echo, 'UnaryTest', { content })).toEqual({ error: null, reply: { content } });
  });

  it('UnaryTest refuses content over the limit with INVALID_ARGUMENT', async () => {
    const { error } = await call(echo, 'UnaryTest', { content: 'x'.repeat(ECHO_MAX_CONTENT + 1) });
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error?.details).toContain('content');
  });

  it('UnaryTest answers undecodable bytes with INVALID_ARGUMENT', async () => {
    const raw = new grpc.Client(url, grpc.credentials.createInsecure());
    const error = await new Promise<grpc.ServiceError | null>((resolve) =>
      raw.makeUnaryRequest('/echo.DataManager/UnaryTest', (b: Buffer) => b, (b: Buffer) => b, Buffer.from([0x0f]), (e) => resolve(e)),
    );
    raw.close();
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
  });

  it('BiStreamTest answers every message in order on one stream', async () => {
    const stream = (echo as unknown as { BiStreamTest(): grpc.ClientDuplexStream<unknown, { content: string }> }).BiStreamTest();
    const replies: string[] = [];
    const done = new Promise<void>((resolve, reject) => {
      stream.on('data', (reply) => replies.push(reply.content));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    for (let i = 0; i < 50; i++) stream.write({ content: `message ${i}` });
    stream.end();
    await done;
    expect(replies).toEqual(Array.from({ length: 50 }, (_, i) => `message ${i}`));
  });

  it('BiStreamTest ends the stream with INVALID_ARGUMENT on a bad message and stays up', async () => {
    const stream = (echo as unknown as { BiStreamTest(): grpc.ClientDuplexStream<unknown, { content: string }> }).BiStreamTest();
    const replies: string[] = [];
    const error = await new Promise<grpc.ServiceError>((resolve) => {
      stream.on('data', (reply) => replies.push(reply.content));
      stream.on('error', resolve);
      stream.write({ content: 'fine' });
      stream.write({ content: 'x'.repeat(ECHO_MAX_CONTENT + 1) });
    });
    expect(error.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(replies).toEqual(['fine']);
    expect(await call(echo, 'UnaryTest', { content: 'still here' })).toEqual({ error: null, reply: { content: 'still here' } });
  });

  it('GetUser returns the id asked for and refuses id 0', async () => {
    expect(await call(lookup, 'GetUser', { id: 42 })).toEqual({ error: null, reply: { id: 42 } });
    const { error } = await call(lookup, 'GetUser', { id: 0 });
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error?.details).toContain('id');
  });
});
