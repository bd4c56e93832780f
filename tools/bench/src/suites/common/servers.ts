import * as os from 'node:os';
import * as path from 'node:path';
import { startApps, planPinning } from '../../run';
import type { Stage } from '../../network/stage';
import { VARIANTS } from '../../plan';

export interface SuiteServers {
  /** server-a's base URL, e.g. http://127.0.0.1:3001 */
  serverAUrl: string;
  /** server-b's address for a gRPC channel, e.g. 127.0.0.1:3002 */
  serverBAddress: string;
  pids: Record<string, number>;
  /** The servers' own ports (where they listen: 127.0.0.1, or the stage's server address). */
  ports: { serverA: number; serverB: number };
  stop(): Promise<void>;
}

/**
 * The apps of the blog variant, from their production builds, with logs in the run folder. The suites
 * call server-a and server-b directly (across a stage, from its client namespace); the idle client app only reports health.
 */
export async function startSuiteServers(workspaceRoot: string, runDir: string, stage?: Stage): Promise<SuiteServers> {
  const blog = VARIANTS.find((v) => v.id === 'blog');
  if (!blog) throw new Error('the blog variant is missing from variants.ts');
  const apps = await startApps(workspaceRoot, path.join(runDir, 'logs'), planPinning(false, os.cpus().length, false), blog, { placement: stage });
  // Across a stage the calls are made from its client namespace (stage-job.ts), so they dial the server namespace directly.
  const host = stage ? stage.hosts.server : '127.0.0.1';
  const ports = { serverA: apps.ports.serverA, serverB: apps.ports.serverB };
  return { serverAUrl: `http://${host}:${ports.serverA}`, serverBAddress: `${host}:${ports.serverB}`, pids: apps.pids, ports, stop: () => apps.stop() };
}
