// Every process the bench starts ends with it, SIGKILL included (issue #45 item 4). The one mechanism:
// when a tool starts (runTool, after its command line parsed), the bench moves itself into a cgroup of
// its own, `bench-life-<pid>-<start>`, made under the cgroup it runs in. Whatever it then starts inherits
// it, whatever that forks or daemonizes too (epmd, a start script's JVM), in any network namespace
// (`ip netns exec` keeps the cgroup): the apps, the load drivers, the delayer, dnsmasq, Envoy, the brokers,
// Go apps. Beside it, outside that cgroup, runs the keeper: a shell holding the read end of a pipe
// whose write end only the bench holds (O_CLOEXEC: no child inherits it). However the bench ends, the
// kernel closes the pipe, and the keeper kills the cgroup (cgroup.kill on v2; each PID of the tree,
// again until none is left, on v1) and removes it. A cgroup the bench moves a process into on a
// cgroup v2-only host (a replica's CPU limit) leaves this one, so the bench names it to the keeper
// (lifetimeCovers). A keeper killed itself leaves its cgroup: the next tool's start sweeps it
// (sweepLifetimeGroups) once its owner is dead. Without a cgroup hierarchy this process may write to
// (not root), nothing is held: the apps' own pipe rule and each owner's sweep at the next start remain.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Its cgroups' names: the owner's PID and start time, so a sweep tells a dead owner's from a live one's. */
const GROUP = /^bench-life-(\d+)-(\d+)$/;
/** How deep below a hierarchy's root a sweep looks for them (they sit under the cgroup the tool ran in). */
const SWEEP_DEPTH = 8;

/**
 * The keeper: reads until the bench's pipe ends (each line a cgroup more to empty), then kills every
 * process in its cgroup and those, tree included, and removes the cgroups, deepest first. $0 is the
 * bench's cgroup.
 */
const KEEPER = [
  'extra=',
  'while IFS= read -r line; do extra="$extra $line"; done',
  'for g in "$0" $extra; do',
  '  [ -d "$g" ] || continue',
  '  [ -e "$g/cgroup.kill" ] && echo 1 > "$g/cgroup.kill" 2>/dev/null',
  '  i=0',
  '  while [ $i -lt 200 ]; do',
  '    pids=$(find "$g" -name cgroup.procs -exec cat {} + 2>/dev/null)',
  '    [ -z "$pids" ] && break',
  '    kill -9 $pids 2>/dev/null',
  '    sleep 0.05; i=$((i+1))',
  '  done',
  '  find "$g" -depth -type d -exec rmdir {} + 2>/dev/null',
  'done',
].join('\n');

/** A cgroup hierarchy this process sits in: where it is mounted and this process's group in it. */
export interface Hierarchy {
  version: 'v1' | 'v2';
  mount: string;
  /** This process's cgroup, as a folder under `mount`. */
  own: string;
}

/** What holdLifetime did: the cgroup the tool's processes live in, or why there is none. */
export type LifetimeHold = { cgroup: string; keeper: number } | { unavailable: string };

let held: { hold: LifetimeHold; keeper: ChildProcess | null } | null = null;

/**
 * The hierarchies that can hold the tool's processes, best first: cgroup v2 (cgroup.kill), then v1's
 * `pids` or `freezer` (membership alone, no limit set). From /proc/self/cgroup and /proc/self/mountinfo.
 */
export function hierarchies(proc = '/proc/self'): Hierarchy[] {
  let membership: string[];
  let mounts: string[];
  try {
    membership = fs.readFileSync(path.join(proc, 'cgroup'), 'utf8').trim().split('\n');
    mounts = fs.readFileSync(path.join(proc, 'mountinfo'), 'utf8').trim().split('\n');
  } catch {
    return [];
  }
  const found: Hierarchy[] = [];
  const mountOf = (fstype: string, option: string | null) => {
    for (const line of mounts) {
      const [before, after] = line.split(' - ');
      const [type, , superOptions] = (after ?? '').split(' ');
      const fields = before.split(' ');
      if (type === fstype && (option === null || (superOptions ?? '').split(',').includes(option))) return { root: fields[3], point: fields[4] };
    }
    return null;
  };
  const place = (version: Hierarchy['version'], mount: { root: string; point: string } | null, group: string | undefined) => {
    if (!mount || group === undefined) return;
    const inside = mount.root !== '/' && group.startsWith(mount.root) ? group.slice(mount.root.length) : group;
    found.push({ version, mount: mount.point, own: path.join(mount.point, inside).replace(/(.)\/+$/, '$1') });
  };
  const line = (test: (controllers: string[]) => boolean) => membership.map((l) => l.split(':')).find(([, controllers]) => test(controllers.split(',')))?.slice(2).join(':');
  place('v2', mountOf('cgroup2', null), line((c) => c.length === 1 && c[0] === ''));
  for (const controller of ['pids', 'freezer']) place('v1', mountOf('cgroup', controller), line((c) => c.includes(controller)));
  return found;
}

