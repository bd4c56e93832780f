import * as dns from 'node:dns';
import type { LookupAllOptions } from 'node:dns';
import * as http2 from 'node:http2';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { Http2SessionManager } from '@connectrpc/connect-node';
import { Pool } from 'undici';
import { DEFAULT_SETTINGS, serverTlsOptions, type Settings } from '@bench/config';
import { cachingLookup } from '../../src/common/cached-lookup';
import { lookupFor } from '../../src/common/client-lookup';
import { httpsAgentFor } from '../../src/common/client-tls';
import { Http2Session } from '../../src/common/http2-session';
import { ReplyMeter } from '../../src/common/reply-meter';
import { TlsSessions } from '../../src/common/tls-sessions';
import { undiciConnection, type BodyDecoder } from '../../src/common/undici-pool';
import { testServerSecurity } from '@bench/testing';

// Which of the client's libraries resume a TLS 1.3 session on a new connection, measured at the server
// (isSessionReused on each connection it accepts): with their defaults, and with tuning
// tls-session-reuse's TlsSessions offering the session a previous connection was given.

let certificates: ReturnType<typeof testServerSecurity>;
let server: http2.Http2SecureServer;
let origin: string;
let tls: { ca: Buffer; minVersion: 'TLSv1.3' };
/** Whether each connection the server accepted resumed a session, in order. */
let accepted: boolean[];

