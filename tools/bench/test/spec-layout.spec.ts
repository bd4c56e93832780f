// Where specs live (docs/architecture.md#tests): in their project's test/, never beside the code in src/;
// under tools/bench/test/<room>/, a spec is named after the module (or folder) of src/<room>/ it tests.
// Whole-program specs (a tool run end to end, the docs, the rooms table) sit at test/'s top.
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const BENCH = path.join(ROOT, 'tools/bench');

function filesUnder(dir: string, match: (name: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && match(e.name)).map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

const projects = ['apps', 'libs'].flatMap((group) => fs.readdirSync(path.join(ROOT, group)).map((name) => path.join(ROOT, group, name))).concat(BENCH);

describe('specs as the code is laid out', () => {
  it("lives in its project's test/, not in src/", () => {
    const inSrc = projects.flatMap((project) => filesUnder(path.join(project, 'src'), (name) => name.endsWith('.spec.ts')));
    expect(inSrc).toEqual([]);
  });

  it('under tools/bench/test/<room>/, is named after the module or folder of src/<room>/ it tests', () => {
    const specs = filesUnder(path.join(BENCH, 'test'), (name) => name.endsWith('.spec.ts')).filter((file) => path.dirname(file) !== 'tools/bench/test');
    expect(specs.length).toBeGreaterThan(30);
    const orphans = specs.filter((file) => {
      const module = path.join(BENCH, 'src', path.relative('tools/bench/test', file).replace(/(\.browser)?\.spec\.ts$/, ''));
      return !fs.existsSync(`${module}.ts`) && !fs.existsSync(module);
    });
    expect(orphans).toEqual([]);
  });
});
