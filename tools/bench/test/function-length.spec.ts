// Readable units (issue #41): no function in tools/bench/src is longer than MAX_FUNCTION_LINES, counted
// from its first line to its last as TypeScript parses it (declarations, methods, arrows and function
// expressions alike). A longer one is split by what it does, not by where it happens to be long.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const SRC = path.resolve(__dirname, '../src');
const MAX_FUNCTION_LINES = 80;

/** Every function in `source` longer than `max` lines, as `file:line name (n lines)`. */
export function longFunctions(file: string, source: string, max: number): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const long: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const lines = sf.getLineAndCharacterOfPosition(node.end).line - first + 1;
      const named = node.name ?? (node.parent && 'name' in node.parent ? (node.parent.name as ts.Node | undefined) : undefined);
      if (lines > max) long.push(`${file}:${first + 1} ${named ? named.getText(sf) : '(anonymous)'} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return long;
}

describe('functions in tools/bench/src', () => {
  it(`are at most ${MAX_FUNCTION_LINES} lines each`, () => {
    const files = fs
      .readdirSync(SRC, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
      .map((e) => path.join(e.parentPath, e.name));
    expect(files.flatMap((file) => longFunctions(path.relative(SRC, file), fs.readFileSync(file, 'utf8'), MAX_FUNCTION_LINES))).toEqual([]);
  });

  it('are measured whatever their form', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const a${i} = ${i};`).join('\n');
    const source = `function declared() {\n${body(5)}\n}\nconst arrow = () => {\n${body(5)}\n};\nclass C {\n  method() {\n${body(5)}\n  }\n}\n`;
    expect(longFunctions('x.ts', source, 6)).toEqual(['x.ts:1 declared (7 lines)', 'x.ts:8 arrow (7 lines)', 'x.ts:16 method (7 lines)']);
    expect(longFunctions('x.ts', source, 7)).toEqual([]);
  });
});
