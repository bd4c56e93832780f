import { createHash, timingSafeEqual } from 'node:crypto';
import { ConfigError } from './config-error';

/** The variable that holds the client's control token; callers send it as `Authorization: Bearer <token>`. */
export const CONTROL_TOKEN_ENV = 'BENCH_TOKEN';

/**
 * Shortest token accepted: a guessable one ("test", "secret") would protect nothing. 16 characters of
 * `openssl rand -hex 32`'s 64 are 64 bits, far beyond guessing over HTTP.
 */
export const CONTROL_TOKEN_MIN_LENGTH = 16;

/** Routes that answer without the token: orchestrators (compose, the kubelet, the bench) poll them and they start no work. */
export const OPEN_ROUTES: readonly string[] = Object.freeze(['/health', '/health/ready']);

/** Who may use a client's control API (/bench/*, /client/*), decided once at start-up. */
export interface ControlAccess {
  /** The token every caller must send; null: none asked (bound to loopback, no BENCH_TOKEN). */
  token: string | null;
  /** One line for the start-up log: what is open to whom. */
  describe: string;
}

/** Whether `host` (HOST) only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare) || /^::ffff:127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * The control API's access rule. On loopback without BENCH_TOKEN it is open, as it always was: only
 * this machine can reach it. Bound anywhere else (HOST=0.0.0.0: compose, Kubernetes, two hosts) it
 * needs a token, and an app without one refuses to start rather than serve the whole network: a
 * generated token printed on the log would have to be fished out of it by whoever runs the bench, while
 * a refusal names the one variable to set. A token given on loopback is required there too.
 */
export function loadControlAccess(host: string, env: NodeJS.ProcessEnv = process.env): ControlAccess {
  const token = env[CONTROL_TOKEN_ENV]?.trim() || null;
  if (token !== null && token.length < CONTROL_TOKEN_MIN_LENGTH) {
    throw new ConfigError(`${CONTROL_TOKEN_ENV} is ${token.length} characters; use at least ${CONTROL_TOKEN_MIN_LENGTH}, e.g. ${CONTROL_TOKEN_ENV}=$(openssl rand -hex 32)`);
  }
  if (token === null && !isLoopbackHost(host)) {
    throw new ConfigError(
      `HOST=${host} opens the control API (POST /bench/run, GET /bench/path, /client/*) to other machines: ` +
        `set ${CONTROL_TOKEN_ENV} to a secret (e.g. ${CONTROL_TOKEN_ENV}=$(openssl rand -hex 32)) and give the bench the same one, ` +
        'or bind HOST=127.0.0.1',
    );
  }
  const open = OPEN_ROUTES.join(' and ');
  return {
    token,
    describe:
      token === null
        ? `control API open to this machine only (HOST=${host} is loopback; set ${CONTROL_TOKEN_ENV} to require a token)`
        : `control API requires Authorization: Bearer <${CONTROL_TOKEN_ENV}> (${open} stay open)`,
  };
}

/** Whether a request's path needs the token. */
export function needsToken(access: ControlAccess, pathname: string): boolean {
  return access.token !== null && !OPEN_ROUTES.includes(pathname);
}

/** Whether an `Authorization` header carries the token (compared in constant time: no timing hint to a guesser). */
export function carriesToken(access: ControlAccess, authorization: string | string[] | undefined): boolean {
  if (access.token === null) return true;
  const header = Array.isArray(authorization) ? authorization[0] : authorization;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]), digest(access.token));
}

/** The 401 body every client sends to a caller without the token (the header to add: WWW-Authenticate: Bearer). */
export function unauthorizedBody(): { statusCode: 401; error: 'Unauthorized'; message: string } {
  return { statusCode: 401, error: 'Unauthorized', message: `this client's control API needs Authorization: Bearer <${CONTROL_TOKEN_ENV}> (the token it was started with)` };
}
