// The order of tools/bench/src's rooms (tools/bench/rooms.js), as `nx lint bench` enforces it.
import * as path from 'node:path';
import { parser as tsParser } from 'typescript-eslint';
import { RuleTester } from 'eslint';
import { plugin, ROOMS } from '../rooms';

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
      { filename: at('run/network-runs.ts'), code: "export { startStage } from '../network';" },
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
    ],
  });

  it('lists every folder of src/ as a room, so each has its place in the order', () => {
    const fs = jest.requireActual<typeof import('node:fs')>('node:fs');
    const folders = fs.readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'types').map((e) => e.name);
    expect(folders.filter((f) => !(f in ROOMS))).toEqual([]);
    for (const room of folders) expect(fs.existsSync(path.join(SRC, room, 'index.ts'))).toBe(true);
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
    const rows = [...page.matchAll(/^\| `(\w+)\/` \| .* \| ([^|]+) \|$/gm)].map((m) => [m[1], m[2].trim()] as const);
    const all = Object.keys(ROOMS);
    const mayImport = (room: string, cell: string) => (cell === 'nothing' ? [] : cell === 'every room' ? all.filter((r) => r !== room) : cell.split(/,\s*/));
    expect(rows.map(([room]) => room)).toEqual(all);
    for (const [room, cell] of rows) {
      expect({ room, mayImport: mayImport(room, cell).sort() }).toEqual({ room, mayImport: [...(ROOMS as Record<string, readonly string[]>)[room]].sort() });
    }
  });
});
