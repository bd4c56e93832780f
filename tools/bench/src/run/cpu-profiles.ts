// --cpu-profile: every app of a set runs with a profiler the bench starts just before each timed call
// and stops just after it (not the cold call, not the warm-up), over a Unix socket per app: V8's through
// the agent node loads before the app (cpu-profile-agent.ts), Go's runtime/pprof in the Go apps
// (tools/go-reference/internal/cpuprofile). The stretches of one cell and process are merged into one
// file in the run folder (profiles/<cell>/<process>.cpuprofile or .pprof.gz), rewritten whole after
// each visit, and summarized by package into the cell (model/cpu-profile.ts).
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { APP_NAMES, DEFAULT_RUNTIME } from '../plan';
import { cellKey, summarizeProfile, writeFileAtomic, type CellCpuProfile, type CellKey, type ProcessCpuProfile } from '../model';
import { errorText } from '../cli';
import { CPU_PROFILE_INTERVAL_ENV, CPU_PROFILE_SOCKET_ENV } from './cpu-profile-agent';
import { ownedTempDir } from './dead-runs';
import { asCpuProfile, cpuProfileTree, decodePprof, encodePprof, mergeCpuProfiles, mergePprofs, pprofTree, withPeriod, type CpuProfile, type Pprof } from './cpu-profile-formats';

/** The sampling interval asked of V8's profiler: its default, 1000 µs, is too coarse for a 1 ms call. */
export const CPU_PROFILE_INTERVAL_US = 200;
/**
 * Go's: its profiler cannot sample faster than the kernel's tick (CONFIG_HZ 250 here: 5000 Hz asked gave
 * 235 samples a second of CPU), so it is asked for 250 Hz, above its own 100 Hz, and each sample weighs 4 ms.
 */
export const GO_CPU_PROFILE_INTERVAL_US = 4000;
/** How long one command to an app's profiler may take (a stop serializes the profile). */
const COMMAND_BOUND_MS = 15_000;

/** The agent node loads into each app (built with the bench). */
export function cpuProfileAgent(workspaceRoot: string): string {
  return path.join(workspaceRoot, 'tools/bench/dist/run/cpu-profile-agent.js');
}

/** What one set's apps are started with: the agent's path, each profiled process's socket by its name, V8's sampling interval. */
export interface SetProfiling {
  agent: string;
  /** An app without a socket here runs unprofiled. */
  sockets: Readonly<Partial<Record<string, string>>>;
  intervalUs: number;
}

/**
 * How the process `name` of a set starts under its profiling: a Node one loads the agent before its own
 * code (nodeArgs), and its socket and V8's interval are in its environment (a Go app reads them too);
 * nothing for a process without a socket.
 */
export function agentLaunch(profiling: SetProfiling | null | undefined, name: string): { nodeArgs: string[]; env: Record<string, string> } {
  const socket = profiling?.sockets[name];
  if (!profiling || !socket) return { nodeArgs: [], env: {} };
  return { nodeArgs: ['--require', profiling.agent], env: { [CPU_PROFILE_SOCKET_ENV]: socket, [CPU_PROFILE_INTERVAL_ENV]: String(profiling.intervalUs) } };
}

/** What names a cell: bench:all's key, or a suite's unit in the same fields (its transport any name it compares). */
export type ProfiledCell = Pick<CellKey, 'network' | 'runtime' | 'security' | 'variant' | 'case'> & { transport: string };

type Profile = { format: 'cpuprofile'; data: CpuProfile } | { format: 'pprof'; data: Pprof };

interface Entry {
  profile: Profile | null;
  calls: number;
  errors: string[];
  /** The summary as of the last write; null when stretches came since. */
  summary: ProcessCpuProfile | null;
}

/** Sends one command line to an app's profiler and resolves on its "ok"; rejects with its error or a timeout. */
export function profilerCommand(socket: string, command: object, boundMs = COMMAND_BOUND_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const connection = net.createConnection(socket);
    let answer = '';
    const timer = setTimeout(() => connection.destroy(new Error(`no answer in ${boundMs / 1000} s`)), boundMs);
    connection.setEncoding('utf8');
    connection.on('connect', () => connection.write(`${JSON.stringify(command)}\n`));
    connection.on('data', (chunk: string) => (answer += chunk));
    connection.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    connection.on('close', () => {
      clearTimeout(timer);
      if (answer.trim() === 'ok') resolve();
      else reject(new Error(answer.trim() || 'the profiler closed without an answer'));
    });
  });
}

/** A cell's folder under profiles/: its key, spelled with what every file system takes. */
export function profileFolder(cell: ProfiledCell): string {
  const safe = (s: string) => s.replace(/①/g, '1').replace(/②/g, '2').replace(/×/g, 'x').replace(/[^A-Za-z0-9._+-]/g, '_');
  const parts = [cell.network ?? 'loopback', cell.variant, cell.case, cell.transport, ...(cell.runtime && cell.runtime !== DEFAULT_RUNTIME ? [`node${cell.runtime}`] : []), ...(cell.security && cell.security !== 'plain' ? [cell.security] : [])];
  return parts.map(safe).join('-');
}

/** The run's profiles: the sockets of its sets, each cell's merged profiles, their files and summaries. */
export class CpuProfiles {
  private readonly socketDir = ownedTempDir('bench-cpu-');
  private readonly cells = new Map<string, { cell: ProfiledCell; processes: Map<string, Entry> }>();
  private sets = 0;

