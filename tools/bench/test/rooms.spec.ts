// The order of tools/bench/src's rooms (tools/bench/rooms.js), as `nx lint bench` enforces it.
import * as path from 'node:path';
import { parser as tsParser } from 'typescript-eslint';
import { RuleTester } from 'eslint';
import { NOT_ROOMS, plugin, ROOMS } from '../rooms';

const SRC = path.join(__dirname, '..', 'src');
const at = (file: string) => path.join(SRC, file);
const tester = new RuleTester({ languageOptions: { parser: tsParser, ecmaVersion: 2022, sourceType: 'module' } });

describe('the rooms rule', () => {
  tester.run('bench/rooms', plugin.rules.rooms, {
    valid: [
      { filename: at('measure/runner.ts'), code: "import { planVisits } from '../plan';" },
      { filename: at('measure/drivers/http-driver.ts'), code: "import type { Measurement } from '../../model';" },
      { filename: at('measure/runner.ts'), code: "import type { Driver } from './drivers/driver';" },
      { filename: at('export/html/report.ts'), code: "import { ms } from '../../model'; import { renderVerdictSection } from './verdict';" },
      { filename: at('run/network-runs.ts'), code: "export { startStage } from '../network/stage';" },
      { filename: at('network/path/path.ts'), code: "import { runStageCommand, type Stage } from '../stage'; import { ENVOY } from './envoy-binary';" },
      { filename: at('network/service/balancing.ts'), code: "import { startClusterDns } from '../path'; import { inNs } from '../stage/index';" },
      { filename: at('network/stage/helpers/forwarder.ts'), code: "import { exitWithParent } from './exit-with-parent';" },
      { filename: at('network/main.ts'), code: "import { runTool } from '../cli'; import { startStage } from './stage'; import { resolveEnvoy } from './path';" },
      { filename: at('suites/service/measure.ts'), code: "import { ReplicaSet } from '../../network/service';" },
      { filename: at('run/apps.ts'), code: "import { x } from '../security';" },
      { filename: at('main.ts'), code: "import { runVariant } from './run'; import { renderIndex } from './compare/index';" },
      { filename: at('suites/common/page.ts'), code: "import { htmlDocument } from '../../export';" },
      { filename: at('model/stats.ts'), code: "import * as fs from 'node:fs'; import { runtimeInfo } from '@bench/config';" },
    ],
    invalid: [
      { filename: at('model/results.ts'), code: "import { runtimeNameOf } from '../plan';", errors: [{ message: 'model/ may not import plan/ (it may import cli; tools/bench/rooms.js)' }] },
      { filename: at('measure/progress.ts'), code: "import { ms } from '../export';", errors: [{ message: 'measure/ may not import export/ (it may import cli, model, plan; tools/bench/rooms.js)' }] },
      { filename: at('cli/run-tool.ts'), code: "import { errorText } from '../measure';", errors: [{ message: 'cli/ may not import measure/ (it may import no other room; tools/bench/rooms.js)' }] },
      { filename: at('measure/cell-pool.ts'), code: "import type { RawResult } from '../model/model';", errors: [{ message: "import model/ through its index.ts ('../model'), not model" }] },
      { filename: at('suites/echo/render.ts'), code: "export { renderBarChart } from '../../export/html/bar-chart';", errors: [{ message: "import export/ through its index.ts ('../../export'), not html/bar-chart" }] },
      { filename: at('main.ts'), code: "const m = import('./plan/options');", errors: [{ message: "import plan/ through its index.ts ('./plan'), not options" }] },
      { filename: at('run/apps.ts'), code: "import { COMPARE_COMMAND } from '../compare-main';", errors: [{ message: 'a room does not import an entry point (src/compare-main)' }] },
      { filename: at('attic/old.ts'), code: "import { ms } from '../model';", errors: [{ message: 'src/attic/ is not a room of tools/bench/rooms.js; add it there with the rooms it may import' }] },
      // network/'s sub-rooms: one on top of the other, each through its own index.ts, the folder itself no room.
      { filename: at('run/on-stage.ts'), code: "import { startStage } from '../network';", errors: [{ message: 'network/ is split into sub-rooms: import one of network/stage/, network/path/, network/service/ through its index.ts' }] },
      { filename: at('network/stage/stage.ts'), code: "import type { ActivePath } from '../path';", errors: [{ message: 'network/stage/ may not import network/path/ (it may import cli, model; tools/bench/rooms.js)' }] },
      { filename: at('network/path/path.ts'), code: "import { ReplicaSet } from '../service';", errors: [{ message: 'network/path/ may not import network/service/ (it may import cli, model, security, network/stage; tools/bench/rooms.js)' }] },
      { filename: at('run/app-sets.ts'), code: "import { ReplicaSet } from '../network/service';", errors: [{ message: 'run/ may not import network/service/ (it may import cli, model, export, compare, plan, measure, network/stage, network/path, security, brokers; tools/bench/rooms.js)' }] },
      { filename: at('network/path/cluster-dns.ts'), code: "import { run } from '../stage/shell';", errors: [{ message: "import network/stage/ through its index.ts ('../stage'), not shell" }] },
      { filename: at('suites/service/measure.ts'), code: "import { ReplicaSet } from '../../network/service/replicas';", errors: [{ message: "import network/service/ through its index.ts ('../../network/service'), not replicas" }] },
      { filename: at('network/main.ts'), code: "import { readLock } from './stage/lock';", errors: [{ message: "import network/stage/ through its index.ts ('./stage'), not lock" }] },
      { filename: at('run/network-runs.ts'), code: "import { NETWORK_COMMAND } from '../network/main';", errors: [{ message: 'a room does not import an entry point (src/network/main)' }] },
      { filename: at('network/mesh/envoy.ts'), code: "import { inNs } from '../stage';", errors: [{ message: 'src/network/mesh/ is not a sub-room of tools/bench/rooms.js; add it there with the rooms it may import' }] },
    ],
  });

  it('lists every folder of src/ as a room, or each folder of one split into sub-rooms, so each has its place in the order', () => {
    const fs = jest.requireActual<typeof import('node:fs')>('node:fs');
    const foldersIn = (dir: string) => fs.readdirSync(path.join(SRC, dir), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.posix.join(dir, e.name));
    const split = new Set(Object.keys(ROOMS).filter((room) => room.includes('/')).map((room) => room.split('/')[0]));
    expect(split).toEqual(new Set(['network']));
    const rooms = foldersIn('').filter((f) => !NOT_ROOMS.includes(f)).flatMap((f) => (split.has(f) ? foldersIn(f) : [f]));
    expect(rooms.sort()).toEqual(Object.keys(ROOMS).sort());
    for (const room of rooms) expect({ room, face: fs.existsSync(path.join(SRC, room, 'index.ts')) }).toEqual({ room, face: true });
    // A split folder has no face of its own: an import names the sub-room it needs.
    for (const folder of split) expect({ folder, face: fs.existsSync(path.join(SRC, folder, 'index.ts')) }).toEqual({ folder, face: false });
  });

  it('has no cycle: each room imports only rooms that do not import it back', () => {
    const reaches = (from: string, seen: Set<string> = new Set()): Set<string> => {
      for (const to of (ROOMS as Record<string, readonly string[]>)[from] ?? []) if (!seen.has(to)) reaches(to, seen.add(to));
      return seen;
    };
    for (const room of Object.keys(ROOMS)) expect([...reaches(room)]).not.toContain(room);
  });
});

