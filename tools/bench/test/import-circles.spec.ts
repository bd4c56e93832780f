// No import circles anywhere (issue #41): in every project's src/, no file reaches itself through its
// relative imports, type-only ones included; and between the bench's rooms, network/'s sub-rooms each
// apart, none reaches itself through its files' imports. A circle is where a model stops being a leaf
// (results/'s model.ts once imported its own analyses' types, which imported it back), so a test names each one.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { ROOMS } from '../rooms';

const ROOT = path.resolve(__dirname, '../../..');

function sourcesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The files `file` imports or re-exports by a relative path (static, type-only and dynamic), resolved as TypeScript does. */
function relativeImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => path.resolve(path.dirname(file), name))
    .flatMap((target) => [`${target}.ts`, path.join(target, 'index.ts'), target.replace(/\.js$/, '.ts')].filter((f) => fs.existsSync(f) && fs.statSync(f).isFile()).slice(0, 1));
}

/** Each circle once, as the files around it, relative to the repository (Tarjan's strongly connected components). */
export function importCircles(files: readonly string[], importsOf: (file: string) => string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) circles.push(component.map((f) => path.relative(ROOT, f)).sort());
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return circles;
}

const projects = ['apps', 'libs']
  .flatMap((group) => fs.readdirSync(path.join(ROOT, group)).map((name) => path.join(ROOT, group, name, 'src')))
  .concat(path.join(ROOT, 'tools/bench/src'))
  .filter((src) => fs.existsSync(src));

const BENCH_SRC = path.join(ROOT, 'tools/bench/src');

/** The room of a file of tools/bench/src as rooms.js names it (network/path for a file under it), or null for an entry point. */
function roomOf(file: string): string | null {
  const [folder, sub, ...rest] = path.relative(BENCH_SRC, file).split(path.sep);
  if (sub === undefined) return null;
  if (!Object.keys(ROOMS).some((room) => room.startsWith(`${folder}/`))) return folder;
  return rest.length > 0 ? `${folder}/${sub}` : null;
}

/** Each room → the other rooms its files import. */
function roomImports(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of sourcesUnder(BENCH_SRC)) {
    const from = roomOf(file);
    if (from === null) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    for (const to of relativeImports(file).map(roomOf)) if (to !== null && to !== from) edges.get(from)!.add(to);
  }
  return edges;
}

describe('import circles', () => {
  it.each(projects.map((src) => [path.relative(ROOT, src), src]))('%s has none', (_, src) => {
    expect(importCircles(sourcesUnder(src), relativeImports)).toEqual([]);
  });

  it("tools/bench/src's rooms, network/'s sub-rooms each apart, have none between them", () => {
    const edges = roomImports();
    expect([...(edges.get('network/service') ?? [])]).toEqual(expect.arrayContaining(['network/stage', 'network/path']));
    const at = (room: string) => path.join(BENCH_SRC, room);
    expect(importCircles([...edges.keys()].map(at), (dir) => [...(edges.get(path.relative(BENCH_SRC, dir)) ?? [])].map(at))).toEqual([]);
  });

  it('are found, type-only imports included', () => {
    const imports: Record<string, string[]> = { [`${ROOT}/a.ts`]: [`${ROOT}/b.ts`], [`${ROOT}/b.ts`]: [`${ROOT}/c.ts`], [`${ROOT}/c.ts`]: [`${ROOT}/a.ts`], [`${ROOT}/d.ts`]: [`${ROOT}/a.ts`] };
    expect(importCircles(Object.keys(imports), (f) => imports[f] ?? [])).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circles-'));
    try {
      fs.writeFileSync(path.join(dir, 'model.ts'), "import type { Row } from './rows';\nexport interface Doc { rows: Row[] }\n");
      fs.writeFileSync(path.join(dir, 'rows.ts'), "import type { Doc } from './model';\nexport type Row = Doc['rows'][number];\n");
      expect(importCircles(sourcesUnder(dir), relativeImports)).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
