import * as fs from 'node:fs';
import * as path from 'node:path';

/** `2026-11-21T10-41-59Z`: sortable, and valid as a folder name everywhere. */
export function runFolderName(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-');
}

/**
 * Creates a new run folder under `parent`, never reusing one: if the second is taken (two runs in
 * the same second), a suffix is added. Earlier runs are never overwritten. Suites other than the blog's
 * prefix their folders with their name (`serialization-2026-…`), so listings keep them apart.
 */
/**
 * The run folder as its reader will find it. In a container or pod, --out is a path only that container
 * has (/results, /tmp/results, shown from /app as ../results/<run>); the deployment says where that folder
 * is for the user in BENCH_RESULTS_ON_HOST (docker-compose.yml: the bind mount's ./results; the bench Job:
 * where unpack.sh restores it), and the folder is shown there. Elsewhere: relative to the working directory.
 */
export function shownRunFolder(runDir: string, out: string, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const onHost = env.BENCH_RESULTS_ON_HOST?.trim();
  return onHost ? path.join(onHost, path.relative(out, runDir)) : path.relative(cwd, runDir) || '.';
}

export function createRunFolder(parent: string, date: Date = new Date(), suite?: string): string {
  fs.mkdirSync(parent, { recursive: true });
  sweepStaleTemps(parent);
  const base = suite ? `${suite}-${runFolderName(date)}` : runFolderName(date);
  for (let attempt = 1; attempt < 1000; attempt++) {
    const dir = path.join(parent, attempt === 1 ? base : `${base}-${attempt}`);
    try {
      fs.mkdirSync(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`could not create a new run folder under ${parent}`);
}

/** Writes a file so readers see the old or the new content, never half of one: temp file, then rename. */
export function writeFileAtomic(file: string, content: string | Uint8Array): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    const fd = fs.openSync(temp, 'w');
    try {
      fs.writeFileSync(fd, content);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true }); // a full disk or a vanished folder leaves no half-written temp behind
    throw error;
  }
}

/** The temp files writeFileAtomic and pointLatestAt leave only when killed between write and rename: `.<name>.<pid>.tmp`. */
const TEMP_FILE = /^\..+\.(\d+)\.tmp$/;

/**
 * A temp file younger than this is never swept, even if its PID looks dead here: a bench in a container
 * writing into a bind-mounted results folder has PIDs of another namespace, and its writes take milliseconds.
 */
export const STALE_TEMP_AGE_MS = 60_000;

/**
 * Removes the temp files of killed writers under `parent` and in each folder directly under it (the run
 * folders): only those whose PID no longer runs and that are older than STALE_TEMP_AGE_MS. Returns what
 * it removed. Called at every run's start (createRunFolder), so a SIGKILL's leftovers go with the next run.
 */
export function sweepStaleTemps(parent: string, now: number = Date.now()): string[] {
  const removed: string[] = [];
  const sweep = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const match = TEMP_FILE.exec(entry.name);
      if (!match || entry.isDirectory() || processRuns(Number(match[1]))) continue;
      const file = path.join(dir, entry.name);
      try {
        if (now - fs.lstatSync(file).mtimeMs < STALE_TEMP_AGE_MS) continue;
        fs.rmSync(file, { force: true });
        removed.push(file);
      } catch {
        // gone meanwhile, or not ours to remove: leave it
      }
    }
  };
  try {
    sweep(parent);
    for (const entry of fs.readdirSync(parent, { withFileTypes: true })) if (entry.isDirectory()) sweep(path.join(parent, entry.name));
  } catch {
    // an unreadable results folder is reported by whatever reads it next
  }
  return removed;
}

/** Whether a process with this PID runs (one we may not signal runs too). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Points `<parent>/latest` at the given run folder (a relative symlink, replaced atomically). */
export function pointLatestAt(parent: string, runDir: string): void {
  const link = path.join(parent, 'latest');
  const temp = path.join(parent, `.latest.${process.pid}.tmp`);
  fs.rmSync(temp, { force: true });
  try {
    fs.symlinkSync(path.relative(parent, runDir), temp);
    fs.renameSync(temp, link);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
