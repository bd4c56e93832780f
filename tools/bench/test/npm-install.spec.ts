// What `npm ci` warns about, read from package-lock.json (issue #32, "Today's Node"; issue #42): npm prints
// EBADENGINE for every installed package whose engines.node does not admit the Node running npm (the
// machine's own, not the project's Node 24), and it names every install script that allowScripts does
// not cover. The machine's Node may be any release devEngines admits (20.19 and up). Since the move to
// Nest 12 (issue #42) some packages the project runs want Node >= 22 (undici 8: >= 22.19): npm on a
// Node 20 warns about exactly those (listed below, docs/choices.md), installs them all the same, and
// never runs them: the project runs on its own Node and on the --node runtimes, which every package admits.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { satisfies, subset, validRange } from 'semver';
import { RUNTIMES } from '../src/plan/runtimes';

const ROOT = path.resolve(__dirname, '../../..');

interface LockEntry {
  version?: string;
  link?: boolean;
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
}

interface RootPackage {
  devEngines: { runtime: { name: string; version: string } };
  allowScripts: Record<string, boolean>;
  devDependencies: Record<string, string>;
}

/**
 * The packages (name@version) whose engines leave out part of the devEngines range: what `npm ci` on a Node 20
 * prints EBADENGINE for. Nest 12's dependencies, undici 8, connect-es 2.2, protoc-gen-es 2.17 and the NATS client's.
 */
const BEYOND_NPM_NODE = [
  '@bufbuild/protoc-gen-es@2.17.0 wants node >=22',
  '@connectrpc/connect-fastify@2.2.0 wants node >=22',
  '@connectrpc/connect-node@2.2.0 wants node >=22',
  '@nats-io/nuid@3.0.0 wants node >= 22.x',
  'cookie@2.0.2 wants node >=22',
  'file-type@22.3.0 wants node >=22',
  'undici@8.13.1 wants node >=22.19.0',
];

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as T;
}

const rootPackage = readJson<RootPackage>('package.json');
const lock = readJson<{ packages: Record<string, LockEntry> }>('package-lock.json');
/** Every installed package; '' is the project itself, whose engines name its own runtime (npm does not check it). */
const installed = Object.entries(lock.packages).filter(([where, entry]) => where !== '' && !entry.link);

/** `node_modules/a/node_modules/@b/c` → `@b/c`. */
function packageName(where: string): string {
  return where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

describe('npm ci on the machine’s own Node', () => {
  const npmNodes = rootPackage.devEngines.runtime.version;

  it('devEngines names the Node that runs npm as a valid range', () => {
    expect(rootPackage.devEngines.runtime.name).toBe('node');
    expect(validRange(npmNodes)).not.toBeNull();
  });

  const withEngines = installed.filter(([, entry]) => entry.engines && !Array.isArray(entry.engines) && entry.engines.node);
  const nodeOf = (entry: LockEntry): string => (entry.engines as { node: string }).node;

  it('every installed package’s engines.node admits every Node devEngines admits, but for the known few (EBADENGINE on Node 20 only)', () => {
    const refusing = withEngines
      .filter(([, entry]) => !subset(npmNodes, nodeOf(entry)))
      .map(([where, entry]) => `${packageName(where)}@${entry.version} wants node ${nodeOf(entry)}`);
    expect([...new Set(refusing)].sort()).toEqual(BEYOND_NPM_NODE);
    // Those warn on a Node 20 only: from 22.19 on npm installs the tree without a word.
    expect(withEngines.filter(([, entry]) => !satisfies('22.19.0', nodeOf(entry)))).toEqual([]);
  });

  it("every installed package admits the project's own Node and every runtime of --node (the Nodes that run it)", () => {
    const nodes = [rootPackage.devDependencies.node, ...RUNTIMES.map((r) => r.version)];
    const refusing = withEngines.flatMap(([where, entry]) => nodes.filter((node) => !satisfies(node, nodeOf(entry))).map((node) => `${packageName(where)} refuses ${node}`));
    expect(refusing).toEqual([]);
  });

  it('none of the packages beyond the npm Node has an install script (npm would run it on that Node)', () => {
    const names = new Set(BEYOND_NPM_NODE.map((line) => line.slice(0, line.lastIndexOf('@'))));
    expect(installed.filter(([where, entry]) => names.has(packageName(where)) && entry.hasInstallScript)).toEqual([]);
  });

  it('allowScripts names exactly the packages that have an install script, and denies only @parcel/watcher’s', () => {
    const withScripts = [...new Set(installed.filter(([, entry]) => entry.hasInstallScript).map(([where]) => packageName(where)))];
    expect(withScripts.sort()).toEqual(Object.keys(rootPackage.allowScripts).sort());
    // jest 30's file watcher: its script builds from source when no prebuilt binary package fits; the
    // prebuilt one comes as an optional dependency, and only watch mode (never used here) loads it.
    expect(Object.entries(rootPackage.allowScripts).filter(([, allow]) => !allow).map(([name]) => name)).toEqual(['@parcel/watcher']);
  });

  it('a range that leaves out an installed package’s Node is caught', () => {
    // The check above, on a known case: jsonc-eslint-parser 3 wants ^20.19.0 || ^22.13.0 || >=24.
    expect(subset('>=20.17', '^20.19.0 || ^22.13.0 || >=24')).toBe(false);
    expect(subset('^20.19.0 || ^22.13.0 || >=24', '^20.19.0 || ^22.13.0 || >=24')).toBe(true);
  });
});
