// How every tool of the bench reads its command line (bench:all, compare, soak, each suite, network):
// Node's util.parseArgs splits it into tokens, a table of options (data: name, kind, description, default)
// says what each option takes, and the help text is generated from that same table.
import { parseArgs } from 'node:util';
import { parseIntField } from '@bench/validation';

/** Bad input on the command line: the tool prints `<tool>: <message>` and its help, and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

interface OptionBase {
  /** What it does, for the help (wrapped there). */
  description: string;
  /** A one-letter alias, e.g. `h` for -h. */
  short?: string;
  /** The default as the help states it, when it is not one value (it depends on the profile, the case). */
  defaultText?: string;
}

/** One word: a folder, a URL, a name. */
export interface TextOption extends OptionBase {
  kind: 'text';
  /** Its placeholder in the help: DIR, URL. */
  value: string;
  /** The only values it takes (checked, and listed in the help). */
  choices?: readonly string[];
  default?: string;
}

/** Comma-separated words (`--cases 1-1,1-2`), read as a list. */
export interface ListOption extends OptionBase {
  kind: 'list';
  value: string;
  /** The only words each item may be (checked). */
  choices?: readonly string[];
  default?: readonly string[];
}

/** A whole number from `min` to `max`. */
export interface IntOption extends OptionBase {
  kind: 'int';
  value: string;
  min: number;
  max: number;
  default?: number;
}

/** On when given, off when not; takes no value. */
export interface SwitchOption extends OptionBase {
  kind: 'switch';
}

export type OptionSpec = TextOption | ListOption | IntOption | SwitchOption;
/** A tool's options by name (the flag without its dashes), in the order the help lists them. */
export type OptionTable = Readonly<Record<string, OptionSpec>>;

type ValueOf<O> = O extends { kind: 'int' } ? number : O extends { kind: 'switch' } ? boolean : O extends { kind: 'list' } ? string[] : string;

/** What a command line gave: switches and options with a default always have a value, the others when given. */
export type OptionValues<T extends OptionTable> = {
  [K in keyof T]: T[K] extends { kind: 'switch' } | { default: unknown } ? ValueOf<T[K]> : ValueOf<T[K]> | undefined;
};

export interface Command<T extends OptionTable = OptionTable> {
  /** The tool as its messages name it: `bench:all`. */
  name: string;
  /** How it is run, after "Usage: ". */
  synopsis: string;
  /** What it does: the help's first paragraph, as written. */
  about: string;
  options: T;
  /** Whether it takes words besides options (bench:network's commands); without, a word is a usage error. */
  positionals?: boolean;
  /** More help after the options, as written (bench:network's commands). */
  notes?: string;
}

export interface CommandLine<T extends OptionTable> {
  values: OptionValues<T>;
  positionals: string[];
  /** --help (or -h) was given: the tool prints its help and exits 0, whatever else the line holds. */
  help: boolean;
}

/** Every tool takes --help; no table lists it. */
const HELP: SwitchOption = { kind: 'switch', short: 'h', description: 'print this help and exit' };

function withHelp(options: OptionTable): OptionTable {
  return { ...options, help: HELP };
}

