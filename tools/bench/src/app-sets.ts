// The sets of apps a run keeps up: a variant's one set without forks, or a set per case and fork,
// several at once (a fork's cases take turns slice by slice), each on ports of its own.
import * as path from 'node:path';
import { startApps, type StartedApps } from './apps';
import type { ClientDriver } from './drivers/driver';
import { HttpClientDriver } from './drivers/http-driver';
import type { PlannedCase } from './model';
import { appsKey } from './options';
import type { Pinning } from './pinning';
import type { VariantRecord } from './variants';

export interface AppSet {
  driver: ClientDriver;
  /** Null when the bench drives a client it did not start (--client-url). */
  apps: StartedApps | null;
}

/** What the bench records when a set comes up (its PIDs, the client's self-description). */
export type OnSetStarted = (planned: PlannedCase, set: AppSet) => Promise<void>;

export class AppSets {
  private readonly up = new Map<string, AppSet & { slot: number }>();

  constructor(
    private readonly workspaceRoot: string,
    private readonly logRoot: string,
    private readonly pinning: Pinning,
    private readonly clientUrl: string | null,
    private readonly onStarted: OnSetStarted,
  ) {}

  /** The set that serves `planned`, started (and waited for) if it is not up yet. */
  async serve(planned: PlannedCase, variant: VariantRecord): Promise<AppSet> {
    const key = appsKey(planned);
    const running = this.up.get(key);
    if (running) return running;
    const slot = this.freeSlot();
    let apps: StartedApps | null = null;
    if (!this.clientUrl) {
      const forWhat = planned.fork > 0 ? ` for ${planned.record.id} fork ${planned.fork}/${planned.forks}` : '';
      process.stderr.write(`bench: starting server-a, server-b and client (${variant.id})${forWhat} …\n`);
      const logDir = path.join(this.logRoot, variant.id, planned.fork > 0 ? `${planned.record.id}-fork${planned.fork}` : '');
      apps = await startApps(this.workspaceRoot, logDir, this.pinning, variant, process.env, slot);
    }
    const set = { driver: new HttpClientDriver(this.clientUrl ?? apps!.clientUrl), apps, slot };
    this.up.set(key, set);
    await this.onStarted(planned, set);
    return set;
  }

  /** Stops the set that served `planned` (no-op if it is not up). */
  async stop(planned: PlannedCase): Promise<void> {
    const key = appsKey(planned);
    const set = this.up.get(key);
    this.up.delete(key);
    await set?.apps?.stop();
  }

  async stopAll(): Promise<void> {
    const sets = [...this.up.values()];
    this.up.clear();
    await Promise.all(sets.map((set) => set.apps?.stop()));
  }

  /** The lowest slot no running set holds: ports are reused once a set is stopped. */
  private freeSlot(): number {
    const taken = new Set([...this.up.values()].map((set) => set.slot));
    let slot = 0;
    while (taken.has(slot)) slot++;
    return slot;
  }
}
