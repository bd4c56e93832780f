// --cpu-profile on a suite: what the suite starts that is ours (the blog's servers, a service's replicas)
// and the suite's own process (its callers and load generators, `bench`) run with bench:all's profilers
// (run/cpu-profiles.ts), started just before each measured part of the suite and stopped just after it
// (never around a warm-up or set-up), the stretches of one unit merged per process into the run folder
// (profiles/<unit>/<process>.cpuprofile) and summarized by package into the document's cpuProfiles.
// A unit is what the suite's results are keyed by, in a cell key's fields: its case and its transport.
import { CpuProfiles, cpuProfileAgent, serveCpuProfiler, type ProfiledCell, type SetProfiling } from '../../run';
import { cellKey, type ProfiledRecord } from '../../model';

/** The suite's own process, profiled beside the apps it starts: its callers, its load generator. */
export const SUITE_PROCESS = 'bench';

/** One measured unit of a suite: what its results are keyed by, as a profile's case and transport. */
export interface ProfiledUnit {
  case: string;
  transport: string;
}

/**
 * Runs a suite's measured part of `unit`, profiled under --cpu-profile; `callsOf` says how many calls
 * (or operations) it made, so the summary's figures are per call (absent: the part counts as one).
 */
export type Profiled = <T>(unit: ProfiledUnit, measured: () => Promise<T>, callsOf?: (result: T) => number) => Promise<T>;

/** Without --cpu-profile: the measured part as it is. */
export const unprofiled: Profiled = (_unit, measured) => measured();

/** The measured part between its unit's profilers' start and stop (here, or asked of the suite's process from the stage's job). */
export function profiledBy(start: (unit: ProfiledUnit) => Promise<void>, stop: (unit: ProfiledUnit, calls: number) => Promise<void>): Profiled {
  return async (unit, measured, callsOf) => {
    await start(unit);
    let calls = 1;
    try {
      const result = await measured();
      if (callsOf) calls = callsOf(result);
      return result;
    } finally {
      await stop(unit, calls);
    }
  };
}

/** Where a suite's units were measured: its document's network, runtime, security, and the variant of the apps (blog; in-process without apps). */
export type ProfiledPlace = Pick<ProfiledCell, 'network' | 'runtime' | 'security' | 'variant'>;

/** A suite's profilers: the sockets of what it started, the units measured so far and their profiles. */
export class SuiteProfiling {
  private readonly profiles: CpuProfiles;
  private readonly sets = new Set<SetProfiling>();
  private readonly units = new Map<string, ProfiledCell>();
  private readonly closers: (() => void)[] = [];

  constructor(
    runDir: string,
    workspaceRoot: string,
    private readonly place: ProfiledPlace,
    /** Told the records after each measured part (the document's cpuProfiles, saved). */
    private readonly changed: (records: ProfiledRecord[]) => void,
  ) {
    this.profiles = new CpuProfiles(runDir, cpuProfileAgent(workspaceRoot));
  }

  get intervalUs(): number {
    return this.profiles.intervalUs;
  }

  /** Sockets for processes the suite starts, by name (server-a, server-b; a replica's r1-server-a, …), profiled until `drop`. */
  forProcesses(names: readonly string[]): SetProfiling {
    const set = this.profiles.forNewSet(names);
    this.sets.add(set);
    return set;
  }

  /** Processes that stopped: no longer asked to profile. */
  drop(set: SetProfiling | null | undefined): void {
    if (set) this.sets.delete(set);
  }

  /** This process, profiled by the agent's code served in it (until close). */
  profileThisProcess(): void {
    const set = this.forProcesses([SUITE_PROCESS]);
    this.closers.push(serveCpuProfiler(set.sockets[SUITE_PROCESS]!, set.intervalUs));
  }

  /** Every profiler on, before a unit's measured part. */
  async start(unit: ProfiledUnit): Promise<void> {
    const cell = this.cellOf(unit);
    await Promise.all([...this.sets].map((set) => this.profiles.start(set.sockets, cell, 'node')));
  }

  /** Every profiler off after it (its `calls` calls); the unit's profiles written and the records told. */
  async stop(unit: ProfiledUnit, calls = 1): Promise<void> {
    const cell = this.cellOf(unit);
    await Promise.all([...this.sets].map((set) => this.profiles.stop(set.sockets, cell, 'node', calls)));
    this.changed(this.records());
  }

  /** The measured part of `unit` between start and stop. */
  readonly around: Profiled = profiledBy(
    (unit) => this.start(unit),
    (unit, calls) => this.stop(unit, calls),
  );

  /** Every unit profiled so far, with its summary, in the order measured. */
  records(): ProfiledRecord[] {
    return [...this.units.values()].map((cell) => ({ ...cell, cpuProfile: this.profiles.summaryOf(cell) }));
  }

  /** Ends this process's profiler and removes the sockets' folder. */
  close(): void {
    for (const close of this.closers.splice(0)) close();
    this.profiles.remove();
  }

  private cellOf(unit: ProfiledUnit): ProfiledCell {
    const cell = { ...this.place, case: unit.case, transport: unit.transport };
    const key = cellKey(cell);
    if (!this.units.has(key)) this.units.set(key, cell);
    return this.units.get(key)!;
  }
}
