// What `npm ci` warns about, read from package-lock.json (issue #32, "Today's Node"): npm prints
// EBADENGINE for every installed package whose engines.node does not admit the Node running npm (the
// machine's own, not the project's Node 24), and it names every install script that allowScripts does
// not allow. The machine's Node may be any release devEngines admits, so each package must admit all of
// them, and each install script must be allowed: then a fresh `npm ci` prints neither.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { subset, validRange } from 'semver';

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
}

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

  it('every installed package’s engines.node admits every Node devEngines admits (no EBADENGINE)', () => {
    const refusing = installed
      .filter(([, entry]) => entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
      .filter(([, entry]) => !subset(npmNodes, (entry.engines as { node: string }).node))
      .map(([where, entry]) => `${packageName(where)}@${entry.version} wants node ${(entry.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it('allowScripts allows exactly the packages that have an install script', () => {
    const withScripts = [...new Set(installed.filter(([, entry]) => entry.hasInstallScript).map(([where]) => packageName(where)))];
    const allowed = Object.entries(rootPackage.allowScripts).filter(([, allow]) => allow).map(([name]) => name);
    expect(withScripts.sort()).toEqual(allowed.sort());
  });

  it('a range that leaves out an installed package’s Node is caught', () => {
    // The check above, on a known case: jsonc-eslint-parser 3 wants ^20.19.0 || ^22.13.0 || >=24.
    expect(subset('>=20.17', '^20.19.0 || ^22.13.0 || >=24')).toBe(false);
    expect(subset('^20.19.0 || ^22.13.0 || >=24', '^20.19.0 || ^22.13.0 || >=24')).toBe(true);
  });
});
