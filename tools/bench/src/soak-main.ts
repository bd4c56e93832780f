// bench:soak: `npx nx run bench:soak [--duration-s 60] [--warmup-s 10] [--http-concurrency 100]
// [--grpc-concurrency 50] [--rows 1] [--out DIR]`: sustained load on server-a and server-b at once,
// then errors and RSS growth. Starts the blog variant's apps, stops them by PID at the end.
import * as os from 'node:os';
import * as path from 'node:path';
import { startApps, type StartedApps } from './apps';
import { runTool, type Command, type CommandLine } from './cli';
import { planPinning } from './pinning';
import { runLoad } from './soak/load';
import { judgeSoak, renderSoakMarkdown, summarizeLoad } from './soak/report';
import { SoakTargets } from './soak/targets';
import { createRunFolder, writeFileAtomic } from './store';
import { VARIANTS } from './variants';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');

const OPTIONS = {
  'duration-s': { kind: 'int', value: 'S', min: 1, max: 3600, default: 60, description: 'seconds of measured load' },
  'warmup-s': { kind: 'int', value: 'S', min: 0, max: 600, default: 10, description: 'seconds of the same load before it, not measured' },
  'http-concurrency': { kind: 'int', value: 'N', min: 1, max: 1000, default: 100, description: 'keep-alive HTTP/1.1 connections kept busy against server-a (closed loops)' },
  'grpc-concurrency': { kind: 'int', value: 'N', min: 1, max: 1000, default: 50, description: 'concurrent gRPC calls kept in flight against server-b (closed loops)' },
  rows: { kind: 'int', value: 'N', min: 1, max: 10_000, default: 1, description: 'rows per call' },
  out: { kind: 'text', value: 'DIR', default: 'results', description: 'parent folder of the run folders' },
} as const;

export const SOAK_COMMAND: Command<typeof OPTIONS> = {
  name: 'bench:soak',
  synopsis: 'npx nx run bench:soak [options]',
  about:
    "Sustained load on server-a and server-b at once (the blog variant's apps), then errors and RSS growth:\n" +
    'writes results/<UTC timestamp>/soak.json and soak.md. Exit code 1 when errors or memory growth fail the verdict.',
  options: OPTIONS,
};

async function main({ values }: CommandLine<typeof OPTIONS>): Promise<number> {
  const out = path.resolve(values.out);
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

// A soak that cannot run exits 2, as it always has (1 is a failed verdict).
if (require.main === module) runTool(SOAK_COMMAND, main, { errorExitCode: 2 });