describe("docs/architecture.md's room table", () => {
  it('names the rooms of rooms.js, in its order, each with the rooms it may import', () => {
    const fs = jest.requireActual<typeof import('node:fs')>('node:fs');
    const page = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'architecture.md'), 'utf8');
    const rows = [...page.matchAll(/^\| `([\w/]+?)\/` \| .* \| ([^|]+) \|$/gm)].map((m) => [m[1], m[2].trim()] as const);
    const all = Object.keys(ROOMS);
    const mayImport = (room: string, cell: string) => (cell === 'nothing' ? [] : cell === 'every room' ? all.filter((r) => r !== room) : cell.split(/,\s*/));
    expect(rows.map(([room]) => room)).toEqual(all);
    for (const [room, cell] of rows) {
      expect({ room, mayImport: mayImport(room, cell).sort() }).toEqual({ room, mayImport: [...(ROOMS as Record<string, readonly string[]>)[room]].sort() });
    }
  });
});

describe("network/'s sub-rooms' faces", () => {
  // Offered by the stage to rooms that place their own processes in its namespaces, though no file
  // imports them yet: its topology, as the face offered it before network/ was split.
  const OFFERED: Record<string, readonly string[]> = { 'network/stage': ['topologyFor', 'StageHost'] };

  it('export only what a file outside the sub-room imports from them', () => {
    const fs = jest.requireActual<typeof import('node:fs')>('node:fs');
    const ts = jest.requireActual<typeof import('typescript')>('typescript');
    const parse = (file: string) => ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const files = fs.readdirSync(SRC, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => path.join(e.parentPath, e.name));
    const subRooms = Object.keys(ROOMS).filter((room) => room.includes('/'));
    const imported = new Map(subRooms.map((room) => [room, new Set<string>()]));
    for (const file of files) {
      for (const statement of parse(file).statements) {
        if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
        const target = path.relative(SRC, path.resolve(path.dirname(file), statement.moduleSpecifier.text)).replace(/\/index$/, '');
        const names = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : statement.exportClause;
        if (!imported.has(target) || path.relative(path.join(SRC, target), file).split(path.sep)[0] !== '..' || !names || !('elements' in names)) continue;
        for (const element of names.elements) imported.get(target)!.add((element.propertyName ?? element.name).text);
      }
    }
    for (const room of subRooms) {
      const exported = parse(path.join(SRC, room, 'index.ts')).statements.flatMap((s) => (ts.isExportDeclaration(s) && s.exportClause && 'elements' in s.exportClause ? s.exportClause.elements.map((e) => e.name.text) : []));
      const offered = OFFERED[room] ?? [];
      expect({ room, unused: exported.filter((name) => !imported.get(room)!.has(name) && !offered.includes(name)) }).toEqual({ room, unused: [] });
      expect({ room, offered: offered.filter((name) => !exported.includes(name)) }).toEqual({ room, offered: [] });
    }
  });
});
