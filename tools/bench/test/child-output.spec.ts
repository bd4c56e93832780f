import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

// One rule for programs whose output another program reads (a port, a count, a path): they write it as
// plain text, never through console.log of a non-string, which Node colours whenever FORCE_COLOR is set
// (nx sets FORCE_COLOR=true for every command it runs; CI may too). bench:compose-check once read its
// client port as "\x1b[33m41234\x1b[39m" that way, and a root test its listener's port.
const ROOT = path.resolve(__dirname, '../../..');

/** Where a program's text is not JavaScript of its own: every console.log in it is a child's. */
const SCRIPT = /(\.sh|\.ya?ml)$|^\.ci\//;
const SOURCE = /\.(ts|js|mjs|cjs)$/;

/** console.log( followed by what is surely a string: a literal (quoted or escaped), String(…) or JSON.stringify(…). */
const PLAIN_ARGUMENT = /^\s*(\\?['"`]|String\(|JSON\.stringify\()/;

function badCalls(text: string): string[] {
  return [...text.matchAll(/console\.log\(/g)].filter((m) => !PLAIN_ARGUMENT.test(text.slice(m.index + m[0].length))).map((m) => text.slice(m.index, m.index + 60).split('\n')[0]);
}

/** The text of every string and template literal of a TypeScript or JavaScript file: the programs it hands to child processes. */
function literals(file: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    else if (ts.isTemplateExpression(node)) found.push([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('${…}'));
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false));
  return found;
}

function trackedFiles(): string[] {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr}`);
  return listed.stdout.split('\0').filter((file) => file && fs.existsSync(path.join(ROOT, file)));
}

describe("numbers and paths a program reads from a child's output", () => {
  it('would not survive console.log under FORCE_COLOR: Node colours a number even into a pipe', () => {
    const printed = spawnSync(process.execPath, ['-e', 'console.log(41234)'], { env: { ...process.env, FORCE_COLOR: 'true' }, encoding: 'utf8' }).stdout;
    expect(printed.trim()).not.toBe('41234');
    expect(printed).toContain('41234');
  });

  it("are written plainly by every child program in the repository's scripts and sources", () => {
    // This file's own examples are the defect on purpose.
    const offenders = trackedFiles().filter((file) => file !== path.relative(ROOT, __filename)).flatMap((file) => {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      if (!text.includes('console.log(')) return [];
      const programs = SCRIPT.test(file) ? [text] : SOURCE.test(file) ? literals(file, text) : [];
      return programs.flatMap(badCalls).map((call) => `${file}: ${call}`);
    });
    expect(offenders).toEqual([]);
  });

  it('catches the defect it is for and lets plain text through', () => {
    expect(badCalls(`node -e 'console.log(s.address().port)'`)).toHaveLength(1);
    expect(badCalls('console.log(e.code)')).toHaveLength(1);
    expect(badCalls(`console.log('up'); console.log(String(port)); console.log(JSON.stringify(x)); process.stdout.write(String(port))`)).toEqual([]);
    expect(literals('x.ts', "spawn(node, ['-e', `listen(() => console.log(${'port'}))`])")).toContain('listen(() => console.log(${…}))');
  });
});
