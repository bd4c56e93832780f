// What bench:all settles before its run frame starts: the variant of a running client (--client-url),
// each variant's processes (built when the variant knows how), and how long the run should take.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { variantOfClient } from './client-identity';
import { deployedNetwork } from './deployed-network';
import { describeGivenToken, givenToken } from './control-token';
import { runBoundMs, appSetKey, missingMains, type BenchOptions, type VariantRecord } from '../plan';
import { HttpClientDriver, expectedCostMs, SET_START_MS, STAGE_BUILD_MS, estimateRun, type RunEstimate } from '../measure';
import { usesStage } from '../network/stage';
import { listRuns, readRun, runtimeNameOf, rttMs, type Visit, type StoredRun } from '../model';
import { errorText } from '../cli';

export const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');

/** How long the run should take, from the last runs in the results folder (measure/estimate.ts), and the longest it can take (deadlines.ts). */
export function describeDuration(options: BenchOptions, plan: readonly Visit[]): { estimate: RunEstimate; boundMs: number } {
  const sets = options.clientUrl ? 0 : new Set(plan.map(appSetKey)).size;
  const stages = options.networks.filter((n) => usesStage(n.network)).length;
  const rtt = new Map(options.networks.map((n) => [n.name, rttMs(n.network)]));
  const history: StoredRun[] = [];
  for (const dir of listRuns(options.out)) {
    try {
      history.push(readRun(dir));
    } catch {
      // An unreadable past run only leaves the estimate to the others (the index names it).
    }
  }
  const model = { visitMs: (p: Visit) => expectedCostMs(p, rtt.get(p.network) ?? 0), setStartMs: SET_START_MS, stageBuildMs: STAGE_BUILD_MS };
  return { estimate: estimateRun(plan, sets, stages, history, model), boundMs: runBoundMs(plan, (p) => p.deadlineMs, sets, stages) };
}

/**
 * Makes sure a variant's processes exist, building them when the variant knows how (the Go reference
 * lives outside the Nx build). Returns why an optional variant cannot run here, or null when it can.
 */
export function prepareVariant(variant: VariantRecord): string | null {
  const exists = (file: string) => fs.existsSync(path.join(WORKSPACE_ROOT, file));
  if (missingMains(variant, exists).length > 0 && variant.build) {
    process.stderr.write(`bench: building variant ${variant.id}: ${variant.build.join(' ')}\n`);
    spawnSync(variant.build[0], variant.build.slice(1), { cwd: WORKSPACE_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  const missing = missingMains(variant, exists);
  if (missing.length === 0) return null;
  const why = `${missing.join(', ')} not built (see the build's message above)`;
  if (variant.optional) return why;
  throw new Error(`variant ${variant.id}: ${why}`);
}

/** With --client-url, the options with the variant the running client reports (client-identity.ts) and its deployment's network. */
export async function withClientVariant(options: BenchOptions): Promise<BenchOptions> {
  if (!options.clientUrl) return options;
  const token = givenToken();
  process.stderr.write(`${describeGivenToken(options.clientUrl, token)}\n`);
  let info: Record<string, unknown>;
  try {
    info = await new HttpClientDriver(options.clientUrl, token).describe();
  } catch (error) {
    throw new Error(`cannot reach the client at ${options.clientUrl} (GET /bench/info: ${errorText(error)})`);
  }
  const requested = options.variantsGiven ? options.variants.map((v) => v.id) : null;
  // The cells are labelled with the Node the running client reports, not the one the bench would have started.
  const node = typeof info.node === 'string' ? info.node : 'unknown';
  const runtimes = [{ name: runtimeNameOf(node), version: node.replace(/^v/, ''), why: 'the running client (--client-url)' }];
  // Its network is the deployment's (the Docker bridge, the pod network), not loopback (deployed-network.ts).
  const clientUrl = options.clientUrl;
  const networks = options.networks.map((n) => deployedNetwork(n, clientUrl));
  return { ...options, networks, runtimes, variants: [variantOfClient(info, options.clientUrl, requested)] };
}
