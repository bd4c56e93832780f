// What README.md and docs/*.md promise a user, checked against the repository (issue #19, "A user's first
// 15 minutes"): the README stays short and answers first, no link leaves the repository or points at a
// missing file or heading, and every command shown names a project, target, option, generator, npm script
// or file that exists. Targets and options are read from the code (project.json files, bench:all's USAGE,
// the suites' option specs, each entry point's own usage text), never from a list kept here, so a new
// target or option is documented-and-checked the day it lands.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TUNINGS } from '@bench/config';
import { BLOG_CASES } from '../src/plan/cases';
import { helpText, type Command } from '../src/cli';
import { parseOptions, USAGE } from '../src/plan/options';
import { usage, type SuiteOptionsSpec } from '../src/suites/common/args';

const ROOT = path.resolve(__dirname, '../../..');

/** "≤ 15 KB" read as 15,000 bytes (decimal kilobytes, the stricter reading), measured like `wc -c`. */
const README_MAX_BYTES = 15_000;
/** The verdict table (every blog case) must be over within this many lines of the README. */
const VERDICT_WITHIN_LINES = 40;
/**
 * Pages other engineers are writing in parallel (issue #19). Links to them are accepted while they do not
 * exist yet; once a page exists it is checked like any other (its headings too), and the entry can go.
 */
const PENDING_PAGES: ReadonlySet<string> = new Set(['docs/network.md', 'docs/reliability.md']);
/** Strings that point at files outside a clone of the repository. */
const OUTSIDE_REFERENCES = ['../shared', 'shared/reference'];

// ---------------------------------------------------------------------------------------------------------
// The workspace, read from its files.

interface Project {
  name: string;
  root: string;
  targets: Record<string, { options?: { command?: string } }>;
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

function readProjects(): Map<string, Project> {
  const projects = new Map<string, Project>();
  for (const group of ['apps', 'libs', 'tools']) {
    for (const dir of fs.readdirSync(path.join(ROOT, group))) {
      const file = path.join(ROOT, group, dir, 'project.json');
      if (!fs.existsSync(file)) continue;
      const json = readJson<{ name: string; targets?: Project['targets'] }>(file);
      projects.set(json.name, { name: json.name, root: `${group}/${dir}`, targets: json.targets ?? {} });
    }
  }
  return projects;
}

/** Top-level patterns of .gitignore: build outputs and results, which a clone does not have. */
function readIgnored(): string[] {
  return fs
    .readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

function isIgnored(relPath: string, patterns: readonly string[]): boolean {
  const clean = relPath.replace(/^\.\//, '');
  const segments = clean.split('/').filter(Boolean);
  return patterns.some((pattern) => {
    if (pattern.startsWith('*')) return clean.endsWith(pattern.slice(1));
    const p = pattern.replace(/\/$/, '');
    if (!p.includes('/')) return segments.includes(p);
    return clean === p || clean.startsWith(`${p}/`);
  });
}

interface Usage {
  /** Every `--flag` the usage text names. */
  flags: Set<string>;
  /** Where the flags were read from, for the failure message. */
  source: string;
}

function flagsIn(text: string): Set<string> {
  return new Set(text.match(/--[a-z][a-z0-9-]*/g) ?? []);
}

function isSuiteSpec(value: unknown): value is SuiteOptionsSpec<Record<string, number>> {
  return typeof value === 'object' && value !== null && 'suite' in value && 'options' in value && 'presets' in value;
}

/** A command of the bench's parser (src/cli) named `name`: its help lists its options. */
function commandIn(mod: Record<string, unknown>, name: string): Command | undefined {
  return Object.values(mod).find((value): value is Command => typeof value === 'object' && value !== null && 'synopsis' in value && 'options' in value && (value as Command).name === name);
}

/**
 * A bench target's usage, from its entry point (`node tools/bench/dist/<entry>.js` → src/<entry>.ts):
 * the help of the entry's exported command or option spec when the module can be imported without
 * running (it guards its main with `require.main === module`), else of the command it imports, else the
 * entry's own source text (its usage string, error messages and header comment name its flags).
 */
async function usageOf(project: Project, target: string): Promise<Usage | null> {
  const command = project.targets[target]?.options?.command ?? '';
  const entry = /^node\s+(\S+)\/dist\/(\S+)\.js\b/.exec(command);
  if (!entry) return null;
  const srcRel = `${entry[1]}/src/${entry[2]}.ts`;
  const src = path.join(ROOT, srcRel);
  if (!fs.existsSync(src)) return null;
  const text = fs.readFileSync(src, 'utf8');
  if (text.includes('require.main === module')) {
    const mod = (await import(src)) as Record<string, unknown>;
    const command = commandIn(mod, `${project.name}:${target}`);
    if (command) return { flags: flagsIn(helpText(command)), source: `the help of ${srcRel}'s command` };
    const spec = Object.values(mod).find((value) => isSuiteSpec(value) && value.suite === target);
    if (isSuiteSpec(spec)) return { flags: flagsIn(usage(spec)), source: `usage() of ${srcRel}'s option spec` };
  }
  const imported = /import\s*{[^}]*\b[A-Z_]+_COMMAND\b[^}]*}\s*from\s*'(\.[^']+)'/.exec(text);
  if (imported) {
    // A room's index.ts is imported by its folder's name.
    const imports = path.resolve(path.dirname(src), imported[1]);
    const modRel = path.relative(ROOT, fs.existsSync(imports) && fs.statSync(imports).isDirectory() ? path.join(imports, 'index') : imports);
    const command = commandIn((await import(path.join(ROOT, modRel))) as Record<string, unknown>, `${project.name}:${target}`);
    if (command) return { flags: flagsIn(helpText(command)), source: `the help of ${modRel}.ts's command` };
  }
  return { flags: flagsIn(text), source: `the source text of ${srcRel}` };
}

