import * as os from 'node:os';
import * as path from 'node:path';
import { BROKER_URL_ENV, loadSecurity, MICROSERVICE_ENV, type SecuritySettings } from '@bench/config';
import { microserviceNamespace, securityEnv, startApps, planPinning, type StartOptions } from '../../run';
import type { Stage } from '../../network/stage';
import { VARIANTS } from '../../plan';

export interface SuiteServers {
  /** server-a's base URL, e.g. http://127.0.0.1:3001 (https:// under TLS) */
  serverAUrl: string;
  /** server-b's address for a gRPC channel, e.g. 127.0.0.1:3002 */
  serverBAddress: string;
  /** What the suite's callers wrap their connections in: plain, or the run's CA (and the client's certificate under mtls), described. */
  security: SecuritySettings;
  /**
   * The same as the variables an app reads it from (libs/config SECURITY_ENV: the mode and the files'
   * paths, never their bytes), for the measuring job in the client namespace, which loads it again.
   */
  securityEnv: Record<string, string>;
  /**
   * What a caller of Nest's microservice transports needs, as the variables the apps read (libs/config):
   * the set's namespace, server-b's Nest TCP address, the brokers' URLs; empty without a Nest transport.
   */
  nestEnv: Record<string, string>;
  pids: Record<string, number>;
  /** The servers' own ports (where they listen: 127.0.0.1, or the stage's server address). */
  ports: { serverA: number; serverB: number };
  stop(): Promise<void>;
}

/**
 * The apps of the blog variant, from their production builds, with logs in the run folder. The suites
 * call server-a and server-b directly (across a stage, from its client namespace); the idle client app
 * only reports health. Under `security` the servers listen with TLS and the suite's calls verify them.
 */
export async function startSuiteServers(
  workspaceRoot: string,
  runDir: string,
  stage?: Stage,
  security?: StartOptions['security'],
  nest: { transports: readonly string[]; brokerEnv: Record<string, string> } = { transports: [], brokerEnv: {} },
  profiling?: StartOptions['profiling'],
): Promise<SuiteServers> {
  const blog = VARIANTS.find((v) => v.id === 'blog');
  if (!blog) throw new Error('the blog variant is missing from variants.ts');
  const apps = await startApps(workspaceRoot, path.join(runDir, 'logs'), planPinning(false, os.cpus().length, false), blog, { placement: stage, security, microservices: nest.transports, brokerEnv: nest.brokerEnv, profiling });
  // Across a stage the calls are made from its client namespace (stage-job.ts), so they dial the server namespace directly.
  const host = stage ? stage.hosts.server : '127.0.0.1';
  const ports = { serverA: apps.ports.serverA, serverB: apps.ports.serverB };
  const env = securityEnv(security, 'client') as Record<string, string>;
  const clientSecurity = loadSecurity(env);
  const scheme = clientSecurity.mode === 'plain' ? 'http' : 'https';
  const brokers = Object.fromEntries(Object.values(BROKER_URL_ENV).flatMap((variable) => (nest.brokerEnv[variable] ? [[variable, nest.brokerEnv[variable]]] : [])));
  const nestEnv = nest.transports.length === 0 ? {} : { [MICROSERVICE_ENV.namespace]: microserviceNamespace(0), [MICROSERVICE_ENV.tcpUrl]: `${host}:${apps.ports.serverBTcp}`, ...brokers };
  return { serverAUrl: `${scheme}://${host}:${ports.serverA}`, serverBAddress: `${host}:${ports.serverB}`, security: clientSecurity, securityEnv: env, nestEnv, pids: apps.pids, ports, stop: () => apps.stop() };
}
