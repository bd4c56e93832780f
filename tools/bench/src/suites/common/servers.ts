import * as os from 'node:os';
import * as path from 'node:path';
import { startApps, planPinning } from '../../run';
import type { Stage } from '../../network';
import { VARIANTS } from '../../plan';

export interface SuiteServers {
  /** server-a's base URL, e.g. http://127.0.0.1:3001 */
  serverAUrl: string;
  /** server-b's address for a gRPC channel, e.g. 127.0.0.1:3002 */
  serverBAddress: string;
  pids: Record<string, number>;
  stop(): Promise<void>;
}

/**
 * The apps of the blog variant, from their production builds, with logs in the run folder. The suites
 * call server-a and server-b directly from the bench process; the idle client app only reports health.
 */
export async function startSuiteServers(workspaceRoot: string, runDir: string, stage?: Stage): Promise<SuiteServers> {
  const blog = VARIANTS.find((v) => v.id === 'blog');
  if (!blog) throw new Error('the blog variant is missing from variants.ts');
  const apps = await startApps(workspaceRoot, path.join(runDir, 'logs'), planPinning(false, os.cpus().length, false), blog, { placement: stage });
  if (!stage) {
    return { serverAUrl: `http://127.0.0.1:${apps.ports.serverA}`, serverBAddress: `127.0.0.1:${apps.ports.serverB}`, pids: apps.pids, stop: () => apps.stop() };
  }
  // The suites call the servers from this process, which cannot join the client namespace: each
  // connection goes through the stage's bridge, whose forwarder in the client namespace opens it to
  // the server namespace across the router (handshake, delay, window stalls and all).
  const serverAUrl = await stage.exposeOnHost(stage.hosts.server, apps.ports.serverA);
  const serverBUrl = await stage.exposeOnHost(stage.hosts.server, apps.ports.serverB);
  return { serverAUrl, serverBAddress: serverBUrl.replace(/^http:\/\//, ''), pids: apps.pids, stop: () => apps.stop() };
}
