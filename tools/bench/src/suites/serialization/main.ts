// bench:serialization: in-process, no network. Encodes and decodes the blog's messages from a few bytes
// to over 100 KB with each codec (protobuf as the servers use it, the tuned protobuf codec, JSON,
// gzipped JSON), with calibrated iterations, and writes results.json and results.md in a new folder.
import * as path from 'node:path';
import { verifyReply } from '@bench/samples';
import { collectProvenance } from '../../provenance';
import { createRunFolder, writeFileAtomic } from '../../store';
import type { Calibration } from './calibrate';
import { CODECS } from './codecs';
import { measureCell, type SerializationCell } from './measure';
import { renderSerialization } from './render';
import { SIZES } from './sizes';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../../../..');
const PROFILES: Record<string, Calibration> = {
  default: { minSampleMs: 100, targetSampleMs: 400, samples: 5 },
  quick: { minSampleMs: 5, targetSampleMs: 20, samples: 3 },
};

function parseArgs(argv: string[]): { profile: string; out: string } {
  let profile = 'default';
  let out = 'results';
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (flag === '--profile' && value && value in PROFILES) profile = value;
    else if (flag === '--out' && value) out = value;
    else throw new Error(`usage: npx nx run bench:serialization [--profile default|quick] [--out DIR] (got ${argv.join(' ')})`);
  }
  return { profile, out: path.resolve(out) };
}

function main(argv: string[]): number {
  const { profile, out } = parseArgs(argv);
  const calibration = PROFILES[profile];
  const startedAt = new Date();
  const runDir = createRunFolder(out, startedAt, 'serialization');
  const cells: SerializationCell[] = [];
  for (const size of SIZES) {
    for (const codec of CODECS.filter((c) => c.handles.includes(size.kind))) {
      // A codec that loses rows is not timed: the round trip must give back what went in.
      const value = size.build();
      const back = codec.decode(size.kind, codec.encode(size.kind, value));
      if (size.kind === 'samples') {
        const check = verifyReply(back, (value as { samples: unknown[] }).samples.length);
        if (!check.ok) throw new Error(`${codec.id} does not round-trip ${size.id}: ${check.reason}`);
      }
      cells.push(...measureCell(size, codec, calibration));
      process.stderr.write(`serialization: ${size.id} ${codec.id} done\n`);
    }
  }
  const doc = {
    schemaVersion: 1,
    suite: 'serialization',
    provenance: collectProvenance(WORKSPACE_ROOT, argv),
    settings: { startedAt: startedAt.toISOString(), profile, calibration, sizes: SIZES.map((s) => s.id), codecs: CODECS.map(({ id, description }) => ({ id, description })) },
    results: cells,
  };
  writeFileAtomic(path.join(runDir, 'results.json'), JSON.stringify(doc, null, 2) + '\n');
  const md = renderSerialization(cells, `# Serialization: ${startedAt.toISOString()} (profile ${profile})`);
  writeFileAtomic(path.join(runDir, 'results.md'), md);
  process.stdout.write(md);
  process.stderr.write(`serialization: results in ${path.relative(process.cwd(), runDir)}/\n`);
  return 0;
}

try {
  process.exit(main(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(`serialization: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