interface Workspace {
  projects: Map<string, Project>;
  scripts: Record<string, string>;
  ignored: string[];
  topLevel: Set<string>;
  usages: Map<string, Usage | null>;
}

async function readWorkspace(): Promise<Workspace> {
  const projects = readProjects();
  const usages = new Map<string, Usage | null>();
  for (const project of projects.values()) {
    for (const target of Object.keys(project.targets)) {
      if (project.targets[target].options?.command?.startsWith('node ')) usages.set(`${project.name}:${target}`, await usageOf(project, target));
    }
  }
  return {
    projects,
    scripts: readJson<{ scripts?: Record<string, string> }>(path.join(ROOT, 'package.json')).scripts ?? {},
    ignored: readIgnored(),
    topLevel: new Set(fs.readdirSync(ROOT).filter((name) => !['node_modules', '.git', '.nx'].includes(name))),
    usages,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Markdown, read just enough: fenced blocks, inline code, links, headings.

interface Fragment {
  line: number;
  text: string;
  kind: 'fenced' | 'inline';
}

interface Parsed {
  /** Lines outside fenced blocks (fenced lines blanked, so numbering holds), inline code blanked too. */
  prose: string[];
  fragments: Fragment[];
  headings: string[];
}

function parseMarkdown(text: string): Parsed {
  const lines = text.split('\n');
  const outside: string[] = [];
  const fragments: Fragment[] = [];
  const headings: string[] = [];
  let fence: string | null = null;
  lines.forEach((line, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length && line.trim() === marker[1]) fence = null;
      else fragments.push({ line: i + 1, text: line, kind: 'fenced' });
      outside.push('');
      return;
    }
    if (marker) {
      fence = marker[1];
      outside.push('');
      return;
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) headings.push(heading[1]);
    outside.push(line);
  });
  // Inline code may wrap across lines within a paragraph, never across a blank line.
  const joined = outside.join('\n');
  const prose = joined.replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (match, _ticks: string, code: string, offset: number) => {
    if (/\n\s*\n/.test(match)) return match;
    const line = joined.slice(0, offset).split('\n').length;
    fragments.push({ line, text: code.replace(/\s+/g, ' ').trim(), kind: 'inline' });
    return match.replace(/[^\n]/g, ' ');
  });
  return { prose: prose.split('\n'), fragments, headings };
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(headings: readonly string[]): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const heading of headings) {
    const text = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[`*_]/g, (c) => (c === '_' ? '_' : ''))
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(text) ?? 0;
    seen.set(text, n + 1);
    anchors.add(n === 0 ? text : `${text}-${n}`);
  }
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

function linksOf(prose: readonly string[]): Link[] {
  const links: Link[] = [];
  prose.forEach((line, i) => {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line: i + 1, target: m[1] });
    for (const m of line.matchAll(/<((?:https?|ftp|mailto):[^>\s]+)>/g)) links.push({ line: i + 1, target: m[1] });
    const reference = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (reference) links.push({ line: i + 1, target: reference[1] });
  });
  return links;
}

// ---------------------------------------------------------------------------------------------------------
// The checks. Each returns messages "file:line: what is wrong".

interface Doc {
  rel: string;
  text: string;
}

function checkReadmeShape(readme: Doc): string[] {
  const failures: string[] = [];
  const bytes = Buffer.byteLength(readme.text, 'utf8');
  if (bytes > README_MAX_BYTES) failures.push(`${readme.rel}: ${bytes} bytes, over the ${README_MAX_BYTES}-byte limit (≤ 15 KB): move detail to docs/`);
  const head = readme.text.split('\n').slice(0, VERDICT_WITHIN_LINES);
  const tables: Array<{ start: number; rows: string[] }> = [];
  for (let i = 0; i + 1 < head.length; i++) {
    if (!head[i].trim().startsWith('|') || !/^\s*\|?\s*:?-{3,}/.test(head[i + 1])) continue;
    const rows: string[] = [];
    for (let j = i; j < head.length && head[j].trim().startsWith('|'); j++) rows.push(head[j]);
    tables.push({ start: i + 1, rows });
  }
  const verdict = tables.find(({ rows }) => /json/i.test(rows[0]) && /grpc/i.test(rows[0]));
  if (!verdict) {
    failures.push(`${readme.rel}: no verdict table in the first ${VERDICT_WITHIN_LINES} lines (a Markdown table whose header names JSON and gRPC)`);
    return failures;
  }
  const firstCells = verdict.rows.slice(2).map((row) => row.split('|')[1]?.trim() ?? '');
  for (const blogCase of BLOG_CASES) {
    const row = verdict.rows.slice(2).find((_, k) => firstCells[k] === blogCase.id);
    if (!row) failures.push(`${readme.rel}:${verdict.start}: the verdict table (within the first ${VERDICT_WITHIN_LINES} lines) has no complete row for case ${blogCase.id}`);
    else if (!/\b(json|grpc|tie)\b/i.test(row.split('|').slice(2).join('|'))) failures.push(`${readme.rel}:${verdict.start}: the verdict row for ${blogCase.id} names no winner (JSON, gRPC or tie)`);
  }
  return failures;
}

function checkLinks(doc: Doc, parsed: Parsed, anchorsOfFile: (rel: string) => Set<string> | null): string[] {
  const failures: string[] = [];
  doc.text.split('\n').forEach((line, i) => {
    const outside = OUTSIDE_REFERENCES.find((s) => line.includes(s));
    if (outside) failures.push(`${doc.rel}:${i + 1}: names ${JSON.stringify(outside)}, which is not in a clone of the repository`);
  });
  for (const link of linksOf(parsed.prose)) {
    const where = `${doc.rel}:${link.line}: link ${JSON.stringify(link.target)}`;
    if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) {
      failures.push(`${where} leaves the repository (docs link only to files in it)`);
      continue;
    }
    if (link.target.startsWith('/')) {
      failures.push(`${where} is absolute; use a path relative to ${doc.rel}`);
      continue;
    }
    const [filePart, fragment] = link.target.split('#', 2);
    const file = filePart.split('?')[0];
    const targetRel = file === '' ? doc.rel : path.relative(ROOT, path.resolve(ROOT, path.dirname(doc.rel), decodeURIComponent(file)));
    if (targetRel.startsWith('..') || path.isAbsolute(targetRel)) {
      failures.push(`${where} points outside the repository (resolves to ${targetRel})`);
      continue;
    }
    const relPosix = targetRel.split(path.sep).join('/');
    if (file !== '' && !fs.existsSync(path.join(ROOT, targetRel))) {
      if (!PENDING_PAGES.has(relPosix)) failures.push(`${where}: ${relPosix} does not exist`);
      continue;
    }
    if (fragment !== undefined && relPosix.endsWith('.md')) {
      const anchors = anchorsOfFile(relPosix);
      if (anchors && !anchors.has(fragment)) failures.push(`${where}: ${relPosix} has no heading with anchor #${fragment} (it has: ${[...anchors].join(', ')})`);
    }
  }
  return failures;
}

