// bare client: the blog's caller on node:http with no framework. Serves the same /bench/run,
// /bench/info, /health and /client/* routes as apps/client, measured by the same case runner.
import { createServer, type Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import * as grpc from '@grpc/grpc-js';
import {
  carriesToken,
  exitWithParent,
  explainListenError,
  limitHttp1Connections,
  loadControlAccess,
  loadSettings,
  needsToken,
  processSampler,
  refusalHint,
  REQUEST_LIMITS,
  runtimeInfo,
  stopOnSignals,
  unauthorizedBody,
  type Settings,
} from '@bench/config';
import { BusyError, CaseFailure, CallRunner, parseCaseRequest, parsePathRequest, watchTlsHandshakes } from '@bench/harness';
import { grpcChannelCredentials, PROTO_LOADER_SETTINGS } from '@bench/proto';
import { callerSignal } from '@bench/samples';
import { bareTransports, closeTransports, defaultAgent, get, grpcServiceClient, type TransportName } from '@bench/transports';
import { parseIntField } from '@bench/validation';
import { closable, listen, readBody, sendJson } from './http-util';
import { safeDecode } from './json-server';

const BLOG_ROUTE = /^\/client\/call-(a|b)(-parallel)?\/([^/]*)$/;

type HealthCheck = (
  request: { service: string },
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, reply?: { status: string }) => void,
) => void;

/** Probes both servers' health endpoints, as the Nest client's /health/ready does. */
async function readiness(settings: Settings, agent: Agent): Promise<Record<string, string>> {
  const serverA = get(`${settings.serverAUrl}/health`, agent, 2000)
    .then(({ text }) => (JSON.parse(text) as { status?: string }).status ?? 'UNKNOWN')
    .catch((error: Error) => `UNREACHABLE (${error.message})`);
  const Health = grpcServiceClient<grpc.Client & { Check: HealthCheck }>('grpc.health.v1.Health');
  const health = new Health(settings.serverBUrl, grpcChannelCredentials(settings.security));
  const serverB = new Promise<string>((resolve) =>
    health.Check({ service: '' }, { deadline: Date.now() + 2000 }, (error: grpc.ServiceError | null, reply?: { status: string }) =>
      resolve(error ? `UNREACHABLE (${error.details})` : (reply?.status ?? 'UNKNOWN')),
    ),
  ).finally(() => health.close());
  return { 'server-a': await serverA, 'server-b': await serverB };
}

function fail(res: ServerResponse, error: unknown): void {
  if (error instanceof CaseFailure) return sendJson(res, 502, { statusCode: 502, error: 'Bad Gateway', stage: error.stage, message: error.message });
  if (error instanceof BusyError) return sendJson(res, 409, { statusCode: 409, error: 'Conflict', message: error.message });
  const status = (error as { status?: number }).status ?? 500;
  sendJson(res, status, { statusCode: status, message: error instanceof Error ? error.message : String(error) });
}

async function main(): Promise<void> {
  exitWithParent('client');
  const settings = loadSettings();
  const access = loadControlAccess(settings.host);
  processSampler();
  if (settings.security.mode !== 'plain') watchTlsHandshakes(refusalHint(settings.security, 'client'));
  const readinessAgent = defaultAgent(settings, true);
  const transports = bareTransports(settings);
  const runner = new CallRunner(transports);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (needsToken(access, url.pathname) && !carriesToken(access, req.headers.authorization)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendJson(res, 401, unauthorizedBody());
    }
    if (req.method === 'POST' && url.pathname === '/bench/run') {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req, REQUEST_LIMITS.control.bytes));
      } catch (error) {
        const status = (error as { status?: number }).status ?? 400;
        return sendJson(res, status, { statusCode: status, field: 'body', rule: 'type', message: (error as Error).message });
      }
      const request = parseCaseRequest(body, settings, [], runner.transportNames);
      if (!request.ok) return sendJson(res, 400, { statusCode: 400, error: 'Bad Request', ...request.error });
      // A caller that goes away ends its run: the runner is free for the next at once.
      return sendJson(res, 200, await runner.run(request.value, callerSignal(undefined, res)));
    }
    if (req.method !== 'GET') return sendJson(res, 405, { statusCode: 405, error: 'Method Not Allowed' });
    if (url.pathname === '/health') return sendJson(res, 200, { status: 'SERVING', service: 'client' });
    if (url.pathname === '/health/ready') {
      const upstreams = await readiness(settings, readinessAgent);
      const ok = Object.values(upstreams).every((s) => s === 'SERVING');
      return sendJson(res, ok ? 200 : 503, { status: ok ? 'SERVING' : 'NOT_SERVING', upstreams });
    }
    if (url.pathname === '/bench/path') {
      const request = parsePathRequest({ samples: url.searchParams.get('samples') ?? undefined, bulkBytes: url.searchParams.get('bulkBytes') ?? undefined });
      if (!request.ok) return sendJson(res, 400, { statusCode: 400, error: 'Bad Request', ...request.error });
      const options = { ...request.value, serverAUrl: settings.serverAUrl, serverBAddress: settings.serverBUrl, timeoutMs: settings.callTimeoutMs, security: settings.security };
      return sendJson(res, 200, await runner.path(options));
    }
    if (url.pathname === '/bench/info') {
      return sendJson(res, 200, { ...runtimeInfo(), pid: process.pid, settings, protoLoader: PROTO_LOADER_SETTINGS, framework: 'none', variant: 'bare' });
    }
    const blog = BLOG_ROUTE.exec(url.pathname);
    if (!blog) return sendJson(res, 404, { statusCode: 404, error: 'Not Found', message: `no route ${url.pathname}` });
    const transport: TransportName = blog[1] === 'a' ? 'json' : 'grpc';
    const parallel = blog[2] !== undefined;
    const count = parseIntField('count', safeDecode(blog[3]), { min: 1, max: parallel ? settings.maxParallel : settings.maxRows });
    if (!count.ok) return sendJson(res, 400, { statusCode: 400, error: 'Bad Request', ...count.error });
    const [rows, requests] = parallel ? [1, count.value] : [count.value, 1];
    const { elapsedMs, rowsReceived } = await runner.timeOnce(transport, rows, requests, settings.callTimeoutMs);
    return sendJson(res, 200, { transport, rows, requests, elapsedMs, rowsReceived });
  };

  const server = createServer((req, res) => void handle(req, res).catch((error: unknown) => fail(res, error)));
  limitHttp1Connections(server, settings.handshakeTimeoutMs);
  try {
    await listen(server, settings.clientPort, settings.host);
  } catch (error) {
    throw new Error(explainListenError(error, { variable: 'CLIENT_PORT', port: settings.clientPort, host: settings.host }));
  }
  const http = closable(server);
  stopOnSignals({ close: async () => (await http.close(), await closeTransports(transports)) }, 'client');
  console.log(`client (bare node:http) listening on http://${settings.host}:${settings.clientPort}; ${access.describe}`);
}

main().catch((error: unknown) => {
  console.error(`client: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
