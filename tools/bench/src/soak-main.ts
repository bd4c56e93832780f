// bench:soak: `npx nx run bench:soak [--duration-s 60] [--warmup-s 10] [--http-concurrency 100]
// [--grpc-concurrency 50] [--rows 1] [--out DIR]`: sustained load on server-a and server-b at once,
// then errors and RSS growth. Starts the blog variant's apps, stops them by PID at the end.
import * as os from 'node:os';
import * as path from 'node:path';
import { parseIntField } from '@bench/validation';
import { startApps, type StartedApps } from './apps';
import { planPinning } from './pinning';
import { runLoad } from './soak/load';
import { judgeSoak, renderSoakMarkdown, summarizeLoad } from './soak/report';
import { SoakTargets } from './soak/targets';
import { createRunFolder, writeFileAtomic } from './store';
import { VARIANTS } from './variants';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');
const DEFAULTS = { 'duration-s': 60, 'warmup-s': 10, 'http-concurrency': 100, 'grpc-concurrency': 50, rows: 1 };
const LIMITS: Record<keyof typeof DEFAULTS, { min: number; max: number }> = {
  'duration-s': { min: 1, max: 3600 },
  'warmup-s': { min: 0, max: 600 },
  'http-concurrency': { min: 1, max: 1000 },
  'grpc-concurrency': { min: 1, max: 1000 },
  rows: { min: 1, max: 10_000 },
};

function parseArgs(argv: string[]): { values: Record<keyof typeof DEFAULTS, number>; out: string } {
  const values = { ...DEFAULTS };
  let out = 'results';
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const name = flag.replace(/^--/, '');
    const value = inline ?? argv[++i];
    if (name === 'out' && value) {
      out = value;
      continue;
    }
    if (!(name in DEFAULTS) || value === undefined) throw new Error(`unknown or incomplete option ${argv[i - (inline ? 0 : 1)]}; options: --${Object.keys(DEFAULTS).join(', --')}, --out`);
    const parsed = parseIntField(`--${name}`, value, LIMITS[name as keyof typeof DEFAULTS]);
    if (!parsed.ok) throw new Error(parsed.error.message);
    values[name as keyof typeof DEFAULTS] = parsed.value;
  }
  return { values, out: path.resolve(out) };
}

async function main(argv: string[]): Promise<number> {
  const { values, out } = parseArgs(argv);
  const startedAt = new Date();
  const runDir = createRunFolder(out, startedAt);
  const blog = VARIANTS.find((v) => v.id === 'blog')!;
  let apps: StartedApps | null = null;
  let targets: SoakTargets | null = null;
  try {
    process.stderr.write(`soak: starting the apps; writing ${path.relative(process.cwd(), runDir)}\n`);
    apps = await startApps(WORKSPACE_ROOT, path.join(runDir, 'logs'), planPinning(false, os.cpus().length, false), blog);
    targets = new SoakTargets(`http://127.0.0.1:${apps.ports.serverA}`, `127.0.0.1:${apps.ports.serverB}`, values['http-concurrency']);
    const t = targets;
    const phase = (seconds: number) =>
      Promise.all([
        runLoad(values['http-concurrency'], seconds * 1000, () => t.httpCall(values.rows)),
        runLoad(values['grpc-concurrency'], seconds * 1000, () => t.grpcCall(values.rows)),
      ]);
    process.stderr.write(`soak: warm-up ${values['warmup-s']} s …\n`);
    await phase(values['warmup-s']);
    const rssWarm = { 'server-a': (await t.serverAMetrics()).rssBytes, 'server-b': (await t.serverBMetrics()).rssBytes };
    process.stderr.write(`soak: ${values['duration-s']} s at ${values['http-concurrency']} HTTP connections and ${values['grpc-concurrency']} gRPC calls …\n`);
    const [httpLoad, grpcLoad] = await phase(values['duration-s']);
    const rssEnd = { 'server-a': (await t.serverAMetrics()).rssBytes, 'server-b': (await t.serverBMetrics()).rssBytes };

    const loads = [
      summarizeLoad('server-a (HTTP/1.1 + JSON)', values['http-concurrency'], httpLoad),
      summarizeLoad('server-b (gRPC)', values['grpc-concurrency'], grpcLoad),
    ];
    const verdict = judgeSoak(loads, rssWarm, rssEnd);
    const settings = { startedAt: startedAt.toISOString(), durationS: values['duration-s'], warmupS: values['warmup-s'], rows: values.rows };
    const doc = { settings, loads, rssWarm, rssEnd, verdict, cpuCount: os.cpus().length };
    writeFileAtomic(path.join(runDir, 'soak.json'), JSON.stringify(doc, null, 2) + '\n');
    const md = renderSoakMarkdown(loads, rssWarm, rssEnd, verdict, settings);
    writeFileAtomic(path.join(runDir, 'soak.md'), md);
    process.stdout.write(`\n${md}`);
    return verdict.errorsOk && verdict.rssOk ? 0 : 1;
  } finally {
    targets?.close();
    await apps?.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`soak: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