/** Reads `argv` (both `--name value` and `--name=value`, as Nx forwards options) against the command's table. */
export function parseCommandLine<T extends OptionTable>(command: Command<T>, argv: readonly string[]): CommandLine<T> {
  const table = withHelp(command.options);
  const config = Object.fromEntries(
    Object.entries(table).map(([name, option]) => [name, { type: option.kind === 'switch' ? ('boolean' as const) : ('string' as const), ...(option.short ? { short: option.short } : {}) }]),
  );
  // strict: false leaves the judging to the table below, so every tool words its errors alike.
  const { tokens } = parseArgs({ args: [...argv], options: config, strict: false, allowPositionals: true, tokens: true });
  const given = new Map<string, string>();
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (!command.positionals) throw new UsageError(`unexpected argument ${JSON.stringify(token.value)}`);
      positionals.push(token.value);
    } else if (token.kind === 'option') {
      const option = table[token.name];
      if (!option) throw new UsageError(`unknown option ${token.rawName}`);
      if (option.kind === 'switch') {
        if (token.value !== undefined) throw new UsageError(`--${token.name} takes no value`);
        given.set(token.name, '');
      } else {
        // `--runs --cases 1-1`: the value is missing, not "--cases".
        if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) throw new UsageError(`--${token.name} needs a value`);
        given.set(token.name, token.value);
      }
    }
  }
  const values: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(command.options)) {
    const raw = given.get(name);
    values[name] = raw === undefined ? defaultOf(option) : valueOf(name, option, raw);
  }
  return { values: values as OptionValues<T>, positionals, help: given.has('help') };
}

function defaultOf(option: OptionSpec): unknown {
  if (option.kind === 'switch') return false;
  if (option.kind === 'list') return option.default ? [...option.default] : undefined;
  return option.default;
}

function valueOf(name: string, option: OptionSpec, raw: string): unknown {
  switch (option.kind) {
    case 'switch':
      return true;
    case 'int': {
      const parsed = parseIntField(`--${name}`, raw, option);
      if (!parsed.ok) throw new UsageError(parsed.error.message);
      return parsed.value;
    }
    case 'list': {
      const items = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = option.choices ? items.find((item) => !option.choices!.includes(item)) : undefined;
      if (bad !== undefined) throw new UsageError(`--${name} takes ${orList(option.choices!)}, got ${JSON.stringify(bad)}`);
      return items;
    }
    case 'text':
      if (option.choices && !option.choices.includes(raw)) throw new UsageError(`--${name} must be ${orList(option.choices)}, got ${JSON.stringify(raw)}`);
      return raw;
  }
}

function orList(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/** Help lines are wrapped to this many columns. */
export const HELP_WIDTH = 110;
/** Flags longer than this put their description on the next line. */
const FLAG_COLUMN = 28;

function flagOf(name: string, option: OptionSpec): string {
  const flag = `${option.short ? `-${option.short}, ` : ''}--${name}`;
  if (option.kind === 'switch') return flag;
  return `${flag} ${option.kind === 'text' && option.choices ? option.choices.join('|') : option.value}`;
}

function defaultShown(option: OptionSpec): string | null {
  if (option.defaultText !== undefined) return option.defaultText;
  if (option.kind === 'switch') return null;
  if (option.kind === 'list') return option.default ? option.default.join(',') : null;
  return option.default === undefined ? null : String(option.default);
}

/** One option's help: its description, then its range and default, as the table says. */
function describe(option: OptionSpec): string {
  const notes = [option.kind === 'int' ? `${option.min}–${option.max}` : null, defaultShown(option) === null ? null : `default: ${defaultShown(option)}`].filter(Boolean);
  return notes.length ? `${option.description} (${notes.join('; ')})` : option.description;
}

/** `text` cut into lines of at most `width` columns at spaces (a command's notes use it too). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** The help of a command, generated from its table: usage, what it does, every option with its default. */
export function helpText(command: Command): string {
  const column = FLAG_COLUMN + 2;
  const rows = Object.entries(withHelp(command.options)).flatMap(([name, option]) => {
    const flag = `  ${flagOf(name, option)}`;
    const text = wrap(describe(option), HELP_WIDTH - column).map((line) => ' '.repeat(column) + line);
    if (flag.length < column - 1) text[0] = flag.padEnd(column) + text[0].trimStart();
    else text.unshift(flag);
    return text;
  });
  const notes = command.notes ? ['', command.notes.trimEnd()] : [];
  return [`Usage: ${command.synopsis}`, '', command.about.trimEnd(), '', 'Options:', ...rows, ...notes, ''].join('\n');
}
