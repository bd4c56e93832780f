import { randomBytes } from 'node:crypto';
import { CONTROL_TOKEN_ENV } from '@bench/config';

/**
 * The token of every client this bench process starts: one per run, random, never written to the run
 * folder (only its variable's name is). A client bound beyond loopback (the network stage's namespaces)
 * refuses to start without one, and one on loopback costs nothing.
 */
const RUN_TOKEN = randomBytes(32).toString('hex');

/** The token for the clients this run starts. */
export function runToken(): string {
  return RUN_TOKEN;
}

/**
 * The token for a client the bench did not start (--client-url): BENCH_TOKEN from the environment, never
 * a command-line option (argv is recorded in results.json's provenance and visible in `ps`). Null: none
 * given, the client must then be open (bound to loopback without a token).
 */
export function givenToken(env: NodeJS.ProcessEnv = process.env): string | null {
  return env[CONTROL_TOKEN_ENV]?.trim() || null;
}

/** One line for the start of a --client-url run: whether a token is sent, and from where (never the token). */
export function describeGivenToken(clientUrl: string, token: string | null): string {
  return token === null
    ? `bench: calling ${clientUrl} without a token (${CONTROL_TOKEN_ENV} is not set): a client bound beyond loopback will answer 401`
    : `bench: sending ${CONTROL_TOKEN_ENV} from the environment to ${clientUrl} as Authorization: Bearer`;
}
