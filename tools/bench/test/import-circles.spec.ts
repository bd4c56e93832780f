// No import circles anywhere (issue #41): in every project's src/, no file reaches itself through its
// relative imports, type-only ones included. A circle is where a model stops being a leaf (results/'s
// model.ts once imported its own analyses' types, which imported it back), so a test names each one.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';

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

describe('import circles', () => {
  it.each(projects.map((src) => [path.relative(ROOT, src), src]))('%s has none', (_, src) => {
    expect(importCircles(sourcesUnder(src), relativeImports)).toEqual([]);
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
