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
export function createRunFolder(parent: string, date: Date = new Date(), suite?: string): string {
  fs.mkdirSync(parent, { recursive: true });
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
export function writeFileAtomic(file: string, content: string): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = fs.openSync(temp, 'w');
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}

/** Points `<parent>/latest` at the given run folder (a relative symlink, replaced atomically). */
export function pointLatestAt(parent: string, runDir: string): void {
  const link = path.join(parent, 'latest');
  const temp = path.join(parent, `.latest.${process.pid}.tmp`);
  fs.rmSync(temp, { force: true });
  fs.symlinkSync(path.relative(parent, runDir), temp);
  fs.renameSync(temp, link);
}