  constructor(
    private readonly runDir: string,
    private readonly agent: string,
    readonly intervalUs = CPU_PROFILE_INTERVAL_US,
  ) {}

  /** Sockets for a new set of processes, by name (each set its own, whatever its slot): bench:all's apps, or what a suite starts. */
  forNewSet(names: readonly string[] = APP_NAMES): SetProfiling {
    const set = ++this.sets;
    return { agent: this.agent, intervalUs: this.intervalUs, sockets: Object.fromEntries(names.map((name) => [name, path.join(this.socketDir, `${set}-${name}.sock`)])) };
  }

  /** Starts the profiler of every process of a set (before a timed call); a profiler that does not start is noted on the cell, never fails the call. */
  async start(sockets: SetProfiling['sockets'], cell: ProfiledCell, runtime: 'node' | 'executable'): Promise<void> {
    const intervalUs = runtime === 'node' ? this.intervalUs : GO_CPU_PROFILE_INTERVAL_US;
    await Promise.all(socketsOf(sockets).map(([name, socket]) => profilerCommand(socket, { op: 'start', intervalUs }).catch((error: unknown) => this.entry(cell, name).errors.push(`start: ${errorText(error)}`))));
  }

  /** Stops them (after the call) and adds each stretch to its cell and process, as `calls` calls (a suite's measured part holds many). */
  async stop(sockets: SetProfiling['sockets'], cell: ProfiledCell, runtime: 'node' | 'executable', calls = 1): Promise<void> {
    await Promise.all(socketsOf(sockets).map(([name, socket]) => this.stopOne(socket, cell, name, runtime === 'node' ? 'cpuprofile' : 'pprof', calls)));
  }

  private async stopOne(socket: string, cell: ProfiledCell, name: string, format: Profile['format'], calls: number): Promise<void> {
    const entry = this.entry(cell, name);
    const file = path.join(this.socketDir, `stretch-${process.pid}-${name}.${format}`);
    try {
      await profilerCommand(socket, { op: 'stop', file });
      const bytes = fs.readFileSync(file);
      const stretch: Profile = format === 'cpuprofile' ? { format, data: asCpuProfile(JSON.parse(bytes.toString('utf8'))) } : { format, data: withPeriod(decodePprof(bytes), GO_CPU_PROFILE_INTERVAL_US * 1000) };
      entry.profile = merged(entry.profile, stretch);
      entry.calls += calls;
      entry.summary = null;
    } catch (error) {
      entry.errors.push(`stop: ${errorText(error)}`);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  private entry(cell: ProfiledCell, name: string): Entry {
    const key = cellKey(cell);
    const known = this.cells.get(key) ?? { cell, processes: new Map() };
    this.cells.set(key, known);
    const entry = known.processes.get(name) ?? { profile: null, calls: 0, errors: [], summary: null };
    known.processes.set(name, entry);
    return entry;
  }

  /** Writes the profiles that changed since the last write (atomically) and returns a cell's summary; undefined for a cell never profiled. */
  summaryOf(cell: ProfiledCell): CellCpuProfile | undefined {
    const known = this.cells.get(cellKey(cell));
    if (!known) return undefined;
    const processes = [...known.processes].map(([name, entry]) => (entry.summary ??= this.written(known.cell, name, entry)));
    return { intervalUs: this.intervalUs, processes };
  }

  private written(cell: ProfiledCell, name: string, entry: Entry): ProcessCpuProfile {
    const error = entry.errors.length ? { error: [...new Set(entry.errors)].slice(0, 3).join('; ') } : {};
    const format = entry.profile?.format ?? 'cpuprofile';
    if (!entry.profile) return { process: name, format, file: null, calls: 0, sampledMs: 0, busyMs: 0, packages: [], functions: [], flame: { name: '(root)', package: '(root)', totalMs: 0, selfMs: 0 }, ...error };
    const relative = path.join('profiles', profileFolder(cell), `${name}.${format === 'cpuprofile' ? 'cpuprofile' : 'pprof.gz'}`);
    const file = path.join(this.runDir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const { profile } = entry;
    if (profile.format === 'cpuprofile') writeFileAtomic(file, JSON.stringify(profile.data));
    else writeFileAtomic(file, encodePprof(profile.data));
    const tree = profile.format === 'cpuprofile' ? cpuProfileTree(profile.data) : pprofTree(profile.data);
    return { ...summarizeProfile(tree, { process: name, format, file: relative, calls: entry.calls }), intervalUs: format === 'cpuprofile' ? this.intervalUs : GO_CPU_PROFILE_INTERVAL_US, ...error };
  }

  /** Removes the sockets' folder (the apps remove their own sockets as they exit). */
  remove(): void {
    fs.rmSync(this.socketDir, { recursive: true, force: true });
  }
}

/** A set's processes and their sockets, in the set's order. */
function socketsOf(sockets: SetProfiling['sockets']): [string, string][] {
  return Object.entries(sockets).flatMap(([name, socket]) => (socket ? [[name, socket] as [string, string]] : []));
}

function merged(sofar: Profile | null, more: Profile): Profile {
  if (!sofar) return more;
  if (sofar.format === 'cpuprofile' && more.format === 'cpuprofile') return { format: 'cpuprofile', data: mergeCpuProfiles(sofar.data, more.data) };
  if (sofar.format === 'pprof' && more.format === 'pprof') return { format: 'pprof', data: mergePprofs(sofar.data, more.data) };
  throw new Error('a cell profiled in two formats');
}