/**
 * Moves this process into a cgroup of its own with a keeper that kills it when this process ends
 * (see the top of this file); once per process, later calls return the first answer. Sweeps the cgroups
 * of dead owners first.
 */
export function holdLifetime(): LifetimeHold {
  if (held) return held.hold;
  const options = hierarchies();
  for (const hierarchy of options) sweepLifetimeGroups(hierarchy);
  const reasons: string[] = [];
  for (const hierarchy of options) {
    const dir = path.join(hierarchy.own, `bench-life-${process.pid}-${processStartTicks(process.pid) ?? 0}`);
    try {
      fs.mkdirSync(dir);
    } catch (error) {
      reasons.push(`${dir}: ${(error as Error).message}`);
      continue;
    }
    const keeper = spawn('sh', ['-c', KEEPER, dir], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    keeper.once('error', () => undefined); // no sh: keeper.pid is undefined, said below
    try {
      if (keeper.pid === undefined) throw new Error('the keeper did not start (sh)');
      fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(process.pid));
    } catch (error) {
      keeper.stdin?.end(); // the keeper removes the empty cgroup and exits
      if (keeper.pid === undefined) removeEmpty(dir);
      reasons.push(`${dir}: ${(error as Error).message}`);
      continue;
    }
    keeper.unref();
    (keeper.stdin as unknown as { unref(): void }).unref();
    keeper.stdin!.on('error', () => undefined); // a keeper killed from outside: the next start sweeps
    held = { hold: { cgroup: dir, keeper: keeper.pid }, keeper };
    return held.hold;
  }
  held = { hold: { unavailable: reasons.length ? reasons.join('; ') : 'no cgroup hierarchy (neither cgroup v2 nor v1 pids or freezer) is mounted' }, keeper: null };
  return held.hold;
}

/** Names to the keeper a cgroup this process moved one of its processes into: it is emptied with the tool's own. */
export function lifetimeCovers(cgroupDir: string): void {
  if (held?.keeper && !/\s/.test(cgroupDir)) held.keeper.stdin!.write(`${cgroupDir}\n`);
}

/**
 * Kills and removes the bench-life cgroups under `hierarchy` whose owner no longer runs (its keeper was
 * killed too); returns them. Those of live owners, this process's ancestors' too, are kept.
 */
export function sweepLifetimeGroups(hierarchy: Pick<Hierarchy, 'mount'>): string[] {
  const removed: string[] = [];
  const visit = (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.filter((e) => e.isDirectory())) {
      const sub = path.join(dir, entry.name);
      const owner = GROUP.exec(entry.name);
      if (owner && !ownerRuns(Number(owner[1]), Number(owner[2]))) {
        if (emptyTree(sub)) removed.push(sub);
      } else if (depth < SWEEP_DEPTH) visit(sub, depth + 1);
    }
  };
  visit(hierarchy.mount, 0);
  return removed;
}

/** SIGKILLs every process in the tree until none is left (at most 5 s), then removes its folders deepest first. */
function emptyTree(dir: string): boolean {
  const kill = path.join(dir, 'cgroup.kill');
  try {
    fs.accessSync(path.join(dir, 'cgroup.procs'), fs.constants.W_OK);
    if (fs.existsSync(kill)) fs.writeFileSync(kill, '1');
  } catch {
    return false; // not ours to kill (not root): left to one who may
  }
  const until = Date.now() + 5000;
  for (let pids = treePids(dir); pids.length > 0 && Date.now() < until; pids = treePids(dir)) {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  const folders = (d: string): string[] => [...fs.readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).flatMap((e) => folders(path.join(d, e.name))), d];
  try {
    for (const folder of folders(dir)) fs.rmdirSync(folder);
    return true;
  } catch {
    return false;
  }
}

function removeEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // gone already, or not empty: the next start's sweep
  }
}

function treePids(dir: string): number[] {
  try {
    const own = fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
    const below = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).flatMap((e) => treePids(path.join(dir, e.name)));
    return [...own, ...below];
  } catch {
    return []; // removed meanwhile
  }
}

/** When `pid` started (ticks since boot, /proc/<pid>/stat), or null when it is gone. */
export function processStartTicks(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return null;
  }
}

/** Whether `pid` runs and is the process that started at `ticks` (0: its start was unknown): a folder's owner, named in it. */
export function ownerRuns(pid: number, ticks: number): boolean {
  const now = processStartTicks(pid);
  return now !== null && (ticks === 0 || now === ticks);
}