/** One shell command, cut at `&&`, `||`, `;`, pipes and comments. */
function commandsIn(text: string): string[] {
  return text
    .replace(/(^|\s)#.*$/, '')
    .split(/&&|\|\||;|\s\|\s/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function argsOf(rest: string): string[] {
  const args = rest.trim().split(/\s+/).filter(Boolean);
  const end = args.indexOf('--');
  return end === -1 ? args : args.slice(0, end);
}

function checkFlags(where: string, label: string, args: readonly string[], known: Usage | null): string[] {
  const flags = args.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0]);
  if (flags.length === 0) return [];
  if (!known) return [`${where}: cannot verify the options of ${label} (no usage text found for it): ${flags.join(' ')}`];
  return flags.filter((f) => !known.flags.has(f)).map((f) => `${where}: ${label} has no option ${f} (not in ${known.source})`);
}

async function checkCommands(doc: Doc, parsed: Parsed, ws: Workspace): Promise<{ failures: string[]; commands: string[] }> {
  const failures: string[] = [];
  const commands: string[] = [];
  for (const fragment of parsed.fragments) {
    const where = `${doc.rel}:${fragment.line}`;
    for (const command of fragment.kind === 'fenced' || /\b(nx|npm)\b/.test(fragment.text) ? commandsIn(fragment.text) : []) {
      let m: RegExpExecArray | null;
      if ((m = /(?:^|\s)(?:npx\s+)?nx\s+run\s+([\w.-]+):([\w.-]+)(?::[\w.-]+)?(.*)$/.exec(command))) {
        const [, projectName, target, rest] = m;
        commands.push(`${projectName}:${target}`);
        const project = ws.projects.get(projectName);
        if (!project) {
          failures.push(`${where}: \`${command}\`: no project ${projectName} (projects: ${[...ws.projects.keys()].join(', ')})`);
          continue;
        }
        if (!(target in project.targets)) {
          failures.push(`${where}: \`${command}\`: project ${projectName} has no target ${target} (${project.root}/project.json has: ${Object.keys(project.targets).join(', ')})`);
          continue;
        }
        const args = argsOf(rest);
        const unknown = checkFlags(where, `${projectName}:${target}`, args, ws.usages.get(`${projectName}:${target}`) ?? null);
        failures.push(...unknown);
        // bench:all's own parser judges the whole command line (case ids, variants, values), unless it holds placeholders.
        if (projectName === 'bench' && target === 'all' && unknown.length === 0 && !args.some((a) => /[<>]/.test(a))) {
          try {
            parseOptions(args, ROOT);
          } catch (error) {
            failures.push(`${where}: \`${command}\`: bench:all refuses it: ${(error as Error).message}`);
          }
        }
      } else if ((m = /(?:^|\s)(?:npx\s+)?nx\s+run-many\s+(.*)$/.exec(command))) {
        const args = m[1].split(/\s+/);
        const t = args.findIndex((a) => a === '-t' || a === '--targets' || a === '--target' || /^--targets?=/.test(a));
        const targets: string[] = [];
        if (t !== -1) {
          if (args[t].includes('=')) targets.push(...args[t].split('=')[1].split(','));
          for (let k = t + 1; k < args.length && !args[k].startsWith('-'); k++) targets.push(...args[k].split(','));
        }
        if (targets.length === 0) failures.push(`${where}: \`${command}\`: run-many without -t TARGETS`);
        for (const target of targets.filter(Boolean)) {
          commands.push(`run-many:${target}`);
          if (![...ws.projects.values()].some((p) => target in p.targets)) failures.push(`${where}: \`${command}\`: no project has a target ${target}`);
        }
      } else if ((m = /(?:^|\s)(?:npx\s+)?nx\s+(?:g|generate)\s+(\S+):([\w-]+)(.*)$/.exec(command))) {
        const [, collection, generator, rest] = m;
        commands.push(`generate:${collection}:${generator}`);
        const pkgFile = path.join(ROOT, collection, 'package.json');
        const generatorsRel = fs.existsSync(pkgFile) ? readJson<{ generators?: string }>(pkgFile).generators : undefined;
        if (!generatorsRel) {
          failures.push(`${where}: \`${command}\`: ${collection} is not a generator collection (no package.json "generators")`);
          continue;
        }
        const generatorsFile = path.join(ROOT, collection, generatorsRel);
        const entry = readJson<{ generators: Record<string, { schema: string }> }>(generatorsFile).generators[generator];
        if (!entry) {
          failures.push(`${where}: \`${command}\`: ${collection} has no generator ${generator}`);
          continue;
        }
        const schemaFile = path.join(path.dirname(generatorsFile), entry.schema);
        const properties = Object.keys(readJson<{ properties?: Record<string, unknown> }>(schemaFile).properties ?? {});
        const known: Usage = { flags: new Set(properties.map((p) => `--${p}`)), source: path.relative(ROOT, schemaFile) };
        failures.push(...checkFlags(where, `generator ${collection}:${generator}`, argsOf(rest), known));
      } else if ((m = /(?:^|\s)npm\s+(?:run(?:-script)?\s+([\w:.-]+)|(test|start))\b/.exec(command))) {
        const script = m[1] ?? m[2];
        commands.push(`npm:${script}`);
        if (!(script in ws.scripts)) failures.push(`${where}: \`${command}\`: package.json has no script ${script} (it has: ${Object.keys(ws.scripts).join(', ')})`);
      }
    }
    // A bare `project:target` in inline code is a target reference too (when the project exists).
    const bare = fragment.kind === 'inline' ? /^([\w.-]+):([\w.-]+)$/.exec(fragment.text) : null;
    if (bare && ws.projects.has(bare[1]) && !(bare[2] in ws.projects.get(bare[1])!.targets)) {
      failures.push(`${where}: \`${fragment.text}\`: project ${bare[1]} has no target ${bare[2]}`);
    }
  }
  return { failures, commands };
}

/** Repo-relative paths in code (fenced or inline) must exist, unless they are build outputs or placeholders. */
function checkPaths(doc: Doc, parsed: Parsed, ws: Workspace): string[] {
  const failures: string[] = [];
  for (const fragment of parsed.fragments) {
    for (const raw of fragment.text.split(/[\s()[\]{},;'"`=]+/)) {
      const token = raw.replace(/[.:,;]+$/, '');
      if (!token.includes('/') || /[<>*|$…]|:\/\//.test(token) || token.startsWith('/')) continue;
      // `./tools/bench:endpoint` (a generator) names the folder before the colon.
      const clean = token.replace(/^\.\//, '').split(':')[0];
      if (!ws.topLevel.has(clean.split('/')[0]) || isIgnored(clean, ws.ignored)) continue;
      if (!fs.existsSync(path.join(ROOT, clean))) failures.push(`${doc.rel}:${fragment.line}: ${clean} does not exist in the repository`);
    }
  }
  return failures;
}

// ---------------------------------------------------------------------------------------------------------

function readDocs(): Doc[] {
  const docsDir = path.join(ROOT, 'docs');
  const pages = fs.existsSync(docsDir) ? fs.readdirSync(docsDir).filter((name) => name.endsWith('.md')).sort() : [];
  return ['README.md', ...pages.map((name) => `docs/${name}`)].map((rel) => ({ rel, text: fs.readFileSync(path.join(ROOT, rel), 'utf8') }));
}

async function checkDocs(docs: readonly Doc[], ws: Workspace): Promise<{ failures: string[]; commands: Map<string, string[]> }> {
  const parsed = new Map(docs.map((doc) => [doc.rel, parseMarkdown(doc.text)]));
  const anchorsOfFile = (rel: string): Set<string> | null => {
    const known = parsed.get(rel);
    if (known) return anchorsOf(known.headings);
    const file = path.join(ROOT, rel);
    return fs.existsSync(file) ? anchorsOf(parseMarkdown(fs.readFileSync(file, 'utf8')).headings) : null;
  };
  const failures: string[] = [];
  const commands = new Map<string, string[]>();
  for (const doc of docs) {
    const p = parsed.get(doc.rel)!;
    failures.push(...checkLinks(doc, p, anchorsOfFile));
    const checked = await checkCommands(doc, p, ws);
    failures.push(...checked.failures);
    commands.set(doc.rel, checked.commands);
    failures.push(...checkPaths(doc, p, ws));
  }
  return { failures, commands };
}

describe('README.md and docs/', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await readWorkspace();
  });

  it(`README.md is at most ${README_MAX_BYTES} bytes and opens with the verdict: a table of every blog case within ${VERDICT_WITHIN_LINES} lines`, () => {
    const readme = readDocs()[0];
    expect(checkReadmeShape(readme)).toEqual([]);
  });

  it('link only to files and headings inside the repository, and show only commands, options and paths that exist', async () => {
    const docs = readDocs();
    expect(docs.map((d) => d.rel)).toContain('docs/method.md');
    const { failures, commands } = await checkDocs(docs, ws);
    expect(failures).toEqual([]);
    // The checker saw the README's two commands (it is not passing by reading nothing).
    expect(commands.get('README.md')).toEqual(expect.arrayContaining(['bench:all', 'npm:test']));
  });

  it('docs/variants.md names every tuning of TUNINGS in its table of tunings, once', () => {
    const text = fs.readFileSync(path.join(ROOT, 'docs/variants.md'), 'utf8');
    const rows = text.split('\n').flatMap((line) => /^\| `([a-z0-9-]+)` \|/.exec(line)?.[1] ?? []);
    for (const tuning of TUNINGS) expect([tuning.id, rows.filter((id) => id === tuning.id).length]).toEqual([tuning.id, 1]);
  });

  it("reads bench:all's options from its USAGE and every other bench target's from its own code", () => {
    expect(ws.usages.get('bench:all')?.flags).toEqual(flagsIn(USAGE));
    for (const [target, known] of ws.usages) {
      if (target.startsWith('bench:')) expect({ target, found: (known?.flags.size ?? 0) > 0 }).toEqual({ target, found: true });
    }
  });
});

describe('the docs checker', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await readWorkspace();
  });

  const check = async (text: string, rel = 'docs/example.md') => (await checkDocs([{ rel, text }], ws)).failures;

  it('accepts what exists', async () => {
    const text = [
      '# Example',
      '',
      'See [the method](method.md#how-to-read-the-table) and [the top](#example), or [the network stage](network.md).',
      '',
      '```sh',
      'npm ci && npx nx run bench:all --cases 1-2,20kx4 --variants blog,tuned --runs 5   # a comment',
      'npx nx run bench:echo --calls 2000 --profile quick',
      'npx nx run bench:compare --base results/<run> --head results/<run>',
      'NX_DAEMON=false npx nx run bench:test -- --testPathPattern docs',
      'npx nx g ./tools/bench:endpoint --name orders --item Order',
      'npx nx run-many -t lint test',
      '```',
      '',
      'Edit `tools/bench/src/plan/cases.ts`; `tools/bench/dist/main.js` is built; `npm test` runs `payloads:generate`.',
    ].join('\n');
    expect(await check(text)).toEqual([]);
  });

  it('names the file, the line and what is missing', async () => {
    const text = [
      '# Example',
      '',
      'Read [this](https://example.com/x), [that](../../outside.md), [gone](missing.md), [anchor](method.md#no-such-heading) and `../shared/reference/experiments.md`.',
      '',
      '```sh',
      'npx nx run bench:all --no-such-flag 1',
      'npx nx run bench:all --cases 9-9',
      'npx nx run bench:nope',
      'npx nx run nobody:build',
      'npx nx run bench:soak --duration-s 5 --bogus 1',
      'npx nx g ./tools/bench:endpoint --colour red',
      'npm run no-such-script',
      'cat tools/bench/src/no-such-file.ts',
      '```',
    ].join('\n');
    const failures = await check(text);
    const expected = [
      /^docs\/example\.md:3: names "\.\.\/shared"/,
      /^docs\/example\.md:3: link "https:\/\/example\.com\/x" leaves the repository/,
      /^docs\/example\.md:3: link "\.\.\/\.\.\/outside\.md" points outside the repository/,
      /^docs\/example\.md:3: link "missing\.md": docs\/missing\.md does not exist/,
      /^docs\/example\.md:3: link "method\.md#no-such-heading": docs\/method\.md has no heading/,
      /^docs\/example\.md:6: bench:all has no option --no-such-flag \(not in the help of tools\/bench\/src\/plan\/index\.ts's command\)/,
      /^docs\/example\.md:7: .*bench:all refuses it: .*9-9/,
      /^docs\/example\.md:8: .*project bench has no target nope/,
      /^docs\/example\.md:9: .*no project nobody/,
      /^docs\/example\.md:10: bench:soak has no option --bogus/,
      /^docs\/example\.md:11: generator \.\/tools\/bench:endpoint has no option --colour/,
      /^docs\/example\.md:12: .*package\.json has no script no-such-script/,
      /^docs\/example\.md:13: tools\/bench\/src\/no-such-file\.ts does not exist/,
    ];
    for (const pattern of expected) expect({ pattern: String(pattern), found: failures.some((f) => pattern.test(f)) }).toEqual({ pattern: String(pattern), found: true });
    expect(failures).toHaveLength(expected.length);
  });

  it('fails a README that is too long or has no verdict table near the top', () => {
    const long = { rel: 'README.md', text: `# T\n\n${'x'.repeat(README_MAX_BYTES)}\n` };
    expect(checkReadmeShape(long)).toEqual([
      expect.stringMatching(/over the 15000-byte limit/),
      expect.stringMatching(/no verdict table in the first 40 lines/),
    ]);
    const partial = { rel: 'README.md', text: '# T\n\n| case | JSON vs gRPC |\n|---|---|\n| ①-1 | tie |\n' };
    expect(checkReadmeShape(partial)).toEqual(expect.arrayContaining([expect.stringMatching(/no complete row for case ①-2/)]));
  });
});
