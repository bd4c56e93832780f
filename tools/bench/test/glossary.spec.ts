// One word per concept (docs/architecture.md, "Words"): the names in backticks in the glossary's "not"
// column are retired, and none of them may come back as an identifier in any project's source or as a
// word in the docs outside the glossary itself.
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const GLOSSARY = path.join(ROOT, 'docs/architecture.md');

/** The retired names: every backticked code name (camelCase or PascalCase) in the "not" column of the glossary's table; lowercase words there are values, e.g. a failure's kinds. */
export function retiredNames(page: string): string[] {
  const section = page.slice(page.indexOf('## Words'), page.indexOf('\n## ', page.indexOf('## Words') + 1));
  const rows = section.split('\n').filter((line) => /^\| [^-]/.test(line) && !line.startsWith('| word |'));
  const notCells = rows.map((row) => row.split(' | ').at(-1)!.replace(/\s*\|$/, ''));
  return [...new Set(notCells.flatMap((cell) => [...cell.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1]).filter((name) => /[A-Z]/.test(name))))];
}

function filesUnder(dir: string, match: (name: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && match(e.name) && !e.parentPath.includes('node_modules') && !e.parentPath.includes(`${path.sep}dist`) && !e.parentPath.includes('generated'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Where a retired name is used: `file:line name`. */
function uses(files: readonly string[], names: readonly string[]): string[] {
  const pattern = new RegExp(`\\b(${names.join('|')})\\b`);
  return files.flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => {
        const m = pattern.exec(line);
        return m ? [`${path.relative(ROOT, file)}:${i + 1} ${m[1]}`] : [];
      }),
  );
}

describe("the glossary's retired names", () => {
  const names = retiredNames(fs.readFileSync(GLOSSARY, 'utf8'));

  it('are read from the table', () => {
    expect(names).toEqual(expect.arrayContaining(['PlannedCase', 'CaseResult', 'CaseIdentity', 'CaseRun', 'CaseRunner']));
  });

  it('appear in no source file of any project', () => {
    const sources = ['apps', 'libs', 'tools'].flatMap((group) => filesUnder(path.join(ROOT, group), (name) => /\.(ts|js|mjs|go)$/.test(name)));
    // This spec names them to find them.
    expect(uses(sources.filter((f) => f !== __filename), names)).toEqual([]);
  });

  it('appear in no doc outside the glossary', () => {
    const docs = [path.join(ROOT, 'README.md'), ...filesUnder(path.join(ROOT, 'docs'), (name) => name.endsWith('.md')).filter((f) => f !== GLOSSARY)];
    expect(uses(docs, names)).toEqual([]);
  });
});
