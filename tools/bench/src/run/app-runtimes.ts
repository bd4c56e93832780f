// What each running app of a set actually runs on: the executable behind its PID (/proc/<pid>/exe) and
// that executable's process.versions. Read from the processes the bench started, never assumed from
// --node, so a wrong binary on the PATH or a wrapper that re-execs shows in provenance.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { errorText } from '../cli';
import type { AppRuntime, AppRuntimeRecord } from '../model';

/** How long asking an executable for its versions may take. */
const VERSIONS_TIMEOUT_MS = 30_000;

const byExecutable = new Map<string, Omit<AppRuntime, 'executable'> | null>();

function versionsOf(executable: string): Omit<AppRuntime, 'executable'> | null {
  if (!byExecutable.has(executable)) {
    try {
      const script = 'const v = process.versions; console.log(JSON.stringify({ node: process.version, v8: v.v8, openssl: v.openssl, llhttp: v.llhttp, uv: v.uv, nghttp2: v.nghttp2 }))';
      byExecutable.set(executable, JSON.parse(execFileSync(executable, ['-e', script], { encoding: 'utf8', timeout: VERSIONS_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'] })));
    } catch {
      byExecutable.set(executable, null);
    }
  }
  return byExecutable.get(executable)!;
}

/**
 * The runtime of a running Node process, or why it cannot be read (the process is gone, or /proc is not
 * there as on macOS).
 */
export function runtimeOfProcess(pid: number): AppRuntimeRecord {
  let executable: string;
  try {
    executable = fs.readlinkSync(`/proc/${pid}/exe`);
  } catch (error) {
    return { error: `cannot read /proc/${pid}/exe: ${errorText(error)}` };
  }
  const versions = versionsOf(executable);
  return versions ? { executable, ...versions } : { error: `${executable} did not report its versions` };
}
