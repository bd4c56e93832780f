// What bench:service needs on this machine to run through the real stage (root specs share it).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkPrerequisites, startStage, type NetworkProfile } from '../src/network/stage';
import { measureService, type ServiceOptions, type ServiceResults, type ServiceSettings } from '../src/suites/service/measure';
import { dnsmasqMissing } from '../src/network/path/cluster-dns';
import { ReplicaSet } from '../src/network/service/replicas';
import { resolveEnvoy } from '../src/network/path/envoy-binary';

const ROOT = path.resolve(__dirname, '../../..');
const DIST = path.resolve(__dirname, '../dist');

/** Why bench:service cannot run on `profile` here (root, iptables, dnsmasq, the builds, Envoy, CPU cgroups), or null. */
export function serviceStageMissing(profile: NetworkProfile): string | null {
  if (process.getuid?.() !== 0) return 'not root';
  if (spawnSync('sh', ['-c', 'command -v iptables && command -v iptables-restore && command -v ss']).status !== 0) return 'iptables or ss not installed (apt-get install -y iptables iproute2)';
  const noDns = dnsmasqMissing();
  if (noDns) return noDns;
  for (const built of ['suites/service/driver.js', 'network/stage/index.js']) if (!fs.existsSync(path.join(DIST, built))) return `the bench is not built (${built}): npx nx run bench:build`;
  for (const app of ['server-a', 'server-b']) if (!fs.existsSync(path.join(ROOT, 'apps', app, 'dist/main.js'))) return `${app} is not built: npx nx run ${app}:build`;
  try {
    resolveEnvoy();
  } catch (error) {
    return (error as Error).message;
  }
  return checkPrerequisites(profile) ?? ReplicaSet.limitUnavailable();
}


/** measureService on a fresh stage of `profile` (run id `runId`) and a temp run folder, both removed after it, whatever happens. */
export async function measureOnStage(profile: NetworkProfile, runId: string, options: ServiceOptions, settings: ServiceSettings): Promise<ServiceResults> {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${runId}-`));
  const stage = await startStage(profile, { runId });
  try {
    return await measureService(stage, runDir, options, settings, () => undefined, () => undefined);
  } finally {
    await stage.stop();
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}
