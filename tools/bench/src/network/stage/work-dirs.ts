// The stage's work folders (/tmp/nbx-XXXXXX: the bridges' unix sockets): removed when the stage comes
// down, and a killed run's swept at the next stage's start, once their owner is known to be dead.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAlive, startTicks } from './namespaces';

/** mkdtemp's folder name: the prefix and six characters (test folders named nbx-lock-test-… never match). */
const WORK_DIR = /^nbx-[A-Za-z0-9]{6}$/;
/** Who made the folder: its PID and start time (a later process reusing the PID is not its owner). */
const OWNER_FILE = 'owner.json';

interface Owner {
  pid: number;
  startTicks: number | null;
}

/** A new work folder under `parent`, owned by this process. */
export function createWorkDir(parent: string = os.tmpdir()): string {
  const dir = fs.mkdtempSync(path.join(parent, 'nbx-'));
  const owner: Owner = { pid: process.pid, startTicks: startTicks(process.pid) };
  fs.writeFileSync(path.join(dir, OWNER_FILE), `${JSON.stringify(owner)}\n`);
  return dir;
}

function ownerAlive(owner: Owner): boolean {
  return isAlive(owner.pid) && (owner.startTicks === null || startTicks(owner.pid) === owner.startTicks);
}

/**
 * Removes work folders under `parent` whose owner is dead. A folder with no owner file (made before
 * folders named theirs) is removed only with `ownerlessToo`, which the caller may pass when it holds
 * the stage lock with no other stage alive: then no stage can be using it. Returns what it removed.
 */
export function sweepWorkDirs(options: { parent?: string; ownerlessToo?: boolean } = {}): string[] {
  const parent = options.parent ?? os.tmpdir();
  const removed: string[] = [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(parent, { withFileTypes: true });
  } catch {
    return removed;
  }
  for (const entry of entries.filter((e) => e.isDirectory() && WORK_DIR.test(e.name))) {
    const dir = path.join(parent, entry.name);
    let owner: Owner | null = null;
    try {
      owner = JSON.parse(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8')) as Owner;
    } catch {
      owner = null;
    }
    const stale = owner ? !ownerAlive(owner) : options.ownerlessToo === true && onlySockets(dir);
    if (!stale) continue;
    fs.rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

/** An ownerless folder is a stage's only if it holds nothing but its bridges' sockets. */
function onlySockets(dir: string): boolean {
  try {
    return fs.readdirSync(dir).every((name) => /^bridge-\d+\.sock$/.test(name));
  } catch {
    return false;
  }
}