beforeAll(async () => {
  certificates = testServerSecurity();
  // The bytes only the TLS options reach (the settings themselves carry descriptions, never key material).
  const { ca, cert, key } = serverTlsOptions(certificates.security, ['h2', 'http/1.1']);
  tls = { ca, minVersion: 'TLSv1.3' };
  // One listener speaking h2 and http/1.1, answering every request at once; `?close` closes the connection after it.
  server = http2.createSecureServer({ key, cert, allowHTTP1: true, minVersion: 'TLSv1.3' }, (req, res) => {
    if (req.httpVersion === '1.1' && req.url.endsWith('?close')) res.setHeader('connection', 'close');
    res.end('ok');
  });
  server.on('secureConnection', (socket: TLSSocket) => accepted.push(socket.isSessionReused()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  certificates.remove();
});
beforeEach(() => (accepted = []));

/** A connection's tickets arrive just after its handshake: a moment for them before the next connection. */
const ticketsArrive = () => new Promise((resolve) => setTimeout(resolve, 50));

async function h2Get(options: http2.SecureClientSessionOptions): Promise<void> {
  const session = http2.connect(origin, { ...tls, ...options });
  await new Promise<void>((resolve, reject) => {
    session.on('error', reject);
    const stream = session.request({ ':path': '/' });
    stream.on('error', reject).resume().on('end', resolve);
  });
  await ticketsArrive();
  await new Promise((resolve) => session.close(resolve));
}

function httpsGet(agent: HttpsAgent, query = ''): Promise<void> {
  return new Promise((resolve, reject) => {
    httpsRequest(`${origin}/${query}`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject).end();
  }).then(ticketsArrive);
}

async function undiciGet(pool: Pool): Promise<void> {
  const { body } = await pool.request({ path: '/', method: 'GET' });
  await body.text();
  await ticketsArrive();
}

async function grpcConnect(): Promise<void> {
  const channel = new grpc.Client(origin.replace('https://', ''), grpc.credentials.createSsl(tls.ca));
  await new Promise<void>((resolve, reject) => channel.waitForReady(Date.now() + 5_000, (error) => (error ? reject(error) : resolve())));
  await ticketsArrive();
  channel.close();
}

async function connectNodeGet(manager: Http2SessionManager): Promise<void> {
  const stream = await manager.request('GET', '/', {}, {});
  await new Promise((resolve) => stream.resume().on('end', resolve).end());
  await ticketsArrive();
}

describe("each library's defaults", () => {
  it('node:http2 resumes nothing: each connect handshakes in full', async () => {
    await h2Get({});
    await h2Get({});
    expect(accepted).toEqual([false, false]);
  });

  it('grpc-js resumes nothing: a new channel handshakes in full', async () => {
    await grpcConnect();
    await grpcConnect();
    expect(accepted).toEqual([false, false]);
  });

  it('connect-node resumes nothing: a new session manager handshakes in full', async () => {
    for (const manager of [new Http2SessionManager(origin, {}, tls), new Http2SessionManager(origin, {}, tls)]) {
      await connectNodeGet(manager);
      manager.abort();
    }
    expect(accepted).toEqual([false, false]);
  });

  it('https.Agent resumes within the agent (its cache of 100 sessions), not in a new agent', async () => {
    const agent = new HttpsAgent({ keepAlive: true, ...tls });
    await httpsGet(agent, '?close');
    await httpsGet(agent);
    agent.destroy();
    const fresh = new HttpsAgent({ keepAlive: true, ...tls });
    await httpsGet(fresh);
    fresh.destroy();
    expect(accepted).toEqual([false, true, false]);
  });

  it("undici resumes within the pool (its connector's cache), not in a new pool", async () => {
    // pipelining 0: the pool keeps no connection between requests, so each request is a new connection of the pool.
    // allowH2 false, as the tuned client's pool (undici 8 would otherwise take h2 and keep one session).
    const pool = new Pool(origin, { connect: tls, pipelining: 0, allowH2: false });
    await undiciGet(pool);
    await undiciGet(pool);
    await pool.destroy();
    const fresh = new Pool(origin, { connect: tls, allowH2: false });
    await undiciGet(fresh);
    await fresh.destroy();
    expect(accepted).toEqual([false, true, false]);
  });
});

describe('tls-session-reuse (TlsSessions)', () => {
  it('node:http2 (json-h2, the lean unary gRPC client): the next connect resumes', async () => {
    const sessions = new TlsSessions();
    await h2Get({ createConnection: sessions.http2Connection(origin) });
    await h2Get({ createConnection: sessions.http2Connection(origin) });
    expect(accepted).toEqual([false, true]);
  });

  it('connect-node: a new session manager resumes', async () => {
    const sessions = new TlsSessions();
    for (const manager of [0, 1].map(() => new Http2SessionManager(origin, {}, { ...tls, createConnection: sessions.http2Connection(origin) }))) {
      await connectNodeGet(manager);
      manager.abort();
    }
    expect(accepted).toEqual([false, true]);
  });

  it('undici: a new pool resumes the session an earlier pool was given', async () => {
    const sessions = new TlsSessions();
    for (let i = 0; i < 2; i++) {
      const pool = new Pool(origin, { connect: sessions.undiciConnector(origin, tls), allowH2: false });
      await undiciGet(pool);
      await pool.destroy();
    }
    expect(accepted).toEqual([false, true]);
  });

  it('https.Agent (the blog axios, when the tuning is switched on alone): a new agent resumes', async () => {
    const sessions = new TlsSessions();
    for (let i = 0; i < 2; i++) {
      const agent = sessions.httpsAgent({ keepAlive: true, ...tls });
      await httpsGet(agent);
      agent.destroy();
    }
    expect(accepted).toEqual([false, true]);
  });

  it('keeps sessions per origin: another server is offered none', () => {
    const sessions = new TlsSessions();
    expect(sessions.offer('https://127.0.0.1:1')).toEqual({});
  });
});

describe('cached-lookup under TLS: connections to the server by name ask the lookup they are given, with tls-session-reuse too', () => {
  /** A caching lookup over the real resolver, listing the names it asked. */
  function countingLookup() {
    const asked: string[] = [];
    const lookup = cachingLookup(60_000, ((hostname: string, options: LookupAllOptions, callback: Parameters<typeof dns.lookup>[2]) => {
      asked.push(hostname);
      dns.lookup(hostname, options, callback);
    }) as typeof dns.lookup);
    return { lookup, asked };
  }
  const byName = () => origin.replace('127.0.0.1', 'localhost');

  it.each([false, true])('undici (tuned json, proto-h1), sessions kept: %s', async (keep) => {
    const { lookup, asked } = countingLookup();
    const bytes: BodyDecoder = { kind: 'bytes', decode: (body) => body.toString() };
    const connection = undiciConnection(byName(), '/', 8, 5_000, new ReplyMeter(), bytes, tls, keep ? new TlsSessions() : null, lookup);
    expect(await connection.fetchAll(1, 8, 5_000)).toEqual(Array(8).fill('ok'));
    await connection.close();
    expect(accepted.length).toBeGreaterThan(1);
    expect(asked).toEqual(['localhost']);
  });

  it.each([false, true])('node:http2 (json-h2, lean unary gRPC), sessions kept: %s', async (keep) => {
    const { lookup, asked } = countingLookup();
    for (let i = 0; i < 2; i++) {
      const session = new Http2Session(byName(), null, tls, keep ? new TlsSessions() : null, lookup);
      const { status, body } = await session.open('/', 5_000);
      body.resume();
      expect(status).toBe(200);
      await session.close();
    }
    expect(accepted).toHaveLength(2);
    expect(asked).toEqual(['localhost']);
  });

  it("https.Agent (the blog's axios with the tuning): the client's agent looks up through the process's cache", async () => {
    const settings: Settings = { ...DEFAULT_SETTINGS, variant: 'blog-with-cached-lookup', security: certificates.security };
    const agent = httpsAgentFor(settings)!;
    const lookup = lookupFor(settings)!;
    expect((agent.options as { lookup?: unknown }).lookup).toBe(lookup);
    await new Promise<void>((resolve, reject) => {
      httpsRequest(`${byName()}/`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject).end();
    });
    agent.destroy();
    expect(accepted).toHaveLength(1);
    expect(lookupFor({ ...settings, variant: 'blog' })).toBeNull();
  });
});
