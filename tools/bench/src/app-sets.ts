// The life of a variant's app sets: each starts at its first visit, idles between its visits while the
// other sets serve theirs, and stops after its last. main.ts decides what to run; this decides on what.
import * as path from 'node:path';
import { KEEP_WARM_NODE_FLAGS, startApps, type StartedApps } from './apps';
import { HttpClientDriver } from './drivers/http-driver';
import { probeMachine } from './machine-probe';
import type { PlannedCase, RunDocument } from './model';
import { appSetKey, lastVisitOfAppSet, type BenchOptions } from './options';
import type { Pinning } from './pinning';
import { QUIET_RULE, waitUntilQuiet, type QuietRule } from './quiesce';
import { runCases, type RunnerHooks } from './runner';
import type { VariantRecord } from './variants';

/** What the quiet waits before visits came to, in settings (quiesce.ts). */
export interface QuietWaits {
  rule: QuietRule;
  visits: number;
  totalMs: number;
  notQuiet: number;
}

export function noQuietWaits(): QuietWaits {
  return { rule: QUIET_RULE, visits: 0, totalMs: 0, notQuiet: 0 };
}

export interface VariantContext {
  workspaceRoot: string;
  options: BenchOptions;
  /** Gets each started set (settings.startedApps), the clients' self-descriptions and the quiet waits. */
  doc: RunDocument;
  runDir: string;
  pinning: Pinning;
  signal: AbortSignal;
  hooks: RunnerHooks;
  /** Writes the run's files; called when a set has started, so its pids are on disk before it serves. */
  save: () => void;
}

/** A set of apps that is up: started by the bench (apps) or given by --client-url (apps null). */
interface LiveSet {
  apps: StartedApps | null;
  driver: HttpClientDriver;
  slot: number;
}

/** Starts the set of apps a visit needs (unless --client-url), records it, and asks the client who it is. */
async function startSet(planned: PlannedCase, slot: number, variant: VariantRecord, ctx: VariantContext): Promise<LiveSet> {
  const { options, doc, runDir, pinning } = ctx;
  let apps: StartedApps | null = null;
  if (!options.clientUrl) {
    const id = planned.record.id;
    const forWhat = planned.fork > 0 ? ` for ${id} fork ${planned.fork}/${planned.forks}` : '';
    process.stderr.write(`bench: starting server-a, server-b and client (${variant.id})${forWhat} …\n`);
    const logDir = path.join(runDir, 'logs', variant.id, ...(planned.fork > 0 ? [`${planned.record.aliases[0] ?? id}-fork${planned.fork}`] : []));
    // Only sets that idle between visits need keeping warm; a set with one visit runs as plain Node.
    const nodeFlags = planned.visits > Math.max(1, planned.forks) ? KEEP_WARM_NODE_FLAGS : [];
    apps = await startApps(ctx.workspaceRoot, logDir, pinning, variant, { slot, nodeFlags });
    const started = doc.settings.startedApps as Record<string, unknown[]>;
    (started[variant.id] ??= []).push({
      cases: planned.fork > 0 ? [id] : 'all',
      fork: planned.fork,
      pids: apps.pids,
      ports: apps.ports,
      nodeFlags: variant.runtime === 'node' ? nodeFlags : [],
    });
    ctx.save();
  }
  try {
    const driver = new HttpClientDriver(options.clientUrl ?? apps!.clientUrl);
    const client = await driver.describe();
    (doc.provenance.clients as Record<string, unknown>)[variant.id] = client;
    doc.provenance.client ??= client;
    return { apps, driver, slot };
  } catch (error) {
    await apps?.stop();
    throw error;
  }
}

/** The lowest slot (ports + 10 × slot) no live set uses. */
function freeSlot(live: ReadonlyMap<string, LiveSet>): number {
  const taken = new Set([...live.values()].map((s) => s.slot));
  let slot = 0;
  while (taken.has(slot)) slot++;
  return slot;
}

/**
 * Runs one variant's visits in plan order. Before its first call, a visit waits until the idle sets
 * are quiet (quiesce.ts). Every set still up is stopped however the loop ends.
 */
export async function runVariant(visits: readonly PlannedCase[], variant: VariantRecord, ctx: VariantContext): Promise<void> {
  const last = lastVisitOfAppSet(visits);
  const live = new Map<string, LiveSet>();
  const quiet = ctx.doc.settings.quietWaits as QuietWaits;
  try {
    for (const [index, planned] of visits.entries()) {
      if (ctx.signal.aborted) break;
      const key = appSetKey(planned);
      let set = live.get(key);
      if (!set) {
        set = await startSet(planned, freeSlot(live), variant, ctx);
        live.set(key, set);
      }
      const idle = [...live.entries()].filter(([k]) => k !== key).flatMap(([, s]) => (s.apps ? Object.values(s.apps.pids) : []));
      const beforeVisit = async () => {
        const wait = await waitUntilQuiet(idle);
        quiet.visits++;
        quiet.totalMs = Math.round(quiet.totalMs + wait.waitedMs);
        if (!wait.quiet) quiet.notQuiet++;
      };
      await runCases([planned], set.driver, { ...ctx.hooks, beforeVisit }, ctx.signal, probeMachine);
      if (last.get(key) === index) {
        live.delete(key);
        await set.apps?.stop();
      }
    }
  } finally {
    await Promise.all([...live.values()].map((s) => s.apps?.stop()));
  }
}
